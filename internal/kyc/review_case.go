package kyc

import (
	"fmt"
	"strings"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/sanctions"
)

// ReviewCase returns the KYC_REVIEW case a verification opens (docs/guide/kyc-review-cases.md), or nil
// when every result passed: a BVN or NIN that did not match (or that the registry does not
// know), a failed liveness check (locally detected NO_FACE or MULTIPLE_FACES included: the
// officer, not complyd, decides whether it was a bad photo), a face that did not match, or
// watchlist hits on the applicant's name (HIGH; CRITICAL on a sanctions list). The
// case is automatic, like the screening cases: unassigned, announced by case.created and to the
// compliance officers; the store opens it in the transaction of the change, and only when the
// application has no KYC_REVIEW case still open (one open review per application).
func ReviewCase(a Application, results []Result, hits []WatchlistHit) *cases.NewParams {
	var failed []string
	priority := cases.PriorityMedium
	for _, r := range results {
		if r.IsMatch {
			continue
		}
		reason := r.ErrorMessage
		if reason == "" {
			reason = "no match"
		}
		failed = append(failed, fmt.Sprintf("%s: %s (provider %s, confidence %.2f, result %s)", r.IdentityType, reason, r.Provider, r.Confidence, r.ID))
		// A failed liveness or face match may be an impersonation attempt: it outranks a
		// mistyped number.
		if r.IdentityType == identity.VerifyLiveness || r.IdentityType == identity.VerifyFaceMatch {
			priority = cases.PriorityHigh
		}
	}
	if len(hits) > 0 {
		failed = append(failed, "watchlist hit: "+describeHits(hits))
		priority = cases.PriorityHigh
		for _, h := range hits {
			if h.ListType == string(sanctions.ListTypeSanctions) {
				priority = cases.PriorityCritical
			}
		}
	}
	if len(failed) == 0 {
		return nil
	}
	id := a.ID
	return &cases.NewParams{Type: cases.TypeKYCReview, Priority: priority,
		Title: fmt.Sprintf("KYC verification failed for %s %s (%s)", a.FirstName, a.LastName, a.ID),
		Description: fmt.Sprintf("KYC application %s (status %s, tier %s) failed verification: %s.",
			a.ID, a.Status, a.Tier, strings.Join(failed, "; ")),
		RelatedKYCApplicationID: &id, Tags: []string{"kyc", "kyc-review"}}
}
