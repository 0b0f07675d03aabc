package screenstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
)

// TestYoungTableAnalysed: the prefetch's generic plan, made while the transactions table was
// empty, reads an account's history through an index that does not lead to the account (a scan
// of the tenant's rows per screening once the table fills); the young-table check analyses the
// table, which replaces that cached plan with one through transactions_sender_idx (issue 15:
// the first minute of a new tenant). The table is partitioned by month: the plan's part for
// the current month's partition changes to that partition's copy of the index, and the
// parent's analysis is on record (it has none before, so the check analyses the parent, and
// every partition with it).
func TestYoungTableAnalysed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, ten, conn := youngDatabase(ctx, t)
	_, err := conn.Exec(ctx, "prepare pf("+screenstore.PrefetchParamTypes+") as "+screenstore.PrefetchSQL)
	require.NoError(t, err)
	plan := func() string {
		args := screenstore.PrefetchArgsForTest(string(ten.ID), []string{"x"}, []string{"3000000001"}, []time.Time{time.Now()}, [][]byte{nil})
		return strings.Join(explainPrefetch(ctx, t, conn, "", args), "\n")
	}
	plan() // the generic plan is made now, on the empty table, and cached

	tx, err := db.Pool.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID))
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
		engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'young-' || g, 'TRANSFER', 'MOBILE_APP', 10, 'NGN', 10, lpad((3000000000 + g % 200)::text, 10, '0'),
		  'A B', now() - g * interval '1 second', 'vrd', 'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now()
		from generate_series(1, 5000) g`, string(ten.ID))
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx))
	// transactions is partitioned by month (migration 0043): the rows are in the current month's
	// partition, whose copies of the parent's indexes are named after it. On the empty
	// partition the plan already reads the history pieces through its sender index; what it
	// reads by the tenant alone, a scan of the tenant's rows per screening, is the partition's
	// part of the original-verdict lookup (by key and timestamp once analysed).
	current := "transactions_p" + time.Now().UTC().Format("200601")
	senderIdx := current + "_sender_idx"
	tenantScan := regexp.MustCompile(`using ` + current + `_list_idx on ` + current + ` t_\d+ .*\n\s+Index Cond: \(tenant_id = \$1\)\n`)
	require.Regexp(t, tenantScan, plan(), "the plan cached on the empty table")

	screenstore.AnalyzeIfYoungForTest(db, 5000)
	after := plan()
	require.NotRegexp(t, tenantScan, after, "after the analysis no partition is read by the tenant alone")
	require.Contains(t, after, senderIdx, "after the analysis the history is read by account")

	var analysed bool
	require.NoError(t, db.Pool.QueryRow(ctx, `select last_analyze is not null from pg_stat_user_tables where relname = 'transactions'`).Scan(&analysed))
	require.True(t, analysed)

	// The early analysis samples at statistics target 10, not the default 100, so that it costs a
	// fifth of a full one on the screening host: the 5,000 distinct timestamps get at most 11
	// histogram bounds instead of 101.
	var bounds int
	require.NoError(t, conn.QueryRow(ctx, `select coalesce(array_length(histogram_bounds::text::text[], 1), 0) from pg_stats
		where tablename = 'transactions' and attname = 'transaction_timestamp'`).Scan(&bounds))
	require.Positive(t, bounds)
	require.LessOrEqual(t, bounds, 11, "histogram bounds of the early analysis")
}

// TestYoungSideTablesAnalysed: the delivery workers look an email and a webhook delivery up by
// tenant and id. A plan made before those tables were ever analysed reads the row through the
// index that leads with tenant_id and filters on id (a scan of the tenant's rows per lookup while
// a flood of automatic cases fills them, 4.5-11 ms a statement in the fourteenth session's
// measurement); the young-table check analyses them once they hold rows, and the cached plans
// are replaced by primary-key lookups.
func TestYoungSideTablesAnalysed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, ten, conn := youngDatabase(ctx, t)
	_, err := conn.Exec(ctx, "prepare em(uuid, uuid) as select id, status from emails where tenant_id = $1 and id = $2")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "prepare wd(uuid, text) as select id, status from webhook_deliveries where tenant_id = $1 and id = $2")
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "prepare ca(uuid, text) as select id, status from cases where tenant_id = $1 and id = $2")
	require.NoError(t, err)
	plan := func(stmt, id string) string {
		t.Helper()
		rows, err := conn.Query(ctx, "explain execute "+stmt+"($1, $2)", pgx.QueryExecModeSimpleProtocol, string(ten.ID), id)
		require.NoError(t, err)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return strings.Join(lines, "\n")
	}
	const emailID = "00000000-0000-0000-0000-000000000001"
	// The generic plans are made now, on the empty tables, and cached.
	require.NotContains(t, plan("em", emailID), "emails_pkey", "the plan made on the empty table")
	require.NotContains(t, plan("wd", "whd_1"), "webhook_deliveries_pkey", "the plan made on the empty table")
	require.NotContains(t, plan("ca", "case_1"), "cases_pkey", "the plan made on the empty table")

	tx, err := db.Pool.Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID))
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `insert into emails (id, tenant_id, kind, to_address, subject, text_body)
		select gen_random_uuid(), $1, 'CASE_CREATED', 'officer@bank.test', 'Case', 'A case' from generate_series(1, 5000)`, string(ten.ID))
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `insert into webhook_deliveries (id, tenant_id, event_id, event, url, payload, status, created_at)
		select 'whd_' || g, $1, 'evt_' || g, 'case.created', 'https://bank.test/hook', '{}', 'PENDING', now()
		from generate_series(1, 5000) g`, string(ten.ID))
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status, created_at, updated_at)
		select 'case_' || g, $1, 'CASE-2026-' || g, 'SUSPICIOUS_TRANSACTION', 'HIGH', 'Case', 'A case', 'OPEN', now(), now()
		from generate_series(1, 5000) g`, string(ten.ID))
	require.NoError(t, err)
	// The inserting session reports its counts to PostgreSQL's statistics when it goes idle, at
	// most once a second and otherwise up to 10 s later; the check reads them. This flushes them
	// at the commit.
	_, err = tx.Exec(ctx, "select pg_stat_force_next_flush()")
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx))
	var live int64
	require.NoError(t, conn.QueryRow(ctx, `select coalesce(min(n_live_tup), 0) from pg_stat_all_tables
		where relname in ('emails', 'webhook_deliveries', 'cases')`).Scan(&live))
	require.GreaterOrEqual(t, live, int64(5000), "the rows PostgreSQL counts live")
	require.NotContains(t, plan("em", emailID), "emails_pkey", "still the cached plan")

	screenstore.AnalyzeIfYoungForTest(db, 1)
	require.Contains(t, plan("em", emailID), "emails_pkey", "after the analysis an email is found by its key")
	require.Contains(t, plan("wd", "whd_1"), "webhook_deliveries_pkey", "after the analysis a delivery is found by its key")
	require.Contains(t, plan("ca", "case_1"), "cases_pkey", "after the analysis a case is found by its key")
	var analysed int
	require.NoError(t, conn.QueryRow(ctx, `select count(*) from pg_stat_all_tables where relname in ('emails', 'webhook_deliveries', 'cases')
		and last_analyze is not null`).Scan(&analysed))
	require.Equal(t, 3, analysed)
}

