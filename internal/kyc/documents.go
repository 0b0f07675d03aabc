package kyc

import (
	"context"
	"io"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/tenancy"
)

// DocumentView is a document with a fresh presigned URL (valid document.DownloadTTL).
type DocumentView = document.View

// Upload is one document upload.
type Upload struct {
	DocumentType string
	FileName     string
	Body         io.Reader // streamed into the blob store, never buffered whole
}

// UploadDocument stores an upload (docs/guide/documents.md) and records it as PENDING_REVIEW: the
// first upload moves PENDING to DOCUMENT_UPLOADED (docs/design/design-choices.md §5), but the document counts for
// no tier until an officer verifies it (ReviewDocument). The
// object is written first (document.Ingest: sniffed, size-limited, cleaned up on failure), then
// the record in one transaction; if that transaction fails the object is deleted, so a failed
// upload leaves neither a record nor an object. Errors: VALIDATION_ERROR (documentType),
// NOT_FOUND, INVALID_STATUS_TRANSITION (terminal application), PAYLOAD_TOO_LARGE,
// UNSUPPORTED_MEDIA_TYPE.
func (s *Service) UploadDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, u Upload) (DocumentView, error) {
	dt, err := document.ParseDocumentType(u.DocumentType)
	if err != nil {
		return DocumentView{}, err
	}
	a, err := s.Store.Get(ctx, tenantID, id)
	if err != nil {
		return DocumentView{}, err
	}
	if err := checkOpen(a, StatusDocumentUploaded); err != nil {
		return DocumentView{}, err
	}
	d := document.Document{ID: document.NewID(), TenantID: tenantID, OwnerKind: document.OwnerKYC, ApplicationID: id,
		DocumentType: dt, FileName: document.CleanFileName(u.FileName), UploadedBy: actor.ID,
		VerificationStatus: document.StatusPendingReview}
	if d.StorageKey, err = document.Key(tenantID, document.OwnerKYC, id, d.ID); err != nil {
		return DocumentView{}, err
	}
	st, err := document.Ingest(ctx, s.Blobs, d.StorageKey, u.Body, document.MaxUploadBytes)
	if err != nil {
		return DocumentView{}, err
	}
	d.SizeBytes, d.MimeType, d.SHA256, d.UploadedAt = st.Size, st.MimeType, st.SHA256, s.Now()
	_, err = s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if err := checkOpen(*a, StatusDocumentUploaded); err != nil {
			return Change{}, err
		}
		before := snapshot(*a)
		a.advance(StatusDocumentUploaded)
		// The new document is PENDING_REVIEW, so it is no ID or proof of address yet: only a
		// review (ReviewDocument) can make it count for a tier (issue 19 point 4).
		a.upgradeTier()
		a.UpdatedAt = d.UploadedAt
		return Change{AddDocument: &d, Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyc.document_uploaded",
			ResourceType: "kyc_application", ResourceID: a.ID, Before: before, After: map[string]any{"status": a.Status, "tier": a.Tier,
				"documentId": d.ID, "documentType": string(dt), "sizeBytes": d.SizeBytes, "mimeType": d.MimeType, "sha256": d.SHA256}}}, nil
	})
	if err != nil {
		s.links().DeleteObject(ctx, d.StorageKey)
		return DocumentView{}, err
	}
	return s.links().View(ctx, d)
}

// Documents lists the application's documents with fresh presigned URLs. Errors: NOT_FOUND.
func (s *Service) Documents(ctx context.Context, tenantID tenancy.TenantID, id string) ([]DocumentView, error) {
	docs, err := s.Store.Documents(ctx, tenantID, id)
	if err != nil {
		return nil, err
	}
	return s.links().Views(ctx, docs)
}

// DetailViews returns the documents of a detail with presigned URLs.
func (s *Service) DetailViews(ctx context.Context, d Detail) ([]DocumentView, error) {
	return s.links().Views(ctx, d.Documents)
}

// Download returns a presigned download URL for one document. Errors: NOT_FOUND.
func (s *Service) Download(ctx context.Context, tenantID tenancy.TenantID, id, docID string) (DocumentView, error) {
	d, err := s.Store.Document(ctx, tenantID, id, docID)
	if err != nil {
		return DocumentView{}, err
	}
	return s.links().View(ctx, d)
}

