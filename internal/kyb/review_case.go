package kyb

import (
	"fmt"
	"strings"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/sanctions"
)

// reviewFinding is one reason for a KYB application's KYC_REVIEW case.
type reviewFinding struct {
	text     string
	priority string
}

// hitFinding describes the watchlist hits of a director or owner: a sanctions hit is CRITICAL,
// any other (PEP, tenant list) HIGH.
func hitFinding(role, name string, hits []Hit) reviewFinding {
	f := reviewFinding{priority: cases.PriorityHigh}
	var parts []string
	for _, h := range hits {
		if h.ListType == string(sanctions.ListTypeSanctions) {
			f.priority = cases.PriorityCritical
		}
		parts = append(parts, fmt.Sprintf("%s %q on %s (%s, score %.2f)", h.ListType, h.MatchedName, h.List, h.SourceID, h.Score))
	}
	f.text = fmt.Sprintf("%s %s: watchlist hit: %s", role, name, strings.Join(parts, ", "))
	return f
}

// directorFindings are the directors whose BVN or NIN did not verify (the registry does not
// know the number, or its name does not match; a director without a number is not a mismatch)
// and the directors whose names hit a watchlist.
func directorFindings(results []DirectorResult, hits map[string][]Hit) []reviewFinding {
	var out []reviewFinding
	for _, r := range results {
		if !r.Verified && (r.Reason == ReasonNameMismatch || r.Reason == ReasonNotFound) {
			out = append(out, reviewFinding{priority: cases.PriorityMedium,
				text: fmt.Sprintf("director %s: identity not verified (%s, provider %s, confidence %.2f)", r.Name, r.Reason, r.Provider, r.Confidence)})
		}
		if hs := hits[r.Name]; len(hs) > 0 {
			out = append(out, hitFinding("director", r.Name, hs))
		}
	}
	return out
}

// ownerFindings are the beneficial owners whose names hit a watchlist.
func ownerFindings(results []OwnerResult) []reviewFinding {
	var out []reviewFinding
	for _, r := range results {
		if len(r.Hits) > 0 {
			out = append(out, hitFinding("beneficial owner", r.Name, r.Hits))
		}
	}
	return out
}

// reviewCase returns the KYC_REVIEW case of findings on a, or nil when there are none
// (docs/guide/kyc-review-cases.md); its priority is the highest finding's. The store opens it in the
// change's transaction unless the application has a KYC_REVIEW case still open.
func reviewCase(a Application, findings []reviewFinding) *cases.NewParams {
	if len(findings) == 0 {
		return nil
	}
	rank := map[string]int{cases.PriorityMedium: 1, cases.PriorityHigh: 2, cases.PriorityCritical: 3}
	priority := cases.PriorityMedium
	texts := make([]string, 0, len(findings))
	for _, f := range findings {
		if rank[f.priority] > rank[priority] {
			priority = f.priority
		}
		texts = append(texts, f.text)
	}
	id := a.ID
	return &cases.NewParams{Type: cases.TypeKYCReview, Priority: priority,
		Title:       fmt.Sprintf("KYB verification issue for %s (%s)", a.CompanyName, a.ID),
		Description: fmt.Sprintf("KYB application %s (status %s): %s.", a.ID, a.Status, strings.Join(texts, "; ")),
		// Cases have one application link (docs/reference/specification.md 2.3); a KYB id (kyb_…) goes there too.
		RelatedKYCApplicationID: &id, Tags: []string{"kyb", "kyc-review"}}
}
