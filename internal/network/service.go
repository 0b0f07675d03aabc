package network

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/tenancy"
)

// Store reads the network from stored transactions.
type Store interface {
	// Graph runs the bounded traversal of p (already normalized): nodes, transfer edges and,
	// when asked, shared-identifier links; Truncated when a cap was hit.
	// Errors: NOT_FOUND (p.CustomerID unknown in the tenant); INTERNAL (including the
	// statement timeout, reported as a failed query).
	Graph(ctx context.Context, tenantID tenancy.TenantID, p Params) (Graph, error)
}

// CaseCreator opens a case (cases.Service satisfies it).
type CaseCreator interface {
	Create(ctx context.Context, c audit.Caller, p cases.NewParams) (*cases.Case, error)
}

// Service answers network queries and turns findings into cases.
type Service struct {
	store Store
	// reads answers Graph (the store, unless WithReads gave a read replica's).
	reads Store
	cases CaseCreator
	now   func() time.Time
}

// NewService returns the service.
func NewService(store Store, cs CaseCreator, now func() time.Time) *Service {
	if store == nil || cs == nil || now == nil {
		panic("network.NewService: nil dependency")
	}
	return &Service{store: store, reads: store, cases: cs, now: now}
}

// WithReads has Graph read from reads (a store on the read replica, docs/guide/read-replica.md);
// OpenCase still recomputes its finding from the store given to NewService, since it opens a
// case on what it reads.
func (s *Service) WithReads(reads Store) *Service {
	if reads == nil {
		panic("network.WithReads: nil store")
	}
	s.reads = reads
	return s
}

// Normalize fills defaults and checks bounds. Errors: VALIDATION_ERROR naming the fields.
func Normalize(p Params, now time.Time) (Params, error) {
	var bad []apperr.FieldError
	p.Account, p.CustomerID = strings.TrimSpace(p.Account), strings.TrimSpace(p.CustomerID)
	if (p.Account == "") == (p.CustomerID == "") {
		bad = append(bad, apperr.FieldError{Field: "account", Message: "give exactly one of account and customerId"})
	}
	if p.Hops == 0 {
		p.Hops = DefaultHops
	}
	if p.Hops < 1 || p.Hops > MaxHops {
		bad = append(bad, apperr.FieldError{Field: "hops", Message: fmt.Sprintf("must be 1 to %d", MaxHops)})
	}
	if p.To.IsZero() {
		p.To = now
	}
	if p.From.IsZero() {
		p.From = p.To.Add(-DefaultPeriod)
	}
	if !p.From.Before(p.To) {
		bad = append(bad, apperr.FieldError{Field: "from", Message: "must be before to"})
	} else if p.To.Sub(p.From) > MaxPeriod {
		bad = append(bad, apperr.FieldError{Field: "from", Message: "the period is at most 366 days"})
	}
	if p.MinAmount.IsNegative() {
		bad = append(bad, apperr.FieldError{Field: "minAmount", Message: "must not be negative"})
	}
	p.MaxNodes = clamp(p.MaxNodes, DefaultMaxNodes, MaxNodesLimit)
	p.MaxEdges = clamp(p.MaxEdges, DefaultMaxEdges, MaxEdgesLimit)
	if p.FanThreshold == 0 {
		p.FanThreshold = DefaultFanThreshold
	}
	if p.FanThreshold < 2 || p.FanThreshold > 1000 {
		bad = append(bad, apperr.FieldError{Field: "fanThreshold", Message: "must be 2 to 1000"})
	}
	if len(bad) > 0 {
		return p, apperr.InvalidFields(bad...)
	}
	return p, nil
}

func clamp(v, def, max int) int {
	if v <= 0 {
		return def
	}
	return min(v, max)
}

// Graph answers a network query with its findings.
// Errors: VALIDATION_ERROR; NOT_FOUND (unknown customer); INTERNAL.
func (s *Service) Graph(ctx context.Context, tenantID tenancy.TenantID, p Params) (Graph, error) {
	return s.graph(ctx, s.reads, tenantID, p)
}

func (s *Service) graph(ctx context.Context, store Store, tenantID tenancy.TenantID, p Params) (Graph, error) {
	p, err := Normalize(p, s.now())
	if err != nil {
		return Graph{}, err
	}
	g, err := store.Graph(ctx, tenantID, p)
	if err != nil {
		return Graph{}, err
	}
	g.Findings = Detect(g.Edges, p.FanThreshold)
	return g, nil
}

// OpenCase recomputes the graph of p and opens an AML_ALERT case for its finding of kind on
// account (the client's copy of a finding is never trusted).
// Errors: VALIDATION_ERROR; NOT_FOUND (no such finding in the graph now); INTERNAL.
func (s *Service) OpenCase(ctx context.Context, c audit.Caller, p Params, kind, account string) (*cases.Case, Finding, error) {
	g, err := s.graph(ctx, s.store, c.TenantID, p)
	if err != nil {
		return nil, Finding{}, err
	}
	for _, f := range g.Findings {
		if f.Kind != kind || f.Account != account {
			continue
		}
		desc := f.Description + "\nAccounts: " + strings.Join(f.Accounts, ", ")
		if g.Truncated {
			desc += "\nThe network query was truncated by its node or edge cap: members may be missing."
		}
		cs, err := s.cases.Create(ctx, c, cases.NewParams{Type: cases.TypeAMLAlert, Priority: cases.PriorityHigh,
			Title:       fmt.Sprintf("Network %s at account %s", strings.ReplaceAll(strings.ToLower(kind), "_", "-"), account),
			Description: desc, Tags: []string{"network", strings.ToLower(kind)}})
		return cs, f, err
	}
	return nil, Finding{}, apperr.NotFoundf("no %s finding at account %s in the network now", kind, account)
}
