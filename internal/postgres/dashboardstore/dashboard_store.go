package dashboardstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/dashboard"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// DashboardStore computes the Overview screen's aggregates (docs/guide/dashboard.md "Overview API").
// Screenings and triggered rules are read from the rollups the screening commit keeps
// (screening_rollup.go); everything else is a live aggregate over an index of the period it
// reads (migration 0018). Buckets are cut with date_bin from the period's start, in UTC.
type DashboardStore struct{ db *postgres.DB }

// NewDashboardStore returns the store.
func NewDashboardStore(db *postgres.DB) *DashboardStore { return &DashboardStore{db: db} }

var _ dashboard.Store = (*DashboardStore)(nil)

// openStatuses are the statuses of a case still being worked.
const openStatuses = `('OPEN', 'IN_PROGRESS', 'PENDING_REVIEW', 'ESCALATED')`

// query runs sql in a tenant transaction and calls scan for every row.
func (s *DashboardStore) query(ctx context.Context, tx pgx.Tx, sql string, scan func(pgx.Rows) error, args ...any) error {
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ScreeningStats implements dashboard.Store: the hourly rollup rows of the period, summed per
// bucket (their shards and hours), outcome and risk level.
func (s *DashboardStore) ScreeningStats(ctx context.Context, tenant tenancy.TenantID, p dashboard.Period) (dashboard.ScreeningStats, error) {
	st := dashboard.ScreeningStats{Period: p, Outcomes: dashboard.NewCounts(dashboard.Outcomes), RiskLevel: dashboard.NewCounts(dashboard.RiskLevels)}
	for _, b := range p.Buckets() {
		st.Buckets = append(st.Buckets, dashboard.ScreeningBucket{Start: b, Outcomes: dashboard.NewCounts(dashboard.Outcomes),
			RiskLevel: dashboard.NewCounts(dashboard.RiskLevels)})
	}
	err := s.db.InTenantRead(ctx, tenant, func(tx pgx.Tx) error {
		return s.query(ctx, tx, `select date_bin($4::interval, bucket, $2), outcome, risk_level, sum(screenings)::int8
			from screening_rollups where tenant_id = $1 and bucket >= $2 and bucket < $3 group by 1, 2, 3`,
			func(rows pgx.Rows) error {
				var b time.Time
				var outcome, risk string
				var n int64
				if err := rows.Scan(&b, &outcome, &risk, &n); err != nil {
					return err
				}
				st.Outcomes.Values[outcome] += n
				st.RiskLevel.Values[risk] += n
				if i := p.Index(b); i >= 0 {
					st.Buckets[i].Outcomes.Values[outcome] += n
					st.Buckets[i].RiskLevel.Values[risk] += n
				}
				return nil
			}, string(tenant), p.From, p.To, p.Step())
	})
	if err != nil {
		return dashboard.ScreeningStats{}, fmt.Errorf("screening stats: %w", err)
	}
	return st, nil
}

// TopRules implements dashboard.Store. The sums are grouped by rule and name (a custom rule
// may have been renamed), a few rows whatever the period; Go keeps per rule the name of its
// latest hour and sorts (most hits first, then rule id).
func (s *DashboardStore) TopRules(ctx context.Context, tenant tenancy.TenantID, p dashboard.Period, limit int) ([]dashboard.RuleHits, error) {
	type named struct {
		dashboard.RuleHits
		latest time.Time
	}
	byID := map[string]*named{}
	err := s.db.InTenantRead(ctx, tenant, func(tx pgx.Tx) error {
		return s.query(ctx, tx, `select rule_id, rule_name, max(bucket), sum(hits)::int8
			from screening_rule_rollups where tenant_id = $1 and bucket >= $2 and bucket < $3 group by 1, 2`,
			func(rows pgx.Rows) error {
				var id, name string
				var latest time.Time
				var n int64
				if err := rows.Scan(&id, &name, &latest, &n); err != nil {
					return err
				}
				r, ok := byID[id]
				if !ok {
					r = &named{RuleHits: dashboard.RuleHits{RuleID: id}}
					byID[id] = r
				}
				r.Hits += n
				if r.RuleName == "" || latest.After(r.latest) {
					r.RuleName, r.latest = name, latest
				}
				return nil
			}, string(tenant), p.From, p.To)
	})
	if err != nil {
		return nil, fmt.Errorf("top rules: %w", err)
	}
	out := make([]dashboard.RuleHits, 0, len(byID))
	for _, r := range byID {
		out = append(out, r.RuleHits)
	}
	slices.SortFunc(out, func(a, b dashboard.RuleHits) int {
		if a.Hits != b.Hits {
			return cmp.Compare(b.Hits, a.Hits)
		}
		return strings.Compare(a.RuleID, b.RuleID)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// CaseStats implements dashboard.Store: automatic cases (created_by is null) opened and
// resolved per bucket, and the open cases now by priority and age (age measured at now).
func (s *DashboardStore) CaseStats(ctx context.Context, tenant tenancy.TenantID, p dashboard.Period, now time.Time) (dashboard.CaseStats, error) {
	st := dashboard.CaseStats{Period: p, Oldest: []dashboard.OldestCase{}}
	for _, b := range p.Buckets() {
		st.Buckets = append(st.Buckets, dashboard.CaseBucket{Start: b})
	}
	open := map[string]dashboard.Counts{}
	for _, pr := range dashboard.Priorities {
		open[pr] = dashboard.NewCounts(dashboard.AgeBuckets)
	}
	err := s.db.InTenantRead(ctx, tenant, func(tx pgx.Tx) error {
		if err := s.query(ctx, tx, `select date_bin($4::interval, created_at, $2), count(*) from cases
			where tenant_id = $1 and created_by is null and created_at >= $2 and created_at < $3 group by 1`,
			func(rows pgx.Rows) error {
				var b time.Time
				var n int64
				if err := rows.Scan(&b, &n); err != nil {
					return err
				}
				if i := p.Index(b); i >= 0 {
					st.Buckets[i].Opened += n
				}
				return nil
			}, string(tenant), p.From, p.To, p.Step()); err != nil {
			return err
		}
		if err := s.query(ctx, tx, `select date_bin($4::interval, resolved_at, $2), count(*) from cases
			where tenant_id = $1 and created_by is null and resolved_at is not null and resolved_at >= $2 and resolved_at < $3 group by 1`,
			func(rows pgx.Rows) error {
				var b time.Time
				var n int64
				if err := rows.Scan(&b, &n); err != nil {
					return err
				}
				if i := p.Index(b); i >= 0 {
					st.Buckets[i].Closed += n
				}
				return nil
			}, string(tenant), p.From, p.To, p.Step()); err != nil {
			return err
		}
		if err := s.query(ctx, tx, `select priority, case when created_at > $2::timestamptz - interval '1 day' then '0-1d'
				when created_at > $2::timestamptz - interval '7 days' then '1-7d'
				when created_at > $2::timestamptz - interval '30 days' then '7-30d' else '30d+' end, count(*)
			from cases where tenant_id = $1 and status in `+openStatuses+` group by 1, 2`,
			func(rows pgx.Rows) error {
				var pr, age string
				var n int64
				if err := rows.Scan(&pr, &age, &n); err != nil {
					return err
				}
				if c, ok := open[pr]; ok {
					c.Values[age] += n
				}
				return nil
			}, string(tenant), now); err != nil {
			return err
		}
		return s.query(ctx, tx, `select id, case_number, priority, status, type, created_at from cases
			where tenant_id = $1 and status in `+openStatuses+` order by created_at, id limit 5`,
			func(rows pgx.Rows) error {
				var c dashboard.OldestCase
				if err := rows.Scan(&c.ID, &c.CaseNumber, &c.Priority, &c.Status, &c.Type, &c.CreatedAt); err != nil {
					return err
				}
				st.Oldest = append(st.Oldest, c)
				return nil
			}, string(tenant))
	})
	if err != nil {
		return dashboard.CaseStats{}, fmt.Errorf("case stats: %w", err)
	}
	for _, pr := range dashboard.Priorities {
		st.OpenByPriority = append(st.OpenByPriority, dashboard.OpenCases{Priority: pr, ByAge: open[pr]})
	}
	return st, nil
}

// ApplicationFunnel implements dashboard.Store: applications created in the period (whole
// hours), by their status now, from the status rollups.
func (s *DashboardStore) ApplicationFunnel(ctx context.Context, tenant tenancy.TenantID, p dashboard.Period) (dashboard.Funnel, error) {
	f := dashboard.Funnel{Period: p, KYC: dashboard.NewCounts(dashboard.KYCStatuses), KYB: dashboard.NewCounts(dashboard.KYBStatuses)}
	err := s.db.InTenantRead(ctx, tenant, func(tx pgx.Tx) error {
		for kind, c := range map[string]dashboard.Counts{"kyc": f.KYC, "kyb": f.KYB} {
			if err := s.query(ctx, tx, statusRollupSQL,
				func(rows pgx.Rows) error {
					var st string
					var n int64
					if err := rows.Scan(&st, &n); err != nil {
						return err
					}
					c.Values[st] += n
					return nil
				}, string(tenant), kind, p.From, p.To); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return dashboard.Funnel{}, fmt.Errorf("application funnel: %w", err)
	}
	return f, nil
}

// SanctionsStats implements dashboard.Store: SANCTIONS_HIT cases created in the period, per
// bucket, and by how their review stands now.
func (s *DashboardStore) SanctionsStats(ctx context.Context, tenant tenancy.TenantID, p dashboard.Period) (dashboard.SanctionsStats, error) {
	st := dashboard.SanctionsStats{Period: p, Reviews: dashboard.NewCounts(dashboard.Reviews)}
	for _, b := range p.Buckets() {
		st.Buckets = append(st.Buckets, dashboard.CountBucket{Start: b})
	}
	err := s.db.InTenantRead(ctx, tenant, func(tx pgx.Tx) error {
		return s.query(ctx, tx, `select date_bin($4::interval, created_at, $2), status, count(*) from cases
			where tenant_id = $1 and type = 'SANCTIONS_HIT' and created_at >= $2 and created_at < $3 group by 1, 2`,
			func(rows pgx.Rows) error {
				var b time.Time
				var status string
				var n int64
				if err := rows.Scan(&b, &status, &n); err != nil {
					return err
				}
				st.Reviews.Values[reviewOf(status)] += n
				if i := p.Index(b); i >= 0 {
					st.Buckets[i].Count += n
				}
				return nil
			}, string(tenant), p.From, p.To, p.Step())
	})
	if err != nil {
		return dashboard.SanctionsStats{}, fmt.Errorf("sanctions stats: %w", err)
	}
	return st, nil
}

// statusRollupSQL sums the status rollups of a kind (kept by migration 0018's triggers) over
// whole hours of created_at.
const statusRollupSQL = `select status, sum(n)::int8 from status_rollups
	where tenant_id = $1 and kind = $2 and bucket >= $3 and bucket < $4 group by 1 having sum(n) <> 0`

// reviewOf maps a case status to the review outcome of a sanctions hit.
func reviewOf(status string) string {
	switch status {
	case "RESOLVED_TRUE_POSITIVE":
		return "TRUE_POSITIVE"
	case "RESOLVED_FALSE_POSITIVE":
		return "FALSE_POSITIVE"
	case "CLOSED":
		return "CLOSED"
	}
	return "PENDING"
}

// WebhookStats implements dashboard.Store: deliveries created in the period (whole hours) by
// their status now, from the status rollups.
func (s *DashboardStore) WebhookStats(ctx context.Context, tenant tenancy.TenantID, p dashboard.Period) (dashboard.WebhookStats, error) {
	st := dashboard.WebhookStats{Period: p, ByStatus: dashboard.NewCounts(dashboard.DeliveryStatuses)}
	err := s.db.InTenantRead(ctx, tenant, func(tx pgx.Tx) error {
		return s.query(ctx, tx, statusRollupSQL,
			func(rows pgx.Rows) error {
				var status string
				var n int64
				if err := rows.Scan(&status, &n); err != nil {
					return err
				}
				st.ByStatus.Values[status] += n
				return nil
			}, string(tenant), "webhook_delivery", p.From, p.To)
	})
	if err != nil {
		return dashboard.WebhookStats{}, fmt.Errorf("webhook stats: %w", err)
	}
	return st, nil
}

// WalletStats implements dashboard.Store: the wallet row now, and the ledger of the period per
// bucket (charges are stored negative; spend is their absolute sum).
func (s *DashboardStore) WalletStats(ctx context.Context, tenant tenancy.TenantID, p dashboard.Period) (dashboard.WalletStats, error) {
	st := dashboard.WalletStats{Period: p}
	for _, b := range p.Buckets() {
		st.Buckets = append(st.Buckets, dashboard.WalletBucket{Start: b})
	}
	err := s.db.InTenantRead(ctx, tenant, func(tx pgx.Tx) error {
		var bal, held string
		err := tx.QueryRow(ctx, `select coalesce((select balance::text from wallets where tenant_id = $1), '0'),
			coalesce((select held::text from wallets where tenant_id = $1), '0')`, string(tenant)).Scan(&bal, &held)
		if err != nil {
			return err
		}
		if st.Balance, err = decimal.NewFromString(bal); err != nil {
			return err
		}
		if st.Held, err = decimal.NewFromString(held); err != nil {
			return err
		}
		return s.query(ctx, tx, `select date_bin($4::interval, created_at, $2), type, sum(amount)::text, count(*) from wallet_ledger
			where tenant_id = $1 and created_at >= $2 and created_at < $3 group by 1, 2`,
			func(rows pgx.Rows) error {
				var b time.Time
				var typ, sum string
				var n int64
				if err := rows.Scan(&b, &typ, &sum, &n); err != nil {
					return err
				}
				amt, err := decimal.NewFromString(sum)
				if err != nil {
					return err
				}
				if typ == "CREDIT" {
					st.Credits = st.Credits.Add(amt)
					return nil
				}
				spend := amt.Neg()
				st.Spend, st.Charges = st.Spend.Add(spend), st.Charges+n
				if i := p.Index(b); i >= 0 {
					st.Buckets[i].Spend = st.Buckets[i].Spend.Add(spend)
					st.Buckets[i].Charges += n
				}
				return nil
			}, string(tenant), p.From, p.To, p.Step())
	})
	if err != nil {
		return dashboard.WalletStats{}, fmt.Errorf("wallet stats: %w", err)
	}
	return st, nil
}
