package screening_test

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// fakeScreener is a hand-written NameScreener.
type fakeScreener struct {
	ScreenFunc func(ctx context.Context, tenantID tenancy.TenantID, name, entityType string) ([]screening.NameHit, error)
	// Queries records every query, for tests of what the engine asks.
	Queries []screening.NameQuery
	// InMemory makes the sanctions engine over it an InlineEngine.
	InMemory bool
}

func (f *fakeScreener) Inline() bool { return f.InMemory }

func (f *fakeScreener) Screen(ctx context.Context, tenantID tenancy.TenantID, q screening.NameQuery) ([]screening.NameHit, error) {
	f.Queries = append(f.Queries, q)
	name, entityType := q.Name, q.EntityType
	if f.ScreenFunc == nil {
		return nil, nil
	}
	return f.ScreenFunc(ctx, tenantID, name, entityType)
}

// fakeEngine is a hand-written Engine.
type fakeEngine struct {
	category     string
	inline       bool // implements InlineEngine
	EvaluateFunc func(ctx context.Context, tx *screening.Transaction, e *screening.Enrichment) (screening.EngineVerdict, error)
}

func (f *fakeEngine) Category() string { return f.category }

func (f *fakeEngine) Inline() bool { return f.inline }

func (f *fakeEngine) Evaluate(ctx context.Context, tx *screening.Transaction, e *screening.Enrichment) (screening.EngineVerdict, error) {
	return f.EvaluateFunc(ctx, tx, e)
}

var t0 = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// baseTx is a valid, normalised NGN transfer of 1,000 NGN.
func baseTx() *screening.Transaction {
	tx := &screening.Transaction{
		TenantID: "11111111-1111-1111-1111-111111111111", ExternalID: "ext-1", Type: "TRANSFER",
		Channel: "MOBILE_APP", Amount: dec("1000"), SenderAccountNumber: "0123456789",
		SenderName: "Ada Obi", ReceiverName: "Chidi Eze", ReceiverCountry: "NG", Timestamp: t0,
	}
	tx.Normalize()
	return tx
}

// baseEnrichment is a clean individual with approved TIER_3 KYC and USD/GBP rates.
func baseEnrichment() *screening.Enrichment {
	return &screening.Enrichment{
		Config: tenancy.Config{
			KYCTrustMode: tenancy.TrustStrict,
			TierLimits:   tenancy.DefaultTierLimits(),
			FXRates: map[string]tenancy.FXRate{
				"USD": {Currency: "USD", RateToNGN: dec("1550"), UpdatedAt: t0.Add(-time.Hour)},
				"GBP": {Currency: "GBP", RateToNGN: dec("2000.50"), UpdatedAt: t0.Add(-time.Hour)},
			},
		},
		KYC: screening.KYC{Status: "APPROVED", Tier: "TIER_3", Source: screening.SourceDatabase, Found: true},
	}
}
