package dashboardstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/dashboard"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/dashboardstore"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// inTenantSQL runs statements as the tenant (row-level security applies to the pool's role).
func inTenantSQL(ctx context.Context, t *testing.T, db *postgres.DB, tenant tenancy.TenantID, stmts ...string) {
	t.Helper()
	err := asTenant(ctx, db, tenant, func(tx pgx.Tx) error {
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
		}
		return nil
	})
	require.NoError(t, err)
}

// screened is a record of the given verdict at ts with the given triggered rules.
func screened(tenant tenancy.TenantID, ext string, ts time.Time, outcome rules.Outcome, risk string, ruleIDs ...string) *screening.Record {
	r := record(tenant, ext, "")
	r.Tx.Timestamp = ts
	r.Result.Outcome, r.Result.RiskLevel = outcome, risk
	for _, id := range ruleIDs {
		r.Result.Breakdown[0].RulesTriggered = append(r.Result.Breakdown[0].RulesTriggered, screening.TriggeredRule{ID: id, Name: "rule " + id})
	}
	return r
}

// TestDashboardStoreKnownFigures seeds one tenant with screenings (through the screening
// commit, so through its rollups), cases, KYC and KYB applications, webhook deliveries and
// wallet entries whose aggregates are known, plus rows outside the period and another tenant's,
// and checks every figure of every aggregate exactly.
func TestDashboardStoreKnownFigures(t *testing.T) {
	t.Parallel()
	ctx, db, _, st := freshScreeningStore(t, screenstore.ScreeningStoreOptions{})
	ten, other := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	d0 := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	at := func(day, hour, minute int) time.Time {
		return d0.Add(time.Duration(day*24+hour)*time.Hour + time.Duration(minute)*time.Minute)
	}

	// Screenings: day 0: 3 APPROVE/LOW at 10:xx (two trigger AML-001), 1 ESCALATE/HIGH at 23:59;
	// day 1: 2 BLOCK/CRITICAL at 05:00 (SANC-1 and AML-001); day 2: none. Outside: one the day
	// before, another tenant's five, and a replayed externalId (not stored, not counted).
	recs := []*screening.Record{
		screened(ten.ID, "a1", at(0, 10, 1), rules.Approve, "LOW", "AML-001"),
		screened(ten.ID, "a2", at(0, 10, 30), rules.Approve, "LOW", "AML-001"),
		screened(ten.ID, "a3", at(0, 10, 59), rules.Approve, "LOW"),
		screened(ten.ID, "e1", at(0, 23, 59), rules.Escalate, "HIGH"),
		screened(ten.ID, "b1", at(1, 5, 0), rules.Block, "CRITICAL", "SANC-1", "AML-001"),
		screened(ten.ID, "b2", at(1, 5, 0), rules.Block, "CRITICAL", "SANC-1", "AML-001"),
		screened(ten.ID, "old", at(-1, 12, 0), rules.Approve, "LOW", "AML-001"),
	}
	for i := range 5 {
		recs = append(recs, screened(other.ID, fmt.Sprintf("o%d", i), at(0, 10, 0), rules.Block, "CRITICAL", "AML-001"))
	}
	for _, r := range recs {
		_, err := st.Save(ctx, r)
		require.NoError(t, err, r.Tx.ExternalID)
	}
	_, err := st.Save(ctx, screened(ten.ID, "a1", at(0, 10, 1), rules.Approve, "LOW", "AML-001"))
	require.Equal(t, apperr.DuplicateExternalID, apperr.CodeOf(err), "a replayed externalId is refused")

	// Cases (created_by null = automatic). Manual one: c4.
	user := pgtest.User(ctx, t, db, ten.ID, nil)
	q := func(ts time.Time) string { return "'" + ts.Format(time.RFC3339Nano) + "'" }
	caseSQL := func(id, typ, prio, status string, created time.Time, resolved *time.Time, by string) string {
		res := "null"
		if resolved != nil {
			res = q(*resolved)
		}
		return fmt.Sprintf(`insert into cases (id, tenant_id, case_number, type, priority, title, description, status, created_by,
			created_at, updated_at, resolved_at) values ('%s', '%s', '%s', '%s', '%s', 't', 'd', '%s', %s, %s, %s, %s)`,
			id, ten.ID, "CASE-2026-9"+id[len(id)-4:], typ, prio, status, by, q(created), q(created), res)
	}
	r1, r2, r3 := at(1, 9, 0), at(2, 1, 0), at(2, 2, 0)
	inTenantSQL(ctx, t, db, ten.ID,
		caseSQL("case_dash0001", "SANCTIONS_HIT", "CRITICAL", "OPEN", at(0, 12, 0), nil, "null"),
		caseSQL("case_dash0002", "AML_ALERT", "HIGH", "RESOLVED_FALSE_POSITIVE", at(0, 13, 0), &r1, "null"),
		caseSQL("case_dash0003", "SANCTIONS_HIT", "HIGH", "RESOLVED_TRUE_POSITIVE", at(1, 0, 0), &r2, "null"),
		caseSQL("case_dash0004", "REGULATORY_INQUIRY", "LOW", "IN_PROGRESS", at(1, 3, 0), nil, "'"+user.ID+"'"),
		caseSQL("case_dash0005", "SANCTIONS_HIT", "LOW", "CLOSED", at(2, 0, 0), &r3, "null"),
		caseSQL("case_dash0006", "SANCTIONS_HIT", "MEDIUM", "OPEN", at(-2, 0, 0), nil, "null"),
		// Applications: KYC 2 PENDING (day 0), 1 APPROVED (day 1), 1 REJECTED before the period;
		// KYB 1 CAC_VERIFIED (day 2).
		`insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, status, created_at) values
			('kyc_d1', '`+string(ten.ID)+`', 'INDIVIDUAL', 'A', 'B', 'PENDING', `+q(at(0, 1, 0))+`),
			('kyc_d2', '`+string(ten.ID)+`', 'INDIVIDUAL', 'A', 'B', 'PENDING', `+q(at(0, 2, 0))+`),
			('kyc_d3', '`+string(ten.ID)+`', 'INDIVIDUAL', 'A', 'B', 'APPROVED', `+q(at(1, 2, 0))+`),
			('kyc_d4', '`+string(ten.ID)+`', 'INDIVIDUAL', 'A', 'B', 'REJECTED', `+q(at(-1, 2, 0))+`)`,
		`insert into kyb_applications (id, tenant_id, company_name, status, created_at) values
			('kyb_d1', '`+string(ten.ID)+`', 'Acme', 'CAC_VERIFIED', `+q(at(2, 2, 0))+`)`,
		// Webhook deliveries: 3 DELIVERED, 1 DEAD, 1 FAILED in the period; 1 DEAD before it.
		`insert into webhook_deliveries (id, tenant_id, event_id, event, url, payload, status, created_at)
			select 'whd_d' || i, '`+string(ten.ID)+`', 'evt_' || i, 'case.created', 'http://x', '\x00',
			(array['DELIVERED','DELIVERED','DELIVERED','DEAD','FAILED','DEAD'])[i],
			case when i = 6 then `+q(at(-1, 0, 0))+`::timestamptz else `+q(at(0, 5, 0))+`::timestamptz + i * interval '1 hour' end
			from generate_series(1, 6) i`,
		// Wallet: balance 850.00; a 1000 top-up and a 100 charge on day 0, a 50 charge on day 1,
		// a 7 charge the day before.
		`insert into wallets (tenant_id, balance, held) values ('`+string(ten.ID)+`', 850, 0)
			on conflict (tenant_id) do update set balance = 850, held = 0`,
		`insert into wallet_ledger (id, tenant_id, type, amount, balance_after, reference, created_at) values
			(gen_random_uuid(), '`+string(ten.ID)+`', 'CREDIT', 1000, 1007, 'top', `+q(at(0, 1, 0))+`),
			(gen_random_uuid(), '`+string(ten.ID)+`', 'CHARGE', -100, 907, 'c1', `+q(at(0, 2, 0))+`),
			(gen_random_uuid(), '`+string(ten.ID)+`', 'CHARGE', -50, 857, 'c2', `+q(at(1, 2, 0))+`),
			(gen_random_uuid(), '`+string(ten.ID)+`', 'CHARGE', -7, 7, 'c0', `+q(at(-1, 2, 0))+`)`,
	)

	ds := dashboardstore.NewDashboardStore(db)
	days := dashboard.Period{From: d0, To: at(3, 0, 0), Granularity: dashboard.Day}
	now := at(90, 0, 0)

	t.Run("screenings by day", func(t *testing.T) {
		s, err := ds.ScreeningStats(ctx, ten.ID, days)
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"APPROVE": 3, "ESCALATE": 1, "BLOCK": 2}, s.Outcomes.Values)
		require.Equal(t, map[string]int64{"LOW": 3, "HIGH": 1, "CRITICAL": 2}, s.RiskLevel.Values)
		require.Len(t, s.Buckets, 3)
		require.Equal(t, []int64{4, 2, 0}, []int64{s.Buckets[0].Outcomes.Total(), s.Buckets[1].Outcomes.Total(), s.Buckets[2].Outcomes.Total()})
		require.Equal(t, map[string]int64{"APPROVE": 3, "ESCALATE": 1}, s.Buckets[0].Outcomes.Values)
		require.Equal(t, map[string]int64{"CRITICAL": 2}, s.Buckets[1].RiskLevel.Values)
	})
	t.Run("screenings by hour", func(t *testing.T) {
		s, err := ds.ScreeningStats(ctx, ten.ID, dashboard.Period{From: d0, To: at(1, 0, 0), Granularity: dashboard.Hour})
		require.NoError(t, err)
		require.Len(t, s.Buckets, 24)
		require.Equal(t, int64(3), s.Buckets[10].Outcomes.Total())
		require.Equal(t, int64(1), s.Buckets[23].Outcomes.Values["ESCALATE"])
		require.Equal(t, int64(4), s.Outcomes.Total())
	})
	t.Run("top rules", func(t *testing.T) {
		r, err := ds.TopRules(ctx, ten.ID, days, 10)
		require.NoError(t, err)
		require.Equal(t, []dashboard.RuleHits{{RuleID: "AML-001", RuleName: "rule AML-001", Hits: 4}, {RuleID: "SANC-1", RuleName: "rule SANC-1", Hits: 2}}, r)
		r, err = ds.TopRules(ctx, ten.ID, days, 1)
		require.NoError(t, err)
		require.Len(t, r, 1)
	})
	t.Run("cases", func(t *testing.T) {
		c, err := ds.CaseStats(ctx, ten.ID, days, now)
		require.NoError(t, err)
		require.Equal(t, []dashboard.CaseBucket{{Start: d0, Opened: 2}, {Start: at(1, 0, 0), Opened: 1, Closed: 1}, {Start: at(2, 0, 0), Opened: 1, Closed: 2}}, c.Buckets)
		open := map[string]map[string]int64{}
		for _, o := range c.OpenByPriority {
			open[o.Priority] = o.ByAge.Values
		}
		require.Equal(t, map[string]map[string]int64{"CRITICAL": {"30d+": 1}, "HIGH": {}, "MEDIUM": {"30d+": 1}, "LOW": {"30d+": 1}}, open)
		require.Len(t, c.Oldest, 3)
		require.Equal(t, []string{"case_dash0006", "case_dash0001", "case_dash0004"}, []string{c.Oldest[0].ID, c.Oldest[1].ID, c.Oldest[2].ID})
		// Age buckets are measured at now: at day 3 the open CRITICAL case is 1-7 days old.
		c, err = ds.CaseStats(ctx, ten.ID, days, at(3, 0, 0))
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"1-7d": 1}, c.OpenByPriority[0].ByAge.Values)
	})
	t.Run("funnel", func(t *testing.T) {
		f, err := ds.ApplicationFunnel(ctx, ten.ID, days)
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"PENDING": 2, "APPROVED": 1}, f.KYC.Values)
		require.Equal(t, map[string]int64{"CAC_VERIFIED": 1}, f.KYB.Values)
	})
	t.Run("sanctions", func(t *testing.T) {
		s, err := ds.SanctionsStats(ctx, ten.ID, days)
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"PENDING": 1, "TRUE_POSITIVE": 1, "CLOSED": 1}, s.Reviews.Values)
		require.Equal(t, []dashboard.CountBucket{{Start: d0, Count: 1}, {Start: at(1, 0, 0), Count: 1}, {Start: at(2, 0, 0), Count: 1}}, s.Buckets)
	})
	t.Run("webhooks", func(t *testing.T) {
		w, err := ds.WebhookStats(ctx, ten.ID, days)
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"DELIVERED": 3, "DEAD": 1, "FAILED": 1}, w.ByStatus.Values)
		require.InDelta(t, 0.75, w.SuccessRate(), 1e-9)
		// A retry that succeeds moves the count; a purged dead letter leaves it; an approval too.
		inTenantSQL(ctx, t, db, ten.ID, `update webhook_deliveries set status = 'DELIVERED' where id = 'whd_d5'`,
			`delete from webhook_deliveries where id = 'whd_d4'`, `update kyc_applications set status = 'APPROVED' where id = 'kyc_d1'`)
		w, err = ds.WebhookStats(ctx, ten.ID, days)
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"DELIVERED": 4}, w.ByStatus.Values)
		f, err := ds.ApplicationFunnel(ctx, ten.ID, days)
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"PENDING": 1, "APPROVED": 2}, f.KYC.Values)
	})
	t.Run("wallet", func(t *testing.T) {
		w, err := ds.WalletStats(ctx, ten.ID, days)
		require.NoError(t, err)
		require.Equal(t, "850.00", w.Balance.StringFixed(2))
		require.Equal(t, "150.00", w.Spend.StringFixed(2))
		require.Equal(t, "1000.00", w.Credits.StringFixed(2))
		require.Equal(t, int64(2), w.Charges)
		require.Equal(t, "100.00", w.Buckets[0].Spend.StringFixed(2))
		require.Equal(t, int64(1), w.Buckets[1].Charges)
	})
	t.Run("another tenant sees only its own", func(t *testing.T) {
		s, err := ds.ScreeningStats(ctx, other.ID, days)
		require.NoError(t, err)
		require.Equal(t, map[string]int64{"BLOCK": 5}, s.Outcomes.Values)
		c, err := ds.CaseStats(ctx, other.ID, days, now)
		require.NoError(t, err)
		require.Empty(t, c.Oldest)
	})
}