// TestUnanalysedTableAnalysedOnce: a transactions table with a row estimate but no analysis on
// record (a restored database) is analysed by the young-table check, at the server's statistics
// target; once it has been analysed, a check does not analyse it again. (A first version asked
// pg_stats for the statistics, which row-level security hides from the service's roles: every
// check of every process analysed the table again, at the small sample.)
func TestUnanalysedTableAnalysedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, ten, conn := youngDatabase(ctx, t)
	require.NoError(t, asTenant(ctx, db, ten.ID, func(tx pgx.Tx) error {
		return seedTransactions(ctx, tx, ten.ID, `'restored-' || g, 10, lpad((3000000000 + g % 200)::text, 10, '0'),
			now() - g * interval '1 second' from generate_series(1, 3000) g`)
	}))
	// As a restore leaves it: a row estimate (VACUUM sets it, as pg_restore's index builds do), no analysis.
	_, err := conn.Exec(ctx, "vacuum transactions")
	require.NoError(t, err)
	tables, full, err := screenstore.YoungTablesForTest(db, ctx, 500)
	require.NoError(t, err)
	require.Equal(t, []string{"transactions"}, tables, "a table without an analysis, its estimate above twice 500")
	require.True(t, full, "analysed at the server's target")

	_, err = conn.Exec(ctx, "analyze transactions")
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		var analysed bool
		require.NoError(t, db.Pool.QueryRow(ctx, `select last_analyze is not null from pg_stat_all_tables
			where relid = 'transactions'::regclass`).Scan(&analysed))
		return analysed
	}, 10*time.Second, 50*time.Millisecond)
	tables, _, err = screenstore.YoungTablesForTest(db, ctx, 500)
	require.NoError(t, err)
	require.Empty(t, tables, "an analysed table is not analysed again")
}

