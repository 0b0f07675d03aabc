package screenstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestScreeningPrefetchProbesByKey checks that the batched read reaches a tenant's account
// versions, stored transactions and KYC applications by key whatever the tenant's size and
// whatever the planner's statistics. The tenant here has 2,000 accounts and no statistics yet
// (the test's role cannot analyse; a new install, a restored database and the first minute of
// a new tenant are in that state until autovacuum's first analysis). The generic plan the
// read's connection keeps then read every one of the tenant's account versions, and every one
// of its transactions for the externalId check, on each read: 4.8 ms a read for such a tenant
// instead of 0.45, growing with the tenant (the measurement log of docs/performance.md#history, twentieth
// session). The test counts the rows the reads fetch, not their time, in a database of its own:
// the table statistics it reads are the database's, and the package's other tests, running
// alongside on the shared one, read the same tables (CI once counted 86 rows for 40). Its
// accounts' activity does not reach the raw ranges at their windows' edges, whose probes
// depend on statistics: TestScreeningPrefetchRawRangesByKey.
func TestScreeningPrefetchProbesByKey(t *testing.T) {
	t.Parallel()
	ctx, db, _, st, tenant := probeTenant(t)
	const accounts, reads = 2000, 20
	now := time.Now().UTC().Truncate(time.Second)
	require.NoError(t, asTenant(ctx, db, tenant, func(tx pgx.Tx) error {
		if err := seedTransactions(ctx, tx, tenant, `'seed-' || g, 100, lpad(g::text, 10, '0'), $3::timestamptz - g * interval '1 second'
			from generate_series(1, $2) g`, accounts, now); err != nil {
			return err
		}
		// One KYC application per account, sealed (only the BVN's keyed hash is kept).
		_, err := tx.Exec(ctx, `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, bvn_hash, tier, status)
			select 'kyc_probe_' || g, $1, 'INDIVIDUAL', 'A', 'B', sha256(g::text::bytea), 'TIER_1', 'APPROVED'
			from generate_series(1, $2) g`, string(tenant), accounts)
		return err
	}))
	read := func() (versions, txs, kyc tableReads) { return prefetchTableReads(ctx, t, db) }
	v0, t0, k0 := read()
	for i := range reads {
		tx := &screening.Transaction{TenantID: tenant, ExternalID: fmt.Sprintf("new-%d", i),
			SenderAccountNumber: fmt.Sprintf("%010d", 1+i*97%accounts), SenderBVN: fmt.Sprintf("222%08d", i), Timestamp: now.Add(time.Minute)}
		pre, err := st.Prefetch(ctx, tx, true, admission.PaceOf(ctx))
		require.NoError(t, err)
		require.Nil(t, pre.Existing)
		require.Equal(t, 1, pre.History.Count24h, "the account's one stored transaction")
	}
	// The reader's backend reports its table statistics when it exits: stop the store, which
	// closes its connections (an idle backend would report them only up to 10 s later).
	st.Close()
	var v1, t1, k1 tableReads
	require.Eventually(t, func() bool {
		v1, t1, k1 = read()
		return v1.scans-v0.scans >= reads
	}, 10*time.Second, 100*time.Millisecond, "the reads' statistics were not reported")
	// A key probe reads the account's one version row (and the externalId check none): a few
	// rows a read, where reading the tenant's tables whole read 2,000 of each.
	require.LessOrEqual(t, v1.tuples-v0.tuples, int64(2*reads), "account_versions rows read by %d reads", reads)
	require.LessOrEqual(t, t1.tuples-t0.tuples, int64(2*reads), "transactions rows read by %d reads", reads)
	require.GreaterOrEqual(t, k1.scans-k0.scans, int64(reads), "every read looked the BVN up")
	require.LessOrEqual(t, k1.tuples-k0.tuples, int64(2*reads), "kyc_applications rows read by %d reads", reads)
}

type tableReads struct{ scans, tuples int64 }

// prefetchTableReads returns what the database's sessions have read from the batched read's
// tables so far, as PostgreSQL's statistics have it (sessions report when they go idle or exit).
func prefetchTableReads(ctx context.Context, t *testing.T, db *postgres.DB) (versions, txs, kyc tableReads) {
	t.Helper()
	rows, err := db.Pool.Query(ctx, `select relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0),
		coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) from pg_stat_user_tables
		where relname in ('account_versions', 'transactions', 'kyc_applications')`)
	require.NoError(t, err)
	for rows.Next() {
		var name string
		var r tableReads
		require.NoError(t, rows.Scan(&name, &r.scans, &r.tuples))
		switch name {
		case "account_versions":
			versions = r
		case "transactions":
			txs = r
		default:
			kyc = r
		}
	}
	require.NoError(t, rows.Err())
	return versions, txs, kyc
}

