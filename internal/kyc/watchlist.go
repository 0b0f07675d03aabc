package kyc

import (
	"fmt"
	"strings"

	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
)

// WatchlistHit is one watchlist entry an applicant's name matched at the REVIEW threshold
// (docs/design/design-choices.md §8, 0.75), as KYB records for its directors and owners.
type WatchlistHit struct {
	List        string
	ListType    string
	SourceID    string
	MatchedName string
	Score       float64
}

// screen matches the applicant's name (first and last, as the registry confirmed them) against
// the global sanctions and PEP lists and the tenant's watchlists. The matcher is in memory, so
// this costs no call and no charge; it runs inside the verification's row lock only because
// the case it may open must be stored with the verification that caused it.
func (s *Service) screen(tenantID tenancy.TenantID, a Application) []WatchlistHit {
	name := strings.TrimSpace(a.FirstName + " " + a.LastName)
	if name == "" {
		return nil
	}
	ms := s.Matcher.Search(tenantID, sanctions.Query{Name: name, Threshold: sanctions.DefaultThreshold, Limit: sanctions.DefaultLimit})
	hits := make([]WatchlistHit, 0, len(ms))
	for _, m := range ms {
		hits = append(hits, WatchlistHit{List: m.List, ListType: string(m.ListType), SourceID: m.SourceID, MatchedName: m.MatchedName, Score: m.Score})
	}
	return hits
}

// describeHits renders hits for a case description: list type, matched name, list, source id
// and score, which is what a reviewer checks first.
func describeHits(hits []WatchlistHit) string {
	parts := make([]string, 0, len(hits))
	for _, h := range hits {
		parts = append(parts, fmt.Sprintf("%s %q on %s (%s, score %.2f)", h.ListType, h.MatchedName, h.List, h.SourceID, h.Score))
	}
	return strings.Join(parts, ", ")
}