// youngDatabase is a new database with a tenant, the service's pool on it, and a session of the
// login role whose prepared statements are always planned generically, as the pool's held
// connections' statements are once cached.
func youngDatabase(ctx context.Context, t *testing.T) (*postgres.DB, pgtest.TenantFixture, *pgx.Conn) {
	t.Helper()
	_, url := pgtest.Fresh(t)
	db, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 4, Logger: slog.New(slog.DiscardHandler), CredentialsKey: pgtest.CredentialsKey})
	require.NoError(t, err)
	t.Cleanup(db.Close)
	ten := pgtest.Tenant(ctx, t, db)
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close(ctx) })
	_, err = conn.Exec(ctx, "set plan_cache_mode = force_generic_plan")
	require.NoError(t, err)
	return db, ten, conn
}

// TestStatementsNotJITCompiled: PostgreSQL compiles a plan whose estimated cost passes
// jit_above_cost again on every execution, and the prefetch's generic plan passed it with stale
// statistics (2.3 to 3.0 s of compilation per screening; docs/guide/operations.md "PostgreSQL's JIT").
// The database here lowers the threshold to zero so that every statement qualifies: a session of
// its own compiles the prefetch (the check that the server can JIT at all), the service's pool
// does not.
func TestStatementsNotJITCompiled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, url := pgtest.Fresh(t)
	admin, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = admin.Close(ctx) })
	var available bool
	require.NoError(t, admin.QueryRow(ctx, "select pg_jit_available()").Scan(&available))
	if !available {
		t.Skip("this PostgreSQL server has no JIT (no LLVM): nothing to turn off")
	}
	_, err = admin.Exec(ctx, "do $$ begin execute format('alter database %I set jit_above_cost = 0', current_database()); end $$")
	require.NoError(t, err)

	explain := func(c *pgx.Conn) string {
		t.Helper()
		_, err := c.Exec(ctx, "prepare pf("+screenstore.PrefetchParamTypes+") as "+screenstore.PrefetchSQL)
		require.NoError(t, err)
		args := screenstore.PrefetchArgsForTest("00000000-0000-0000-0000-000000000001", []string{"x"}, []string{"3000000001"},
			[]time.Time{time.Now()}, [][]byte{nil})
		return strings.Join(explainPrefetch(ctx, t, c, "(analyze)", args), "\n")
	}
	own, err := pgx.Connect(ctx, url) // a session of its own, after the database's setting
	require.NoError(t, err)
	t.Cleanup(func() { _ = own.Close(ctx) })
	_, err = own.Exec(ctx, "set jit = on") // PostgreSQL's default, whatever this server's
	require.NoError(t, err)
	require.Contains(t, explain(own), "JIT:", "a session with the server's defaults compiles the prefetch")

	db, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 2, Logger: slog.New(slog.DiscardHandler), CredentialsKey: pgtest.CredentialsKey})
	require.NoError(t, err)
	t.Cleanup(db.Close)
	pc, err := db.Pool.Acquire(ctx)
	require.NoError(t, err)
	defer pc.Release()
	require.NotContains(t, explain(pc.Conn()), "JIT:", "the service's sessions compile nothing")
}