// TestScreeningPrefetchRawRangesByKey checks that the batched read reaches the raw rows at the
// edges of an account's windows through the account's index in a restored database: a
// database whose transactions table has a row estimate (pg_restore's index builds set it; the
// VACUUM here does the same) but no statistics of its columns until autovacuum's first
// analysis. There the read's generic plan took the tenant's time index with a filter on the
// account for those ranges, reading every transaction of the tenant in that slice of time on
// each read (2,000 rows a read here, 63 ms a read at 60,000 accounts); the young-table check
// that the store runs after its first 500 screenings now analyses a table without statistics,
// and the plan made after it probes the account. (Before any analysis the tie of two one-row
// estimates goes to the smaller index whatever the read's settings, so this is the check that
// ends it; a new, empty table is analysed at the same check for its own reason.)
func TestScreeningPrefetchRawRangesByKey(t *testing.T) {
	t.Parallel()
	ctx, db, url, st, tenant := probeTenant(t)
	const accounts, reads = 2000, 20
	now := time.Now().UTC().Truncate(time.Second)
	// The screenings' instant, half a minute into a minute, so that the raw ranges are not empty:
	// every account has a transaction in the partial minute that starts its 60-minute window
	// ([ts - 60 minutes, the next minute)), one five seconds after ts (stored out of order, so
	// the raw rows [ts's minute, ts] are read instead of its bucket), and one in between.
	ts := now.Truncate(time.Minute).Add(2*time.Minute + 30*time.Second)
	require.NoError(t, asTenant(ctx, db, tenant, func(tx pgx.Tx) error {
		return seedTransactions(ctx, tx, tenant, `k.kind || '-' || g, 100, lpad(g::text, 10, '0'), k.at + k.step * g
			from generate_series(1, $2) g, (values ('seed', $3::timestamptz, interval '-1 second'),
			  ('edge', $4::timestamptz - interval '60 minutes' + interval '10 seconds', interval '0'),
			  ('late', $4::timestamptz + interval '5 seconds', interval '0')) k(kind, at, step)`, accounts, now, ts)
	}))
	_, err := pgtest.AdminOf(ctx, t, url).Exec(ctx, "vacuum transactions")
	require.NoError(t, err)
	screenstore.AnalyzeIfYoungForTest(db, 500)

	v0, t0, _ := prefetchTableReads(ctx, t, db)
	for i := range reads {
		tx := &screening.Transaction{TenantID: tenant, ExternalID: fmt.Sprintf("new-%d", i),
			SenderAccountNumber: fmt.Sprintf("%010d", 1+i*97%accounts), Timestamp: ts}
		pre, err := st.Prefetch(ctx, tx, true, admission.PaceOf(ctx))
		require.NoError(t, err)
		require.Equal(t, 2, pre.History.Count24h, "the account's two transactions before ts")
		require.Equal(t, 2, pre.History.Count60m, "the account's two transactions before ts")
	}
	st.Close()
	var v1, t1 tableReads
	require.Eventually(t, func() bool {
		v1, t1, _ = prefetchTableReads(ctx, t, db)
		return v1.scans-v0.scans >= reads
	}, 10*time.Second, 100*time.Millisecond, "the reads' statistics were not reported")
	// Per read: the transaction at the window's edge, none in ts's minute up to ts, and the last
	// activity's probe; where the tenant's time index read 2,000 rows for the edge alone.
	require.LessOrEqual(t, t1.tuples-t0.tuples, int64(3*reads), "transactions rows read by %d reads", reads)
}

// probeTenant is a screening store on a database of its own, with its admin URL and a tenant:
// the probing tests count rows in the database's table statistics, which the package's other
// tests would add to on the shared one.
func probeTenant(t *testing.T) (context.Context, *postgres.DB, string, *screenstore.ScreeningStore, tenancy.TenantID) {
	t.Helper()
	ctx, db, url, st := freshScreeningStore(t, screenstore.ScreeningStoreOptions{})
	return ctx, db, url, st, pgtest.Tenant(ctx, t, db).ID
}

// asTenant runs fn in a transaction of the service's role acting for tenant.
func asTenant(ctx context.Context, db *postgres.DB, tenant tenancy.TenantID, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			return err
		}
		return fn(tx)
	})
}

// seedTransactions stores approved NGN transfers of tenant ($1), one per row of rows: a select
// list's tail of external id, NGN amount, sender account and timestamp, then its FROM clause,
// with args as $2 on. The other columns are constants, and processed_at and created_at now().
func seedTransactions(ctx context.Context, tx pgx.Tx, tenant tenancy.TenantID, rows string, args ...any) error {
	_, err := tx.Exec(ctx, `insert into transactions (external_id, amount_ngn, sender_account_number, transaction_timestamp,
		id, tenant_id, type, channel, amount, currency, sender_name, verdict_id, outcome, risk_level, aggregate_score,
		actions, engine_verdicts, total_latency_ms, processed_at, created_at)
		select x.*, gen_random_uuid(), $1, 'TRANSFER', 'MOBILE_APP', x.amount_ngn, 'NGN', 'Seed', 'vrd_seed', 'APPROVE', 'LOW', 0,
		'{}', '[]', 1, now(), now()
		from (select `+rows+`) x(external_id, amount_ngn, sender_account_number, transaction_timestamp)`,
		append([]any{string(tenant)}, args...)...)
	return err
}
