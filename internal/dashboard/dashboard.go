// Package dashboard owns the Overview screen's aggregates (docs/guide/dashboard.md "Overview API"):
// the period and its buckets, and the shapes of the figures. It computes nothing itself: the
// Store (PostgreSQL) aggregates. It imports only tenancy and apperr.
package dashboard

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// Granularity of a period's buckets.
type Granularity string

// The granularities: UTC days and UTC hours.
const (
	Day  Granularity = "DAY"
	Hour Granularity = "HOUR"
)

// Limits on a period: at most 366 daily buckets or 31 days of hourly ones, so that no answer
// sums more rollup rows than the 200 ms budget allows (docs/guide/dashboard.md).
const (
	MaxDays      = 366
	MaxHourSpan  = 31 * 24 * time.Hour
	defaultDays  = 30
	defaultHours = 48
)

// Period is [From, To) widened to whole buckets of Granularity, in UTC.
type Period struct {
	From, To    time.Time
	Granularity Granularity
}

// Step is the length of one bucket.
func (p Period) Step() time.Duration {
	if p.Granularity == Hour {
		return time.Hour
	}
	return 24 * time.Hour
}

// Buckets returns the start of every bucket, oldest first.
func (p Period) Buckets() []time.Time {
	var out []time.Time
	for t := p.From; t.Before(p.To); t = t.Add(p.Step()) {
		out = append(out, t)
	}
	return out
}

// Index returns the bucket of t, or -1 outside the period.
func (p Period) Index(t time.Time) int {
	if t.Before(p.From) || !t.Before(p.To) {
		return -1
	}
	return int(t.Sub(p.From) / p.Step())
}

// NewPeriod normalises a request's period: defaults (to = now; from = 30 days or 48 hours
// before), widening to whole UTC buckets, and the limits. Errors: VALIDATION_ERROR.
func NewPeriod(from, to *time.Time, g Granularity, now time.Time) (Period, error) {
	if g == "" {
		g = Day
	}
	p := Period{Granularity: g}
	end := now
	if to != nil {
		end = *to
	}
	start := end.Add(-defaultDays * 24 * time.Hour)
	if g == Hour {
		start = end.Add(-defaultHours * time.Hour)
	}
	if from != nil {
		start = *from
	}
	if !start.Before(end) {
		return Period{}, apperr.Invalid("from", "must be before to")
	}
	step := p.Step()
	p.From = start.UTC().Truncate(step)
	p.To = end.UTC().Truncate(step)
	if p.To.Before(end) {
		p.To = p.To.Add(step)
	}
	span := p.To.Sub(p.From)
	if g == Hour && span > MaxHourSpan {
		return Period{}, apperr.Invalid("from", "an hourly period spans at most 31 days")
	}
	if span > MaxDays*24*time.Hour {
		return Period{}, apperr.Invalid("from", "a period spans at most 366 days")
	}
	return p, nil
}

// NewSpan normalises the period of an answer without series (funnel, webhooks): whole UTC
// hours, 30 days before to by default, at most 366 days. The top rules use whole UTC days
// (NewPeriod with Day), their rollup's buckets.
// Errors: VALIDATION_ERROR.
func NewSpan(from, to *time.Time, now time.Time) (Period, error) {
	end := now
	if to != nil {
		end = *to
	}
	start := end.Add(-defaultDays * 24 * time.Hour)
	if from != nil {
		start = *from
	}
	if !start.Before(end) {
		return Period{}, apperr.Invalid("from", "must be before to")
	}
	p := Period{From: start.UTC().Truncate(time.Hour), To: end.UTC().Truncate(time.Hour), Granularity: Hour}
	if p.To.Before(end) {
		p.To = p.To.Add(time.Hour)
	}
	if p.To.Sub(p.From) > MaxDays*24*time.Hour {
		return Period{}, apperr.Invalid("from", "a period spans at most 366 days")
	}
	return p, nil
}

// Outcomes and RiskLevels are the keys every screening answer lists, in this order.
var (
	Outcomes   = []string{"APPROVE", "REVIEW", "ESCALATE", "BLOCK"}
	RiskLevels = []string{"LOW", "MEDIUM", "HIGH", "CRITICAL"}
	// Priorities of the open-case table, most urgent first; AgeBuckets their age columns.
	Priorities = []string{"CRITICAL", "HIGH", "MEDIUM", "LOW"}
	AgeBuckets = []string{"0-1d", "1-7d", "7-30d", "30d+"}
	// KYCStatuses and KYBStatuses in milestone order, then the decisions (the funnel's steps).
	KYCStatuses = []string{"PENDING", "DOCUMENT_UPLOADED", "NIN_VERIFIED", "BVN_VERIFIED", "LIVENESS_PASSED", "APPROVED", "REJECTED", "EXPIRED"}
	KYBStatuses = []string{"PENDING", "DOCUMENT_UPLOADED", "CAC_VERIFIED", "DIRECTORS_VERIFIED", "BENEFICIAL_OWNERS_VERIFIED",
		"SCREENING_PASSED", "APPROVED", "REJECTED"}
	// Reviews of a sanctions hit; DeliveryStatuses of a webhook delivery.
	Reviews          = []string{"PENDING", "TRUE_POSITIVE", "FALSE_POSITIVE", "CLOSED"}
	DeliveryStatuses = []string{"DELIVERED", "PENDING", "FAILED", "DEAD"}
)