// explainPrefetch returns the lines of EXPLAIN opts (such as "(analyze)", or "") of the
// prefetch statement prepared on c as pf, executed with args.
func explainPrefetch(ctx context.Context, t testing.TB, c *pgx.Conn, opts string, args []any) []string {
	t.Helper()
	params := make([]string, len(args))
	for i := range params {
		params[i] = fmt.Sprintf("$%d", i+1)
	}
	rows, err := c.Query(ctx, "explain "+opts+" execute pf("+strings.Join(params, ", ")+")",
		append([]any{pgx.QueryExecModeSimpleProtocol}, args...)...)
	require.NoError(t, err)
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return lines
}

// TestWideColumnsNotAnalysed: an analysis of the hot tables leaves out the wide columns that no
// statement filters on (migration 0024; autovacuum analyses a young, growing transactions table
// about once a minute, at 0.7-0.9 s of a core under load). The columns that statements filter on
// are analysed as before.
func TestWideColumnsNotAnalysed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, ten, conn := youngDatabase(ctx, t)
	_, err := conn.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
		engine_verdicts, metadata, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'wide-' || g, 'TRANSFER', 'MOBILE_APP', 10, 'NGN', 10, lpad((3000000000 + g % 200)::text, 10, '0'),
		  'A B', now() - g * interval '1 second', 'vrd', 'REVIEW', 'MEDIUM', 50, '{CREATE_CASE}',
		  jsonb_build_array(jsonb_build_object('category', 'Regulatory Compliance', 'score', g % 100)),
		  jsonb_build_object('channelRef', g), 1, now(), now()
		from generate_series(1, 500) g`, string(ten.ID))
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `insert into audit_events (id, tenant_id, actor_type, action, resource_type, resource_id, before, after, created_at)
		select gen_random_uuid(), $1, 'SYSTEM', 'case.created', 'case', 'case_' || g, jsonb_build_object('n', g), jsonb_build_object('n', g + 1), now()
		from generate_series(1, 200) g`, string(ten.ID))
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "analyze transactions, audit_events, case_events, cases")
	require.NoError(t, err)

	rows, err := conn.Query(ctx, `select tablename || '.' || attname from pg_stats
		where schemaname = 'public' and tablename in ('transactions', 'audit_events') order by 1`)
	require.NoError(t, err)
	analysed, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	for _, col := range []string{"transactions.engine_verdicts", "transactions.metadata", "transactions.actions",
		"audit_events.before", "audit_events.after"} {
		require.NotContains(t, analysed, col)
	}
	for _, col := range []string{"transactions.tenant_id", "transactions.sender_account_number", "transactions.outcome",
		"transactions.transaction_timestamp", "audit_events.action", "audit_events.resource_id"} {
		require.Contains(t, analysed, col)
	}
	var notAnalysed []string
	require.NoError(t, conn.QueryRow(ctx, `select array_agg(c.relname || '.' || a.attname order by 1) from pg_attribute a
		join pg_class c on c.oid = a.attrelid where c.relname in ('case_events', 'cases') and a.attnum > 0 and a.attstattarget = 0`).Scan(&notAnalysed))
	require.ElementsMatch(t, []string{"case_events.metadata", "cases.description"}, notAnalysed)
}
