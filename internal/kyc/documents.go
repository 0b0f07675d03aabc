package kyc

import (
	"context"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/tenancy"
)

// DocumentView is a document with a fresh presigned URL (valid document.DownloadTTL).
type DocumentView = document.View

// Upload is one document upload. Uploads, the document list, downloads and deletions are the
// shared steps of application.Core (UploadDocument, Documents, Download, DeleteDocument),
// audited as kyc.document_uploaded and kyc.document_deleted; an upload also applies the tier
// rules (uploaded), though the new document counts for no tier until an officer verifies it
// (ReviewDocument).
type Upload = application.Upload

// uploaded is the KYC part of an upload: the new document is PENDING_REVIEW, so it is no ID or
// proof of address yet; only a review (ReviewDocument) can make it count for a tier (issue 19
// point 4), but the tier rules run as after every change.
func uploaded(a *Application, after map[string]any) {
	a.upgradeTier()
	after["tier"] = a.Tier
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
		return change(application.Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyc." + action,
			ResourceType: "kyc_application", ResourceID: a.ID, Before: before, After: after}}), nil
	})
	if err != nil {
		return Application{}, DocumentView{}, err
	}
	v, err := s.Links().View(ctx, d)
	return a, v, err
}
