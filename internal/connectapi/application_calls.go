package connectapi

import (
	"bytes"
	"context"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// applicationService is what the KYC and the KYB application services both offer: the steps of
// application.Core. The two handlers' list, decision and upload calls share the functions below
// (their documents those of document_calls.go).
type applicationService[A any] interface {
	List(ctx context.Context, tenantID tenancy.TenantID, f application.ListParams, p paging.Params) (paging.Result[A], error)
	Approve(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, d application.Decision) (A, *evidence.Override, error)
	Reject(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, d application.Decision) (A, error)
	UploadDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, u application.Upload) (document.View, error)
	Views(ctx context.Context, docs []document.Document) ([]document.View, error)
}

// queueRequest is a list request's filter: a status and the assignedTo queue value.
type queueRequest interface {
	GetStatus() string
	GetAssignedTo() string
}

// listApplications pages the caller's applications filtered by q (the review queue resolved for
// the caller) and maps each with conv.
func listApplications[A, M any](ctx context.Context, c caller, svc applicationService[A], page, limit *int32, q queueRequest,
	conv func(A) *M) (paging.Result[*M], error) {
	pg, err := paging.New(page, limit, application.PageDefault, application.PageMax)
	if err != nil {
		return paging.Result[*M]{}, err
	}
	res, err := svc.List(ctx, c.tenantID, application.Queue(q.GetStatus(), q.GetAssignedTo(), c.userID), pg)
	if err != nil {
		return paging.Result[*M]{}, err
	}
	out := paging.Result[*M]{Items: make([]*M, 0, len(res.Items)), Total: res.Total, Page: res.Page, Limit: res.Limit}
	for _, a := range res.Items {
		out.Items = append(out.Items, conv(a))
	}
	return out, nil
}

// decide approves application id (approve true) or rejects it with d (a rejection's reason is
// d.Notes) and answers the decision with the override an approval recorded, if any.
func decide[A, M any](ctx context.Context, svc applicationService[A], peerAddr, id string, d application.Decision,
	approve bool, conv func(A, *complydv1.EvidenceOverride) *M) (*connect.Response[M], error) {
	return answer(ctx, peerAddr, func(c caller) (*M, error) {
		if !approve {
			a, err := svc.Reject(ctx, c.tenantID, c.actor, id, d)
			return conv(a, nil), err
		}
		a, ov, err := svc.Approve(ctx, c.tenantID, c.actor, id, d)
		return conv(a, evidenceOverrideProto(ov)), err
	})
}

// uploadRequest is a document upload with the bytes in the message (gRPC and Connect).
type uploadRequest interface {
	GetId() string
	GetDocumentType() string
	GetFileName() string
	GetContent() []byte
}

// uploadDocument stores an upload and answers the document as recorded.
func uploadDocument[A any](ctx context.Context, svc applicationService[A], peerAddr string, m uploadRequest) (*connect.Response[complydv1.KycDocument], error) {
	return answer(ctx, peerAddr, func(c caller) (*complydv1.KycDocument, error) {
		v, err := svc.UploadDocument(ctx, c.tenantID, c.actor, m.GetId(),
			application.Upload{DocumentType: m.GetDocumentType(), FileName: m.GetFileName(), Body: bytes.NewReader(m.GetContent())})
		if err != nil {
			return nil, err
		}
		return DocumentProto(v), nil
	})
}

// detailDocuments maps an application detail's documents with fresh presigned links.
func detailDocuments[A any](ctx context.Context, svc applicationService[A], docs []document.Document) ([]*complydv1.KycDocument, error) {
	views, err := svc.Views(ctx, docs)
	if err != nil {
		return nil, err
	}
	out := make([]*complydv1.KycDocument, 0, len(views))
	for _, v := range views {
		out = append(out, DocumentProto(v))
	}
	return out, nil
}

// detailOf is an application detail's answer as the kind maps it: the message (the application
// and the kind's own trail), the detail's evidence record and its documents; setShared sets the
// fields both kinds' messages have (the evidence's and the documents with their links).
type detailOf[M any] struct {
	msg       *M
	evidence  evidence.Record
	documents []document.Document
	setShared func(ev evidenceFields, docs []*complydv1.KycDocument)
}

// getDetail answers the detail of application id: get is the kind's read, conv its mapping.
func getDetail[A, D, M any](ctx context.Context, svc applicationService[A], peerAddr, id string,
	get func(context.Context, tenancy.TenantID, string) (D, error), conv func(D) detailOf[M]) (*connect.Response[M], error) {
	return answer(ctx, peerAddr, func(c caller) (*M, error) {
		d, err := get(ctx, c.tenantID, id)
		if err != nil {
			return nil, err
		}
		out := conv(d)
		docs, err := detailDocuments(ctx, svc, out.documents)
		if err != nil {
			return nil, err
		}
		out.setShared(evidenceProto(out.evidence), docs)
		return out.msg, nil
	})
}

// caller is who calls a KYC or KYB method: the tenant, the user and the actor of the audit record.
type caller struct {
	tenantID tenancy.TenantID
	userID   string
	actor    audit.Actor
}

// answer runs fn for the authenticated caller (peerAddr is its address for the audit record)
// and answers fn's message; an error is returned as it is (the error interceptor maps it), the message beside
// it dropped, so fn may return its mapping of a zero value with the error.
func answer[M any](ctx context.Context, peerAddr string, fn func(c caller) (*M, error)) (*connect.Response[M], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m, err := fn(caller{tenantID: p.TenantID, userID: p.UserID, actor: callActor(ctx, p, peerAddr)})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(m), nil
}
