package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestCaseWritesCoalesce writes 27 automatic cases for each of two tenants through the
// screening commit's pipelined writer: the per-case inserts go as multi-row inserts (27 rows in
// one statement a table), each tenant's rows under its own setting, and every case has its
// CASE_CREATED event (in case-number order) and its audit record.
func TestCaseWritesCoalesce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	a, b := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	sent, err := db.CaseWritesForTest(ctx, []tenancy.TenantID{a.ID, b.ID}, 27)
	require.NoError(t, err)
	// Per tenant: its switch, then cases, case_events and audit_events in one statement each (27
	// rows); then COMMIT. One statement per row would be 2 × (1 + 3 × 27) + 1 = 165, the
	// power-of-two chunks (16 + 8 + 2 + 1) were 2 × (1 + 3 × 4) + 1 = 27.
	require.Equal(t, 2*(1+3*1)+1, sent)
	for _, ten := range []tenancy.TenantID{a.ID, b.ID} {
		var ncases, nevents, naudit int
		var ordered bool
		err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten)); err != nil {
				return err
			}
			return tx.QueryRow(ctx, `select (select count(*) from cases where tenant_id = $1),
			(select count(*) from case_events where tenant_id = $1 and event_type = 'CASE_CREATED'),
			(select count(*) from audit_events where tenant_id = $1 and action = 'case.case_created'),
			(select bool_and(o.rn = o.num) from (select row_number() over (order by e.seq) rn,
				row_number() over (order by c.case_number) num from case_events e join cases c on c.id = e.case_id
				where e.tenant_id = $1) o)`, string(ten)).Scan(&ncases, &nevents, &naudit, &ordered)
		})
		require.NoError(t, err)
		require.Equal(t, []int{27, 27, 27}, []int{ncases, nevents, naudit}, "tenant %s", ten)
		require.True(t, ordered, "timeline in case order")
	}
}

// TestCaseEffectsCoalesce is TestCaseWritesCoalesce for tenants with two compliance officers
// and a webhook URL, as a bank's are: the officers' emails and notifications (54 rows a tenant)
// and the case.created deliveries (27) go as multi-row inserts too, every row stored with its
// River job (the emails eight to a job), and the deliveries' rollup counts each of them once.
func TestCaseEffectsCoalesce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	a, b := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	for _, ten := range []tenancy.TenantID{a.ID, b.ID} {
		for range 2 {
			pgtest.User(ctx, t, db, ten, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer})
		}
		_, err := pgtest.Admin(ctx, t).Exec(ctx, `insert into webhook_endpoints (tenant_id, url, secret, updated_at)
			values ($1, 'https://bank.example/hook', 's', now())`, string(ten))
		require.NoError(t, err)
	}
	sent, err := db.CaseWritesForTest(ctx, []tenancy.TenantID{a.ID, b.ID}, 27)
	require.NoError(t, err)
	// Per tenant: its switch; cases, case_events, audit_events and the deliveries in one statement
	// each (27 rows); emails and notifications in two each (54 rows: maxChunk 32 and 22); then
	// COMMIT.
	require.Equal(t, 2*(1+4*1+2*2)+1, sent)
	for _, ten := range []tenancy.TenantID{a.ID, b.ID} {
		var emails, notes, deliveries, pending, jobs int
		err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten)); err != nil {
				return err
			}
			return tx.QueryRow(ctx, `select (select count(*) from emails where tenant_id = $1 and status = 'QUEUED'),
			(select count(*) from notifications where tenant_id = $1),
			(select count(*) from webhook_deliveries where tenant_id = $1 and event = 'case.created' and status = 'PENDING'),
			(select coalesce(sum(n), 0) from status_rollups where tenant_id = $1 and kind = 'webhook_delivery' and status = 'PENDING')`,
				string(ten)).Scan(&emails, &notes, &deliveries, &pending)
		})
		require.NoError(t, err)
		require.NoError(t, pgtest.Admin(ctx, t).QueryRow(ctx, `select count(*) from river_job
			where args->>'tenantId' = $1 or args->>'tenant_id' = $1`, string(ten)).Scan(&jobs))
		// 54 emails in send_email jobs of up to 8 (mergeJobs): 7 jobs; 27 deliveries in
		// webhook_deliver jobs of up to 8: 4 jobs.
		require.Equal(t, []int{54, 54, 27, 27, 7 + 4}, []int{emails, notes, deliveries, pending, jobs}, "tenant %s", ten)
	}
}
