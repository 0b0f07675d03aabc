package screenstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestGrainsPrunedLateScreeningsExact stores 220 days of history for a few accounts of two
// tenants, prunes the grains before the cutoff (GrainsCutoff: 120 days before the UTC day), and
// checks that every bucket before it is gone, every bucket after it untouched, and that the
// store's prefetch still gives the raw scan's figures exactly at every instant: recent ones
// from the grains, late ones (more than 29 days before now, whose windows reach below the
// cutoff) from the raw rows. The grains statement alone on a late instant does not (asserted):
// without the raw route a late transaction would be screened on a truncated history.
func TestGrainsPrunedLateScreeningsExact(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 5, 30, 0, 0, time.UTC)
	ctx, db, _, st := freshScreeningStore(t, screenstore.ScreeningStoreOptions{Now: func() time.Time { return now }})
	ten, other := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	_, err := postgres.NewPartitionStore(db).EnsurePartitions(ctx, now.AddDate(0, 0, -225), now)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(54, 120)) //nolint:gosec // reproducible test data
	accts := []string{"4200000001", "4200000002", "4200000003"}
	for n := range 300 {
		tenant := ten.ID
		if n%6 == 5 {
			tenant = other.ID
		}
		ts := now.Add(-time.Duration(rng.Int64N(int64(220 * 24 * time.Hour)))).Truncate(time.Microsecond)
		if n%4 == 0 { // the recent windows
			ts = now.Add(-time.Duration(rng.Int64N(int64(2 * time.Hour)))).Truncate(time.Microsecond)
		}
		amt := fmt.Sprintf("%d.%02d", 1+rng.IntN(900_000), rng.IntN(100))
		r := record(tenant, fmt.Sprintf("prune-%d", n), "")
		r.Tx.SenderAccountNumber, r.Tx.Timestamp = accts[rng.IntN(len(accts))], ts
		r.AmountNGN = decimal.RequireFromString(amt)
		if rng.IntN(3) > 0 {
			r.Tx.DeviceID = fmt.Sprintf("dev-%d", rng.IntN(5))
		}
		if rng.IntN(2) == 0 {
			r.Tx.IPAddress = fmt.Sprintf("10.1.0.%d", rng.IntN(250))
		}
		directInsert(ctx, t, db, tenant, r)
	}

	cutoff := screenstore.GrainsCutoff(now)
	require.Equal(t, time.Date(2026, 7, 28, 0, 0, 0, 0, time.UTC), cutoff)
	before := map[tenancy.TenantID]int64{}
	kept := map[tenancy.TenantID]string{}
	for _, id := range []tenancy.TenantID{ten.ID, other.ID} {
		before[id], kept[id] = grainsAround(ctx, t, db, id, cutoff)
		require.Positive(t, before[id], "tenant %s has buckets before the cutoff", id)
	}
	p := screenstore.NewGrainsPruner(db)
	p.Batch = 2 // several transactions per tenant: the paging
	pauses := 0
	p.Pause = func(context.Context) error { pauses++; return nil }
	n, err := p.Prune(ctx, cutoff)
	require.NoError(t, err)
	require.Equal(t, before[ten.ID]+before[other.ID], n)
	require.Positive(t, pauses)
	for _, id := range []tenancy.TenantID{ten.ID, other.ID} {
		old, after := grainsAround(ctx, t, db, id, cutoff)
		require.Zero(t, old, "buckets before the cutoff left in tenant %s", id)
		require.Equal(t, kept[id], after, "buckets after the cutoff changed in tenant %s", id)
	}
	n, err = p.Prune(ctx, cutoff)
	require.NoError(t, err)
	require.Zero(t, n, "a second pass finds nothing")

	// The edge of the late route: 29 days before now.
	edge := now.Add(-29 * 24 * time.Hour)
	probes := []time.Time{now, now.Add(-time.Hour), now.Add(-10 * 24 * time.Hour), edge, edge.Add(time.Microsecond),
		edge.Add(-time.Microsecond), now.Add(-30 * 24 * time.Hour), now.Add(-60 * 24 * time.Hour),
		now.Add(-150 * 24 * time.Hour), now.Add(-219 * 24 * time.Hour)}
	truncated := 0
	for _, a := range accts {
		for i, at := range probes {
			where := fmt.Sprintf("account %s at %s", a, at.Format(time.RFC3339Nano))
			want, err := screenstore.PrefetchHistoryForTest(db, ctx, ten.ID, []string{a}, []time.Time{at}, true)
			require.NoError(t, err)
			r := record(ten.ID, fmt.Sprintf("probe-%s-%d", a, i), "")
			r.Tx.SenderAccountNumber, r.Tx.Timestamp = a, at
			got, err := st.Prefetch(ctx, r.Tx, false, admission.PaceOf(ctx))
			require.NoError(t, err)
			requireSameHistory(t, want[0], got, where)
			grains, err := screenstore.PrefetchHistoryForTest(db, ctx, ten.ID, []string{a}, []time.Time{at}, false)
			require.NoError(t, err)
			if grains[0].History.Amounts.Count != want[0].History.Amounts.Count {
				require.True(t, at.Before(edge), "the grains statement is wrong at a recent instant: %s", where)
				truncated++
			}
		}
	}
	require.Positive(t, truncated, "no late instant where the grains alone fall short: the test does not test the raw route")
}

// grainsAround counts tenant's buckets before cutoff and digests those from it on.
func grainsAround(ctx context.Context, t *testing.T, db *postgres.DB, tenant tenancy.TenantID, cutoff time.Time) (old int64, digest string) {
	t.Helper()
	require.NoError(t, db.InTenant(ctx, tenant, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `select count(*) filter (where bucket < $2),
			coalesce(md5(string_agg(format('%s|%s|%s|%s|%s|%s', account, grain, bucket, n, sum_ngn, devices), ',' order by account, grain, bucket)
			  filter (where bucket >= $2)), '')
			from account_activity_grains where tenant_id = $1`, string(tenant), cutoff).Scan(&old, &digest)
	}))
	return old, digest
}
