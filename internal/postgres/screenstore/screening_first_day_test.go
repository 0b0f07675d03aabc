package screenstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
)

// TestPrefetchFirstDayGated: for an account whose history spans the whole 90-day window but
// who did nothing on the window's first day, the read probes the day bucket of that day and
// the whole days' range, and neither the hours, the minutes nor the raw rows of the first
// partial day (three index descents, one of them into a cold month's partition of
// transactions, for each screening of such an account before the gate: 4 index scans of the
// grains and 1 of transactions a read, where now 2 and 0). The figures stay exact
// (TestScreeningHistoryMatchesScan probes the gate's edges: transactions on the first day, a
// microsecond either side of lo).
func TestPrefetchFirstDayGated(t *testing.T) {
	t.Parallel()
	ctx, db, _, st, tenant := probeTenant(t)
	const accounts, reads = 50, 20
	now := time.Now().UTC().Truncate(time.Second)
	_, err := postgres.NewPartitionStore(db).EnsurePartitions(ctx, now.AddDate(0, 0, -110), now)
	require.NoError(t, err)
	// Each account: one transaction 100 days ago and one 5 days ago; none on the day 90 days ago.
	require.NoError(t, asTenant(ctx, db, tenant, func(tx pgx.Tx) error {
		return seedTransactions(ctx, tx, tenant, `k.kind || '-' || g, 100, lpad(g::text, 10, '0'), k.at
			from generate_series(1, $2) g, (values ('old', $3::timestamptz - interval '100 days'),
			  ('recent', $3::timestamptz - interval '5 days')) k(kind, at)`, accounts, now)
	}))
	// The seeding's upserts of the grains are index scans too (three grains of each of its 100
	// rows): wait until its session has reported them.
	var v0, g0, t0 int64
	require.Eventually(t, func() bool {
		v0, g0, t0 = historyScans(ctx, t, db)
		return g0 >= 3*2*accounts
	}, 15*time.Second, 100*time.Millisecond, "the seeding's statistics were not reported")
	for i := range reads {
		tx := &screening.Transaction{TenantID: tenant, ExternalID: fmt.Sprintf("new-%d", i),
			SenderAccountNumber: fmt.Sprintf("%010d", 1+i%accounts), Timestamp: now}
		pre, err := st.Prefetch(ctx, tx, false, admission.PaceOf(ctx))
		require.NoError(t, err)
		require.Equal(t, 1, pre.History.Amounts.Count, "the transaction of 5 days ago")
		require.Zero(t, pre.History.Count24h)
	}
	st.Close()
	var v1, g1, t1 int64
	require.Eventually(t, func() bool {
		v1, g1, t1 = historyScans(ctx, t, db)
		return v1-v0 >= reads
	}, 10*time.Second, 100*time.Millisecond, "the reads' statistics were not reported")
	require.LessOrEqual(t, g1-g0, int64(2*reads), "index scans of account_activity_grains by %d reads", reads)
	require.Zero(t, t1-t0, "index scans of transactions' partitions by %d reads", reads)
}

// historyScans returns the index scans of account_versions, account_activity_grains and every
// partition of transactions so far (as sessions have reported them).
func historyScans(ctx context.Context, t *testing.T, db *postgres.DB) (versions, grains, txs int64) {
	t.Helper()
	require.NoError(t, db.Pool.QueryRow(ctx, `select
		coalesce(sum(idx_scan) filter (where relname = 'account_versions'), 0)::int8,
		coalesce(sum(idx_scan) filter (where relname = 'account_activity_grains'), 0)::int8,
		coalesce(sum(idx_scan) filter (where relname like 'transactions\_%'), 0)::int8
		from pg_stat_user_tables`).Scan(&versions, &grains, &txs))
	return versions, grains, txs
}