// DeleteDocument removes a document's record (audited, in one transaction) and then its object
// (officers only; docs/design/design-choices.md §4). The status and tier are never lowered by a deletion. If the
// object delete fails after the record is gone, the error is logged and the orphan is named
// there; the caller still sees success because the document no longer exists for the API.
// Errors: NOT_FOUND.
func (s *Service) DeleteDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, docID string) error {
	d, err := s.Store.Document(ctx, tenantID, id, docID)
	if err != nil {
		return err
	}
	_, err = s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		a.UpdatedAt = s.Now()
		return Change{DeleteDocumentID: docID, Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyc.document_deleted",
			ResourceType: "kyc_application", ResourceID: a.ID, Before: map[string]any{"documentId": d.ID,
				"documentType": string(d.DocumentType), "fileName": d.FileName, "sha256": d.SHA256}}}, nil
	})
	if err != nil {
		return err
	}
	s.links().DeleteObject(ctx, d.StorageKey)
	return nil
}

// links presigns and removes this capability's document objects.
func (s *Service) links() document.Links {
	return document.Links{Blobs: s.Blobs, Now: s.Now, Logger: s.Logger}
}

// DocumentReview is an officer's decision on one document of an application.
type DocumentReview struct {
	Decision string // document.DecisionVerify or document.DecisionReject
	Reason   string // required to reject
}

// ReviewDocument records an officer's decision on a document (docs/guide/kyc.md "Document review";
// document.ApplyReview is the state machine). In the same transaction, with the application and
// the document locked, it reads the tenant's four-eyes setting, writes the review and the audit
// event, and raises the tier when a verified ID or proof of address now meets a tier's
// requirements (spec 3.2 rule 4; never lowered: a rejection lowers nothing). Documents of a
// terminal application are not reviewed (409), like uploads. Errors: VALIDATION_ERROR,
// NOT_FOUND, INVALID_STATUS_TRANSITION, FORBIDDEN (four eyes).
func (s *Service) ReviewDocument(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, docID string, r DocumentReview) (Application, DocumentView, error) {
	if r.Decision != document.DecisionVerify && r.Decision != document.DecisionReject {
		return Application{}, DocumentView{}, apperr.Invalid("decision", "must be VERIFY or REJECT")
	}
	now := s.Now()
	a, d, err := s.Store.ReviewDocument(ctx, tenantID, id, docID, func(a *Application, d *document.Document, fourEyes bool) (Change, error) {
		if IsTerminal(a.Status) {
			return Change{}, apperr.Newf(apperr.InvalidStatusTransition, "the documents of a %s application are no longer reviewed", a.Status).
				WithData(map[string]any{"from": a.Status, "to": a.Status, "allowed": []string{}})
		}
		before := map[string]any{"documentId": d.ID, "documentType": string(d.DocumentType),
			"verificationStatus": d.VerificationStatus, "tier": a.Tier}
		action, err := d.ApplyReview(document.Review{Decision: r.Decision, Reason: r.Reason, Reviewer: actor.ID,
			FourEyes: fourEyes, At: now})
		if err != nil {
			return Change{}, err
		}
		if d.CountsForTier() {
			a.HasIDDocument = a.HasIDDocument || d.DocumentType.IsMeansOfIdentification()
			a.HasProofOfAddress = a.HasProofOfAddress || d.DocumentType.IsProofOfAddress()
		}
		a.upgradeTier()
		a.UpdatedAt = now
		after := map[string]any{"documentId": d.ID, "verificationStatus": d.VerificationStatus, "tier": a.Tier,
			"decision": r.Decision, "fourEyes": fourEyes}
		if reason := strings.TrimSpace(r.Reason); reason != "" {
			after["reason"] = reason
		}
		return Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyc." + action,
			ResourceType: "kyc_application", ResourceID: a.ID, Before: before, After: after}}, nil
	})
	if err != nil {
		return Application{}, DocumentView{}, err
	}
	v, err := s.links().View(ctx, d)
	return a, v, err
}
