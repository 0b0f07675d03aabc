package sanctions

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Freshness values (/health and /ready's checks.sanctionsFreshness; docs/guide/watchlists.md
// "Freshness").
const (
	FreshOK      = "ok"
	FreshStale   = "stale"   // a list is older than its maximum age
	FreshMissing = "missing" // an expected list is not loaded
	FreshUnknown = "unknown" // the versions could not be read
)

// DefaultMaxAgeDays is the age past which a list is stale unless configured: OFAC and the UN
// publish at least weekly, so a list older than 8 days has missed a publication.
const DefaultMaxAgeDays = 8

// FreshnessPolicy says how old each global list may be and which lists a deployment expects.
type FreshnessPolicy struct {
	// MaxAgeDays applies to every list without its own in ByList (default DefaultMaxAgeDays).
	MaxAgeDays int
	ByList     map[string]int
	// Expected lists are warned about when missing (default OFAC-SDN and UN-SC).
	Expected []string
}

func (p FreshnessPolicy) maxAge(list string) int {
	if d, ok := p.ByList[list]; ok && d > 0 {
		return d
	}
	if p.MaxAgeDays > 0 {
		return p.MaxAgeDays
	}
	return DefaultMaxAgeDays
}

// SetFreshness sets the policy (wiring, before serving).
func (s *Service) SetFreshness(p FreshnessPolicy) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fresh = p
}

func (s *Service) freshness() FreshnessPolicy {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.fresh
	if p.Expected == nil {
		p.Expected = []string{ListOFACSDN, ListUNSC}
	}
	return p
}

// ListHealth is one global list as /health reports it: the version in force and its age.
type ListHealth struct {
	List       string    `json:"list"`
	Version    int       `json:"version"`
	Entries    int       `json:"entries"`
	ImportedAt time.Time `json:"importedAt"`
	// PublishedOn is the publication date (YYYY-MM-DD) read from the list's files, else empty
	// (ListVersion.PublishedAt).
	PublishedOn string `json:"publishedOn,omitempty"`
	// AgeDays counts whole days since the publication, else since ImportedAt.
	AgeDays    int  `json:"ageDays"`
	MaxAgeDays int  `json:"maxAgeDays"`
	Stale      bool `json:"stale"`
	// SourceVersion is the publisher's version id (FtM), else empty.
	SourceVersion string `json:"sourceVersion,omitempty"`
}

// ListsReport is every global list's health and the expected lists not loaded.
type ListsReport struct {
	Lists   []ListHealth
	Missing []string
}

// Freshness returns FreshStale when a list is stale, else FreshMissing when an expected list is
// missing, else FreshOK (FreshUnknown when the versions cannot be read).
func (r ListsReport) Freshness() string {
	for _, l := range r.Lists {
		if l.Stale {
			return FreshStale
		}
	}
	if len(r.Missing) > 0 {
		return FreshMissing
	}
	return FreshOK
}

// Health of one version under p at now.
func listHealth(v ListVersion, p FreshnessPolicy, now time.Time) ListHealth {
	h := ListHealth{List: v.List, Version: v.Version, Entries: v.EntryCount, ImportedAt: v.ImportedAt, MaxAgeDays: p.maxAge(v.List),
		SourceVersion: v.SourceVersion}
	since := v.ImportedAt
	if !v.PublishedAt.IsZero() {
		since = v.PublishedAt
		h.PublishedOn = v.PublishedAt.UTC().Format(time.DateOnly)
	}
	h.AgeDays = int(now.Sub(since).Hours() / 24)
	h.Stale = h.AgeDays > h.MaxAgeDays
	return h
}

// ListsReport returns the health of every global list and the expected lists missing.
func (s *Service) ListsReport(ctx context.Context) (ListsReport, error) {
	vs, err := s.store.CurrentVersions(ctx)
	if err != nil {
		return ListsReport{}, fmt.Errorf("list versions: %w", err)
	}
	p, now := s.freshness(), s.now()
	r := ListsReport{Lists: make([]ListHealth, 0, len(vs))} // [] on the wire, not null
	for _, v := range vs {
		r.Lists = append(r.Lists, listHealth(v, p, now))
	}
	for _, want := range p.Expected {
		if !slices.ContainsFunc(vs, func(v ListVersion) bool { return v.List == want }) {
			r.Missing = append(r.Missing, want)
		}
	}
	return r, nil
}

// ListsHealth returns the current version of every global list, by list name.
func (s *Service) ListsHealth(ctx context.Context) ([]ListHealth, error) {
	r, err := s.ListsReport(ctx)
	return r.Lists, err
}

// Freshness is /health and /ready's checks.sanctionsFreshness (ListsReport.Freshness).
func (s *Service) Freshness(ctx context.Context) string {
	r, err := s.ListsReport(ctx)
	if err != nil {
		return FreshUnknown
	}
	return r.Freshness()
}
