package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
)

// TestPartitionMigrationConvertsInPlace: migrations 0050 and 0051 convert a populated database
// (transactions over four months, one far in the past, and audit rows) in place: every row is
// kept in its month's partition (the ancient one in the default partition), the per-account
// aggregates are unchanged (the copy does not count the rows twice), every stored externalId has
// its key and a duplicate is still refused with the old constraint's name, queries bounded in
// time read only their months, and a partition created later takes the default partition's rows
// of its month.
func TestPartitionMigrationConvertsInPlace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.Empty(t)
	require.NoError(t, postgres.MigrateUpToForTest(ctx, url, 36))
	conn := adminConn(ctx, t, url)
	tenant := uuid.NewString()
	_, err := conn.Exec(ctx, `insert into tenants (id, name, slug) values ($1, 'Old Bank', $2)`, tenant, "old-"+tenant[:8])
	require.NoError(t, err)
	// 120 transactions, one every day from 2025-11-20 (four months), and one from 1999.
	_, err = conn.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, device_id, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score,
		actions, engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'old-' || g, 'TRANSFER', 'MOBILE_APP', 100 + g, 'NGN', 100 + g, '10' || (g % 3), 'A', 'd' || (g % 2),
		  case when g = 0 then '1999-06-01T00:00:00Z'::timestamptz else '2025-11-20T12:00:00Z'::timestamptz + g * interval '1 day' end,
		  'v' || g, 'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now()
		from generate_series(0, 120) g`, tenant)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `insert into audit_events (id, tenant_id, actor_type, action, resource_type, created_at)
		select gen_random_uuid(), $1, 'SYSTEM', 'case.created', 'case', '2025-12-01T00:00:00Z'::timestamptz + g * interval '1 day'
		from generate_series(1, 40) g`, tenant)
	require.NoError(t, err)
	grains := `select grain || ' ' || sum(n)::text || ' ' || sum(sum_ngn)::text from account_activity_grains where tenant_id = $1
		group by grain order by grain`
	before := queryStrings(ctx, t, conn, grains, tenant)

	require.NoError(t, postgres.Migrate(ctx, url, slog.New(slog.DiscardHandler)))

	require.Equal(t, before, queryStrings(ctx, t, conn, grains, tenant), "aggregates unchanged")
	require.Equal(t, []string{"121"}, queryStrings(ctx, t, conn, `select count(*)::text from transactions where tenant_id = $1`, tenant))
	require.Equal(t, []string{"121"}, queryStrings(ctx, t, conn, `select count(*)::text from transaction_keys where tenant_id = $1`, tenant))
	require.Equal(t, []string{"40"}, queryStrings(ctx, t, conn, `select count(*)::text from audit_events where tenant_id = $1`, tenant))
	require.Equal(t, []string{"transactions_default 1", "transactions_p202511 10", "transactions_p202512 31",
		"transactions_p202601 31", "transactions_p202602 28", "transactions_p202603 20"},
		queryStrings(ctx, t, conn, `select tableoid::regclass::text || ' ' || count(*) from transactions where tenant_id = $1
			group by tableoid order by 1`, tenant))
	require.Contains(t, queryStrings(ctx, t, conn, `select relname from pg_class where relname = 'audit_events_p202512'`), "audit_events_p202512")

	// A duplicate externalId is refused as before 0050, whatever its timestamp.
	_, err = conn.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
		engine_verdicts, total_latency_ms, processed_at, created_at)
		values (gen_random_uuid(), $1, 'old-7', 'TRANSFER', 'MOBILE_APP', 5, 'NGN', 5, '1', 'A', '2026-01-15T00:00:00Z', 'v', 'APPROVE',
		'LOW', 0, '{}', '[]', 1, now(), now())`, tenant)
	var pgErr *pgconn.PgError
	require.True(t, errors.As(err, &pgErr), "duplicate: %v", err)
	require.Equal(t, "23505", pgErr.Code)
	require.Equal(t, "transactions_tenant_external_id_key", pgErr.ConstraintName)

	// Pruning: a query bounded to January reads January's partition only; the list's newest-first
	// page reads the newest partitions in order and stops.
	plan := explain(ctx, t, conn, `select count(*), sum(amount_ngn) from transactions where tenant_id = '`+tenant+`'
		and sender_account_number = '101' and transaction_timestamp >= '2026-01-01T00:00:00Z' and transaction_timestamp < '2026-02-01T00:00:00Z'`)
	require.Contains(t, plan, "transactions_p202601")
	for _, other := range []string{"transactions_p202512", "transactions_p202602", "transactions_default"} {
		require.NotContains(t, plan, other)
	}
	plan = explain(ctx, t, conn, `select id from audit_events where tenant_id = '`+tenant+`' and created_at >= '2025-12-10T00:00:00Z'
		and created_at < '2025-12-20T00:00:00Z'`)
	require.Contains(t, plan, "audit_events_p202512")
	require.NotContains(t, plan, "audit_events_p202601")

	// A far-future row waits in the default partition until its month's partition is created.
	_, err = conn.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
		engine_verdicts, total_latency_ms, processed_at, created_at)
		values (gen_random_uuid(), $1, 'future', 'TRANSFER', 'MOBILE_APP', 5, 'NGN', 5, '1', 'A', '2031-05-15T00:00:00Z', 'v', 'APPROVE',
		'LOW', 0, '{}', '[]', 1, now(), now())`, tenant)
	require.NoError(t, err)
	require.Equal(t, []string{"transactions_default"}, queryStrings(ctx, t, conn,
		`select tableoid::regclass::text from transactions where external_id = 'future'`))
	require.Equal(t, []string{"1"}, queryStrings(ctx, t, conn,
		`select ensure_monthly_partitions('transactions', '2031-05-01T00:00:00Z', '2031-05-01T00:00:00Z')::text`))
	require.Equal(t, []string{"transactions_p203105"}, queryStrings(ctx, t, conn,
		`select tableoid::regclass::text from transactions where external_id = 'future'`))
	// Each partition has row-level security of its own, and the application may not change rows.
	require.Equal(t, []string{"true true false"}, queryStrings(ctx, t, conn, `select c.relrowsecurity::text || ' ' || c.relforcerowsecurity::text
		|| ' ' || has_table_privilege('complyd_app', c.oid, 'UPDATE')::text from pg_class c where c.relname = 'transactions_p203105'`))
	_, err = conn.Exec(ctx, `select ensure_monthly_partitions('cases', now(), now())`)
	require.ErrorContains(t, err, "is not partitioned by month")
}

// TestPartitionStoreEnsuresMonthsAhead: the maintenance job's store creates the partitions of the
// current month and the months ahead on both partitioned tables, once.
func TestPartitionStoreEnsuresMonthsAhead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t)
	conn := adminConn(ctx, t, url)
	st := postgres.NewPartitionStore(db)
	now := time.Date(2040, 1, 20, 0, 0, 0, 0, time.UTC)
	n, err := st.EnsurePartitions(ctx, now, 3)
	require.NoError(t, err)
	require.Equal(t, 8, n, "four months of two tables")
	n, err = st.EnsurePartitions(ctx, now, 3)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, []string{"audit_events_p204001", "audit_events_p204004", "transactions_p204001", "transactions_p204004"},
		queryStrings(ctx, t, conn, `select relname::text from pg_class where relname in ('transactions_p204001', 'transactions_p204004',
			'transactions_p204005', 'audit_events_p204001', 'audit_events_p204004', 'audit_events_p204005') order by 1`))
}

// TestScreeningWindowAcrossMonthBoundary: the velocity windows of a screening just after a month
// begins add up the transactions on both sides of the partition boundary exactly (24 hours,
// 60 minutes and the 90 days' statistics reach into the previous months' partitions).
func TestScreeningWindowAcrossMonthBoundary(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, postgres.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)
	_, err := postgres.NewPartitionStore(db).EnsurePartitions(ctx, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), 3)
	require.NoError(t, err)
	acct := "4200000001"
	feb := time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)
	stored := []struct {
		at     time.Time
		amount string
	}{
		{feb.AddDate(0, 0, -60), "1000.10"},          // December: 90 days only
		{feb.Add(-30 * time.Hour), "2000.20"},        // January, outside 24 hours
		{feb.Add(-23 * time.Hour), "300.03"},         // January, inside 24 hours
		{feb.Add(-10 * time.Minute), "40.04"},        // January, inside 60 minutes
		{feb.Add(5 * time.Minute), "5.05"},           // February, inside 60 minutes
		{feb.Add(20*time.Minute + time.Second), "1"}, // after the probe: never counted
	}
	for i, s := range stored {
		r := record(ten.ID, fmt.Sprintf("edge-%d", i), "")
		r.Tx.SenderAccountNumber, r.Tx.Timestamp = acct, s.at
		r.Tx.Amount, r.AmountNGN = decimal.RequireFromString(s.amount), decimal.RequireFromString(s.amount)
		p, err := st.Prefetch(ctx, r.Tx, false)
		require.NoError(t, err)
		r.History = p.History
		_, err = st.Save(ctx, r)
		require.NoError(t, err)
	}
	probe := record(ten.ID, "edge-probe", "")
	probe.Tx.SenderAccountNumber, probe.Tx.Timestamp = acct, feb.Add(20*time.Minute)
	p, err := st.Prefetch(ctx, probe.Tx, false)
	require.NoError(t, err)
	h := p.History
	require.Equal(t, 3, h.Count24h)
	require.Equal(t, "345.12", h.Sum24hNGN.StringFixed(2))
	require.Equal(t, 2, h.Count60m)
	require.Equal(t, 5, h.Amounts.Count)
	require.Equal(t, "669.084", h.Amounts.Mean.StringFixed(3))
	require.NotNil(t, h.LastActivityAt)
	require.True(t, h.LastActivityAt.Equal(feb.Add(5*time.Minute)))
}

// queryStrings runs sql on conn and returns its rows' single text column.
func queryStrings(ctx context.Context, t *testing.T, conn *pgx.Conn, sql string, args ...any) []string {
	t.Helper()
	rows, err := conn.Query(ctx, sql, args...)
	require.NoError(t, err)
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return out
}

// explain returns the plan of sql, one line a node.
func explain(ctx context.Context, t *testing.T, conn *pgx.Conn, sql string) string {
	t.Helper()
	return strings.Join(queryStrings(ctx, t, conn, "explain (costs off) "+sql), "\n")
}