// Counts is a set of labelled counts listed in a fixed key order.
type Counts struct {
	Keys   []string
	Values map[string]int64
}

// NewCounts returns zero counts for keys.
func NewCounts(keys []string) Counts { return Counts{Keys: keys, Values: map[string]int64{}} }

// Total sums the counts.
func (c Counts) Total() int64 {
	var n int64
	for _, v := range c.Values {
		n += v
	}
	return n
}

// ScreeningBucket counts one bucket's screenings.
type ScreeningBucket struct {
	Start     time.Time
	Outcomes  Counts
	RiskLevel Counts
}

// ScreeningStats are the period's screenings.
type ScreeningStats struct {
	Period    Period
	Outcomes  Counts
	RiskLevel Counts
	Buckets   []ScreeningBucket
}

// RuleHits is how often one rule triggered.
type RuleHits struct {
	RuleID, RuleName string
	Hits             int64
}

// CaseBucket counts automatic cases opened and closed in one bucket.
type CaseBucket struct {
	Start          time.Time
	Opened, Closed int64
}

// OpenCases are the open cases of one priority by age.
type OpenCases struct {
	Priority string
	ByAge    Counts
}

// OldestCase is one of the oldest open cases.
type OldestCase struct {
	ID, CaseNumber, Priority, Status, Type string
	CreatedAt                              time.Time
}

// CaseStats are the period's automatic cases and the open cases now.
type CaseStats struct {
	Period         Period
	Buckets        []CaseBucket
	OpenByPriority []OpenCases
	Oldest         []OldestCase
}

// Funnel counts the applications of the period by status.
type Funnel struct {
	Period   Period
	KYC, KYB Counts
}

// CountBucket is one bucket's count.
type CountBucket struct {
	Start time.Time
	Count int64
}

// SanctionsStats are the period's sanctions hits and their reviews.
type SanctionsStats struct {
	Period  Period
	Reviews Counts
	Buckets []CountBucket
}

// WebhookStats count the period's webhook deliveries by status.
type WebhookStats struct {
	Period   Period
	ByStatus Counts
}

// SuccessRate is DELIVERED / (DELIVERED + DEAD): deliveries still retrying are not decided yet.
func (w WebhookStats) SuccessRate() float64 {
	done := w.ByStatus.Values["DELIVERED"] + w.ByStatus.Values["DEAD"]
	if done == 0 {
		return 0
	}
	return float64(w.ByStatus.Values["DELIVERED"]) / float64(done)
}

// WalletBucket is one bucket's spend.
type WalletBucket struct {
	Start   time.Time
	Spend   decimal.Decimal
	Charges int64
}

// WalletStats are the wallet now and its spend in the period.
type WalletStats struct {
	Period         Period
	Balance, Held  decimal.Decimal
	Credits, Spend decimal.Decimal
	Charges        int64
	Buckets        []WalletBucket
}

// Store computes the aggregates of a tenant for a period. Every method is tenant-scoped and
// returns INTERNAL on a database failure only.
type Store interface {
	ScreeningStats(ctx context.Context, tenant tenancy.TenantID, p Period) (ScreeningStats, error)
	TopRules(ctx context.Context, tenant tenancy.TenantID, p Period, limit int) ([]RuleHits, error)
	CaseStats(ctx context.Context, tenant tenancy.TenantID, p Period, now time.Time) (CaseStats, error)
	ApplicationFunnel(ctx context.Context, tenant tenancy.TenantID, p Period) (Funnel, error)
	SanctionsStats(ctx context.Context, tenant tenancy.TenantID, p Period) (SanctionsStats, error)
	WebhookStats(ctx context.Context, tenant tenancy.TenantID, p Period) (WebhookStats, error)
	WalletStats(ctx context.Context, tenant tenancy.TenantID, p Period) (WalletStats, error)
}

// Freshness says where the Overview's figures are read from (docs/guide/read-replica.md).
type Freshness struct {
	// FromReplica is set while the read replica answers them.
	FromReplica bool
	// ReplicaStatus is "none", "ok", "lagging" or "down".
	ReplicaStatus string
	// Lag is how far the replica's data is behind the primary's (zero from the primary).
	Lag, MaxLag time.Duration
}
