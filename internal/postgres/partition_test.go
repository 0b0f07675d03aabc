package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestPartitionMigrationConvertsInPlace: migrations 0043 and 0044 convert a populated database
// (rows in five months and one from 1999, audit rows in three months) into monthly partitions:
// every row in its month's partition (1999's in the catch-all before the first month,
// migration 0050), every externalId in transaction_keys, the per-account aggregates unchanged
// (not counted again) and still exact for a row stored after the conversion across a month
// boundary, a duplicate externalId refused under the old constraint's name, the catch-alls'
// rows moved into a month created later below or above the range (and the catch-all shrunk),
// a month 25 years away refused, each partition's row-level security and append-only grants,
// the oldest month's drop giving its range to the catch-all, the screening prefetch, the
// transaction list, the reports' and the back-tests' reads pruned to the months they bound,
// and the unbounded newest-first list an ordered Append that stops at the newest partition
// with rows (EXPLAIN).
func TestPartitionMigrationConvertsInPlace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.Empty(t)
	require.NoError(t, postgres.MigrateUpToForTest(ctx, url, 42))
	conn := adminConn(ctx, t, url)
	tenant, other := uuid.NewString(), uuid.NewString()
	for _, id := range []string{tenant, other} {
		_, err := conn.Exec(ctx, `insert into tenants (id, name, slug) values ($1, 'Old Bank', $2)`, id, "old-"+id[:8])
		require.NoError(t, err)
	}
	month := func(back int) time.Time {
		n := time.Now().UTC()
		return time.Date(n.Year(), n.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -back, 0)
	}
	// Account 2000000001 has rows on both sides of each of the last three month boundaries.
	var stamps []time.Time
	for back := 4; back >= 0; back-- {
		m := month(back)
		stamps = append(stamps, m.Add(10*time.Minute), m.Add(3*24*time.Hour))
		if back > 0 {
			stamps = append(stamps, m.AddDate(0, 1, 0).Add(-5*time.Minute))
		}
	}
	old := time.Date(1999, 6, 15, 12, 0, 0, 0, time.UTC)
	stamps = append(stamps, old)
	insert := func(c interface {
		Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
	}, ten, ext string, ts time.Time, amount string,
	) error {
		_, err := c.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
			sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
			engine_verdicts, total_latency_ms, processed_at, created_at)
			values (gen_random_uuid(), $1, $2, 'TRANSFER', 'MOBILE_APP', $4::numeric, 'NGN', $4::numeric, '2000000001', 'A',
			  $3, 'v', 'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now())`, ten, ext, ts, amount)
		return err
	}
	for i, ts := range stamps {
		require.NoError(t, insert(conn, tenant, fmt.Sprintf("old-%d", i), ts, fmt.Sprintf("%d.5", 100+i)))
	}
	require.NoError(t, insert(conn, other, "old-0", month(1).Add(time.Hour), "7"))
	_, err := conn.Exec(ctx, `insert into audit_events (id, tenant_id, actor_type, action, resource_type, resource_id, created_at)
		select gen_random_uuid(), $1, 'SYSTEM', 'case.created', 'case', 'case_' || g, $2::timestamptz - g * interval '20 days'
		from generate_series(0, 5) g`, tenant, month(0).Add(time.Hour))
	require.NoError(t, err)
	grains := func() string {
		var s string
		require.NoError(t, conn.QueryRow(ctx, `select coalesce(string_agg(format('%s %s %s %s %s %s', tenant_id, account, grain, bucket, n, sum_ngn),
			E'\n' order by tenant_id, account, grain, bucket), '') from account_activity_grains`).Scan(&s))
		return s
	}
	var versions string
	versionsOf := func() string {
		require.NoError(t, conn.QueryRow(ctx, `select string_agg(format('%s %s %s', tenant_id, account, version), ',' order by 1)
			from account_versions`).Scan(&versions))
		return versions
	}
	grainsBefore, versionsBefore := grains(), versionsOf()
	require.NotEmpty(t, grainsBefore)

	require.NoError(t, postgres.Migrate(ctx, url, slog.New(slog.DiscardHandler)))

	// Every row in its month's partition; 1999's in the default one (more than ten years back).
	rows, err := conn.Query(ctx, `select tableoid::regclass::text, transaction_timestamp from transactions where tenant_id = $1`, tenant)
	require.NoError(t, err)
	type placed struct {
		Part string
		TS   time.Time
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[placed])
	require.NoError(t, err)
	require.Len(t, got, len(stamps))
	for _, p := range got {
		want := "transactions_p" + p.TS.UTC().Format("200601")
		if p.TS.Equal(old) {
			want = "transactions_before"
		}
		require.Equal(t, want, p.Part, "the row of %s", p.TS)
	}
	var n int
	require.NoError(t, conn.QueryRow(ctx, `select count(*) from audit_events a where a.tableoid::regclass::text =
		'audit_events_p' || to_char(a.created_at at time zone 'UTC', 'YYYYMM')`).Scan(&n))
	require.Equal(t, 6, n, "every audit row in its month's partition")
	require.NoError(t, conn.QueryRow(ctx, `select count(*) from transaction_keys k join transactions t
		on t.id = k.transaction_id and t.transaction_timestamp = k.transaction_timestamp and t.external_id = k.external_id`).Scan(&n))
	require.Equal(t, len(stamps)+1, n, "a key for every row")
	require.Equal(t, grainsBefore, grains(), "the aggregates are not counted again")
	require.Equal(t, versionsBefore, versionsOf())
	// The partitions the service keeps: this month and three ahead.
	parts, err := postgres.NewPartitionStore(openDB(ctx, t, url)).ListPartitions(ctx, "transactions")
	require.NoError(t, err)
	require.Equal(t, month(4), parts[0].From)
	require.Equal(t, month(-4), parts[len(parts)-1].To)
	require.Len(t, parts, 8)

	// A duplicate externalId is refused under the old constraint's name, in another month too.
	err = insert(conn, tenant, "old-0", month(0).Add(2*time.Hour), "1")
	var pgErr *pgconn.PgError
	require.True(t, errors.As(err, &pgErr), "%v", err)
	require.Equal(t, "23505", pgErr.Code)
	require.Equal(t, "transactions_tenant_external_id_key", pgErr.ConstraintName)
	// The same externalId of another tenant is not a duplicate.
	require.NoError(t, insert(conn, other, "old-1", month(0).Add(2*time.Hour), "1"))

	// A row stored after the conversion, just after a month boundary, counts once in the
	// aggregates: its minute, hour and day buckets grow by exactly it.
	at := month(0).Add(30 * time.Second)
	bucket := func(grain string) (int64, string) {
		var cnt int64
		var sum string
		require.NoError(t, conn.QueryRow(ctx, `select coalesce(sum(n), 0)::int8, coalesce(sum(sum_ngn), 0)::text from account_activity_grains
			where tenant_id = $1 and account = '2000000001' and grain = $2 and bucket = date_trunc($2, $3::timestamptz, 'UTC')`,
			tenant, grain, at).Scan(&cnt, &sum))
		return cnt, sum
	}
	before := map[string][2]any{}
	for _, g := range []string{"minute", "hour", "day"} {
		c, s := bucket(g)
		before[g] = [2]any{c, s}
	}
	require.NoError(t, insert(conn, tenant, "new-1", at, "0.25"))
	for _, g := range []string{"minute", "hour", "day"} {
		c, s := bucket(g)
		require.Equal(t, before[g][0].(int64)+1, c, "%s count", g)
		require.True(t, decimal.RequireFromString(before[g][1].(string)).Add(decimal.RequireFromString("0.25")).Equal(decimal.RequireFromString(s)),
			"%s sum %s", g, s)
	}
	// And the raw rows on both sides of the boundary equal the day grains (exact).
	var raw, grained string
	require.NoError(t, conn.QueryRow(ctx, `select count(*) || ' ' || sum(amount_ngn) from transactions
		where tenant_id = $1 and sender_account_number = '2000000001' and transaction_timestamp >= $2 and transaction_timestamp < $3`,
		tenant, month(1).AddDate(0, 1, -1), month(0).AddDate(0, 0, 1)).Scan(&raw))
	require.NoError(t, conn.QueryRow(ctx, `select sum(n) || ' ' || sum(sum_ngn) from account_activity_grains
		where tenant_id = $1 and account = '2000000001' and grain = 'day' and bucket >= $2 and bucket < $3`,
		tenant, month(1).AddDate(0, 1, -1), month(0).AddDate(0, 0, 1)).Scan(&grained))
	require.Equal(t, raw, grained)

	// No default partition (migration 0050): two catch-alls around contiguous months.
	bound := func(p string) string {
		var b string
		_, err := conn.Exec(ctx, `set timezone = 'UTC'`)
		require.NoError(t, err)
		require.NoError(t, conn.QueryRow(ctx, `select pg_get_expr(relpartbound, oid) from pg_class where relname = $1`, p).Scan(&b))
		return b
	}
	require.Zero(t, func() int {
		require.NoError(t, conn.QueryRow(ctx, `select count(*) from pg_class where relname in ('transactions_default', 'audit_events_default')`).Scan(&n))
		return n
	}())
	require.Contains(t, bound("transactions_before"), "FROM (MINVALUE) TO ('"+month(4).Format("2006-01-02"))
	require.Contains(t, bound("transactions_after"), "FROM ('"+month(-4).Format("2006-01-02"))
	// A month created later below the first, or above the last, takes the catch-all's rows of
	// its month, and the catch-all shrinks.
	db := openDB(ctx, t, url)
	ps := postgres.NewPartitionStore(db)
	early, late := month(5).Add(time.Hour), month(-4).Add(time.Hour)
	require.NoError(t, insert(conn, other, "early", early, "1"))
	require.NoError(t, insert(conn, other, "late", late, "1"))
	where := func(ts time.Time) string {
		var part string
		require.NoError(t, conn.QueryRow(ctx, `select tableoid::regclass::text from transactions where transaction_timestamp = $1`, ts).Scan(&part))
		return part
	}
	require.Equal(t, "transactions_before", where(early))
	require.Equal(t, "transactions_after", where(late))
	created, err := ps.EnsurePartitions(ctx, month(5), month(-5))
	require.NoError(t, err)
	p5, p4 := "transactions_p"+month(5).Format("200601"), "transactions_p"+month(-4).Format("200601")
	require.Equal(t, []string{p5, p4}, created[:2])
	require.Contains(t, created, "audit_events_p"+month(5).Format("200601"))
	require.Contains(t, created, "audit_events_p"+month(-4).Format("200601"))
	require.Equal(t, p5, where(early))
	require.Equal(t, p4, where(late))
	require.Equal(t, "transactions_before", where(old))
	require.Contains(t, bound("transactions_before"), "TO ('"+month(5).Format("2006-01-02"))
	require.Contains(t, bound("transactions_after"), "FROM ('"+month(-5).Format("2006-01-02"))
	again, err := ps.EnsurePartitions(ctx, month(5), month(-5))
	require.NoError(t, err)
	require.Empty(t, again, "idempotent")
	// 1999 is more than 25 years below the first month: every month between would be created.
	_, err = ps.EnsurePartitions(ctx, old, old.AddDate(0, 1, 0))
	require.ErrorAs(t, err, &pgErr)
	require.Equal(t, "22023", pgErr.Code)
	// The function refuses a table that is not partitioned by month.
	_, err = db.Pool.Exec(ctx, `select ensure_monthly_partitions('cases', '2026-01-01', '2026-02-01')`)
	require.ErrorAs(t, err, &pgErr)
	require.Equal(t, "22023", pgErr.Code)

	// Each partition: row-level security of its own, and the application may only read and insert.
	for _, p := range []string{"transactions_p" + month(1).Format("200601"), p5, "transactions_before", "transactions_after",
		"audit_events_p" + month(0).Format("200601")} {
		tx := pgtest.AsApp(ctx, t, conn, "00000000-0000-0000-0000-000000000000")
		require.NoError(t, tx.QueryRow(ctx, "select count(*) from "+p).Scan(&n), p)
		require.Zero(t, n, "another tenant's rows through %s", p)
		_, err = tx.Exec(ctx, "savepoint s")
		require.NoError(t, err)
		_, err = tx.Exec(ctx, "update "+p+" set tenant_id = tenant_id where false")
		require.ErrorAs(t, err, &pgErr, p)
		require.Equal(t, "42501", pgErr.Code, "update on %s", p)
		_, err = tx.Exec(ctx, "rollback to savepoint s")
		require.NoError(t, err)
		_, err = tx.Exec(ctx, "delete from "+p+" where false")
		require.ErrorAs(t, err, &pgErr, p)
		require.Equal(t, "42501", pgErr.Code, "delete on %s", p)
		require.NoError(t, tx.Rollback(ctx))
	}

	// Dropping: refused for the current month and later, done for an older one with its keys.
	require.Equal(t, apperr.Validation, apperr.CodeOf(ps.DetachAndDrop(ctx, "transactions", month(0))))
	require.Equal(t, apperr.Validation, apperr.CodeOf(ps.DetachAndDrop(ctx, "transactions", month(-1))))
	require.Equal(t, apperr.NotFound, apperr.CodeOf(ps.DetachAndDrop(ctx, "transactions", time.Date(2001, 1, 5, 0, 0, 0, 0, time.UTC))))
	require.Equal(t, apperr.NotFound, apperr.CodeOf(ps.DetachAndDrop(ctx, "transactions", old)), "1999 is in the catch-all")
	require.NoError(t, ps.DetachAndDrop(ctx, "transactions", early))
	require.NoError(t, conn.QueryRow(ctx, `select count(*) from transaction_keys where transaction_timestamp = $1`, early).Scan(&n))
	require.Zero(t, n, "the dropped month's keys")
	require.NoError(t, conn.QueryRow(ctx, `select count(*) from transactions where tenant_id = $1`, tenant).Scan(&n))
	require.Equal(t, len(stamps)+1, n, "the other months' rows and the new one")
	// The oldest month's range went to the catch-all: a late row of it has a partition.
	require.Contains(t, bound("transactions_before"), "TO ('"+month(4).Format("2006-01-02"))
	require.NoError(t, insert(conn, other, "early-again", early, "1"))
	require.Equal(t, "transactions_before", where(early))

	// Pruning.
	_, err = conn.Exec(ctx, `analyze transactions`)
	require.NoError(t, err)
	app := func() pgx.Tx {
		tx := pgtest.AsApp(ctx, t, conn, tenancy.TenantID(tenant))
		_, err := tx.Exec(ctx, "set local plan_cache_mode = force_generic_plan")
		require.NoError(t, err)
		return tx
	}
	explain := func(tx pgx.Tx, sql string, args ...any) string {
		t.Helper()
		rows, err := tx.Query(ctx, "explain (analyze, costs off, timing off, summary off) "+sql, args...)
		require.NoError(t, err)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return strings.Join(lines, "\n")
	}
	tx := app()
	_, err = tx.Exec(ctx, "prepare pf("+screenstore.PrefetchParamTypes+") as "+screenstore.PrefetchSQL)
	require.NoError(t, err)
	args := screenstore.PrefetchArgsForTest(tenant, []string{"x"}, []string{"2000000001"}, []time.Time{month(0).Add(5 * time.Minute)}, [][]byte{nil})
	params := make([]string, len(args))
	for i := range params {
		params[i] = fmt.Sprintf("$%d", i+1)
	}
	plan := explain(tx, "execute pf("+strings.Join(params, ", ")+")", append([]any{pgx.QueryExecModeSimpleProtocol}, args...)...)
	// The generic plan holds every partition; the raw pieces of the windows (their edges: the
	// partial minutes at the screening's instant and at the start of the 24-hour and 60-minute
	// windows, the 90 days' first day) prune at execution to the months those edges fall in: at
	// five minutes into this month, this month's and last month's (and the one 90 days back);
	// the months between and after are never scanned. (The last-activity probe, run only for a
	// screening older than the account's last activity, has no lower bound: every partition up
	// to the screening's month.)
	for _, m := range []int{2, -1, -2, -3} {
		scan := regexp.MustCompile(`Scan (using \S+ )?on transactions_p` + month(m).Format("200601") + ` t_\d+ \(([^)]*)\)`)
		found := scan.FindAllStringSubmatch(plan, -1)
		require.NotEmpty(t, found, "the generic plan holds %s:\n%s", month(m).Format("200601"), plan)
		for _, f := range found {
			require.Equal(t, "never executed", f[2], "the prefetch scanned %s:\n%s", month(m).Format("200601"), plan)
		}
	}
	require.Regexp(t, `Scan (using \S+ )?on transactions_p`+month(1).Format("200601")+` t_\d+ \(actual`, plan, "last month's raw minutes")

	// The unbounded newest-first list (no period) under its LIMIT: an ordered Append (no default
	// partition, migration 0050) that reads the newest partitions first and stops at the first
	// with the tenant's rows (this month's); the older ones are never executed.
	unbounded := explain(tx, `select id from transactions where tenant_id = $1 order by transaction_timestamp desc, id desc limit 1`, tenant)
	require.NotContains(t, unbounded, "Merge Append", unbounded)
	require.Regexp(t, `on transactions_p`+month(0).Format("200601")+` \S+ \(actual rows=1`, unbounded)
	for _, p := range []string{"transactions_p" + month(1).Format("200601"), "transactions_p" + month(4).Format("200601"), "transactions_before"} {
		found := false
		for _, line := range strings.Split(unbounded, "\n") {
			if strings.Contains(line, "on "+p+" ") {
				found = true
				require.Contains(t, line, "never executed", "the unbounded list read %s:\n%s", p, unbounded)
			}
		}
		require.True(t, found, "%s in the plan:\n%s", p, unbounded)
	}

	// The transaction list with a period, the reports' and the back-tests' reads: no partition
	// outside the period is scanned (planned away, or never executed).
	from, to := month(1).Add(24*time.Hour), month(1).Add(48*time.Hour)
	for name, q := range map[string]string{
		"list":     `select id from transactions where tenant_id = $1 and transaction_timestamp >= $2 and transaction_timestamp < $3 order by transaction_timestamp desc, id desc limit 50`,
		"report":   postgres.ReportTxSQLForTest + ` where t.tenant_id = $1 and t.transaction_timestamp >= $2 and t.transaction_timestamp < $3`,
		"backtest": postgres.BacktestQueryForTest,
	} {
		a := []any{tenant, from, to}
		if name == "backtest" {
			a = append(a, 100)
		}
		p := explain(tx, q, a...)
		require.Regexp(t, `on transactions_p`+month(1).Format("200601")+` \S+ \(actual`, p, name)
		for _, m := range []int{0, -1, -2} {
			for _, line := range strings.Split(p, "\n") {
				if strings.Contains(line, "on transactions_p"+month(m).Format("200601")+" ") {
					require.Contains(t, line, "never executed", "%s reads a month after its period:\n%s", name, p)
				}
			}
		}
		if name != "backtest" { // the back-test's last-activity probe reads back from each row
			require.NotRegexp(t, `on transactions_p`+month(3).Format("200601")+` \S+ \(actual`, p, "%s reads a month before its period:\n%s", name, p)
		}
	}
}

// openDB is the service's handle on the database at url, closed when t ends.
func openDB(ctx context.Context, t *testing.T, url string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 2, Logger: slog.New(slog.DiscardHandler), CredentialsKey: pgtest.CredentialsKey})
	require.NoError(t, err)
	t.Cleanup(db.Close)
	return db
}
