package dashboard

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// Service answers the Overview's questions: it normalises the period, then asks the Store.
type Service struct {
	Store Store
	Now   func() time.Time
}

// NewService returns the service.
func NewService(store Store, now func() time.Time) *Service {
	if store == nil || now == nil {
		panic("dashboard: nil store or clock")
	}
	return &Service{Store: store, Now: now}
}

// Query is a requested period: nil bounds take their defaults (NewPeriod).
type Query struct {
	From, To    *time.Time
	Granularity Granularity
}

// Period normalises q at the service's clock. Errors: VALIDATION_ERROR.
func (s *Service) Period(q Query) (Period, error) {
	return NewPeriod(q.From, q.To, q.Granularity, s.Now())
}

// Screenings returns the screening counts. Errors: VALIDATION_ERROR, INTERNAL.
func (s *Service) Screenings(ctx context.Context, tenant tenancy.TenantID, q Query) (ScreeningStats, error) {
	p, err := s.Period(q)
	if err != nil {
		return ScreeningStats{}, err
	}
	return s.Store.ScreeningStats(ctx, tenant, p)
}

// TopRules returns the most triggered rules over whole UTC days (limit 1..50, default 10).
func (s *Service) TopRules(ctx context.Context, tenant tenancy.TenantID, q Query, limit int) (Period, []RuleHits, error) {
	p, err := NewPeriod(q.From, q.To, Day, s.Now())
	if err != nil {
		return Period{}, nil, err
	}
	if limit <= 0 {
		limit = 10
	}
	rules, err := s.Store.TopRules(ctx, tenant, p, limit)
	return p, rules, err
}

// Cases returns the automatic cases of the period and the open cases now.
func (s *Service) Cases(ctx context.Context, tenant tenancy.TenantID, q Query) (CaseStats, error) {
	p, err := s.Period(q)
	if err != nil {
		return CaseStats{}, err
	}
	return s.Store.CaseStats(ctx, tenant, p, s.Now())
}

// Applications returns the KYC and KYB funnel of applications created in the span.
func (s *Service) Applications(ctx context.Context, tenant tenancy.TenantID, q Query) (Funnel, error) {
	p, err := NewSpan(q.From, q.To, s.Now())
	if err != nil {
		return Funnel{}, err
	}
	return s.Store.ApplicationFunnel(ctx, tenant, p)
}

// Sanctions returns the sanctions hits of the period.
func (s *Service) Sanctions(ctx context.Context, tenant tenancy.TenantID, q Query) (SanctionsStats, error) {
	p, err := s.Period(q)
	if err != nil {
		return SanctionsStats{}, err
	}
	return s.Store.SanctionsStats(ctx, tenant, p)
}

// Webhooks returns the webhook deliveries created in the span.
func (s *Service) Webhooks(ctx context.Context, tenant tenancy.TenantID, q Query) (WebhookStats, error) {
	p, err := NewSpan(q.From, q.To, s.Now())
	if err != nil {
		return WebhookStats{}, err
	}
	return s.Store.WebhookStats(ctx, tenant, p)
}

// Wallet returns the wallet now and its spend in the period.
func (s *Service) Wallet(ctx context.Context, tenant tenancy.TenantID, q Query) (WalletStats, error) {
	p, err := s.Period(q)
	if err != nil {
		return WalletStats{}, err
	}
	return s.Store.WalletStats(ctx, tenant, p)
}
