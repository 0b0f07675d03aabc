package document

import (
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// Verification statuses of a document (docs/guide/documents.md "Verification"). An upload is only a
// label: a document counts for a KYC tier only once it is VERIFIED (issue 19 point 4).
const (
	// StatusPendingReview is every new document's status (and every document's that existed
	// before reviews did: migration 0012).
	StatusPendingReview = "PENDING_REVIEW"
	// StatusPendingSecondReview is a document one officer verified in a tenant that requires
	// four eyes; a second officer must confirm it.
	StatusPendingSecondReview = "PENDING_SECOND_REVIEW"
	// StatusVerified is a document an officer verified (a second one, under four eyes).
	StatusVerified = "VERIFIED"
	// StatusRejected is a document an officer rejected, with a reason.
	StatusRejected = "REJECTED"
)

// Review decisions.
const (
	DecisionVerify = "VERIFY"
	DecisionReject = "REJECT"
)

// Review is one officer's decision on a document.
type Review struct {
	Decision string // DecisionVerify or DecisionReject
	Reason   string // required to reject; an optional note to verify
	Reviewer string // the officer's user id
	// FourEyes is the tenant's document_review_four_eyes setting at the time of the review.
	FourEyes bool
	At       time.Time
}

// Reviewable reports whether a document still awaits a decision.
func Reviewable(status string) bool {
	return status == StatusPendingReview || status == StatusPendingSecondReview
}

// ApplyReview applies r to d: the document's review state machine.
//
//   - REJECT (a reason is required) from PENDING_REVIEW or PENDING_SECOND_REVIEW → REJECTED, by
//     any officer: refusing is the safe direction, so it never needs a second person.
//   - VERIFY from PENDING_REVIEW → VERIFIED, or → PENDING_SECOND_REVIEW when the tenant requires
//     four eyes (the reviewer is recorded as the first reviewer).
//   - VERIFY from PENDING_SECOND_REVIEW → VERIFIED, only by someone who is neither the document's
//     uploader nor its first reviewer (FORBIDDEN otherwise), whatever the setting is now: a
//     document that entered the four-eyes path finishes it.
//   - VERIFIED and REJECTED are final: 409 INVALID_STATUS_TRANSITION (a new upload replaces a
//     rejected document).
//
// It returns the audit action: kyc.document_verified, kyc.document_rejected or
// kyc.document_verification_proposed (the prefix is the caller's). Errors: VALIDATION_ERROR
// (decision, reason), INVALID_STATUS_TRANSITION, FORBIDDEN.
func (d *Document) ApplyReview(r Review) (string, error) {
	reason := strings.TrimSpace(r.Reason)
	var to string
	switch r.Decision {
	case DecisionReject:
		if reason == "" {
			return "", apperr.Invalid("reason", "is required to reject a document")
		}
		to = StatusRejected
	case DecisionVerify:
		to = StatusVerified
		if d.VerificationStatus == StatusPendingReview && r.FourEyes {
			to = StatusPendingSecondReview
		}
	default:
		return "", apperr.Invalid("decision", "must be VERIFY or REJECT")
	}
	if !Reviewable(d.VerificationStatus) {
		return "", apperr.Newf(apperr.InvalidStatusTransition, "document %s is already %s", d.ID, d.VerificationStatus).
			WithData(map[string]any{"from": d.VerificationStatus, "to": to, "allowed": []string{}})
	}
	at := r.At
	switch to {
	case StatusRejected:
		d.VerificationStatus, d.ReviewedBy, d.ReviewedAt, d.RejectionReason = StatusRejected, r.Reviewer, &at, reason
		return "document_rejected", nil
	case StatusPendingSecondReview:
		d.VerificationStatus, d.FirstReviewedBy, d.FirstReviewedAt = StatusPendingSecondReview, r.Reviewer, &at
		return "document_verification_proposed", nil
	}
	if d.VerificationStatus == StatusPendingSecondReview && (r.Reviewer == d.FirstReviewedBy || r.Reviewer == d.UploadedBy) {
		return "", apperr.New(apperr.Forbidden,
			"four-eyes review: the document must be verified by an officer who neither uploaded it nor reviewed it first")
	}
	d.VerificationStatus, d.ReviewedBy, d.ReviewedAt = StatusVerified, r.Reviewer, &at
	return "document_verified", nil
}

// CountsForTier reports whether d is a verified document (only those count for KYC tiers).
func (d Document) CountsForTier() bool { return d.VerificationStatus == StatusVerified }
