package connectapi

import (
	"context"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/tenancy"
)

// documentService is what the KYC and the KYB application services both offer for an
// application's documents; the two handlers' document calls share the functions below.
type documentService interface {
	Documents(ctx context.Context, tenantID tenancy.TenantID, id string) ([]document.View, error)
	Download(ctx context.Context, tenantID tenancy.TenantID, id, docID string) (document.View, error)
	DeleteDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, docID string) error
}

// listDocuments answers the documents of application id.
func listDocuments(ctx context.Context, svc documentService, id string) (*connect.Response[complydv1.ListDocumentsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	views, err := svc.Documents(ctx, p.TenantID, id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListDocumentsResponse{Items: make([]*complydv1.KycDocument, 0, len(views))}
	for _, v := range views {
		out.Items = append(out.Items, DocumentProto(v))
	}
	return connect.NewResponse(out), nil
}

// documentDownload answers a short-lived download link for document docID of application id.
func documentDownload(ctx context.Context, svc documentService, id, docID string) (*connect.Response[complydv1.DocumentDownload], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	v, err := svc.Download(ctx, p.TenantID, id, docID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.DocumentDownload{Url: v.URL, ExpiresAt: ts(v.ExpiresAt), FileName: v.FileName,
		MimeType: v.MimeType}), nil
}

// deleteDocument deletes document docID of application id; peerAddr is the caller's address
// for the audit record.
func deleteDocument(ctx context.Context, svc documentService, peerAddr, id, docID string) (*connect.Response[complydv1.DeleteDocumentResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := svc.DeleteDocument(ctx, p.TenantID, callActor(ctx, p, peerAddr), id, docID); err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.DeleteDocumentResponse{Id: docID, Deleted: true}), nil
}
