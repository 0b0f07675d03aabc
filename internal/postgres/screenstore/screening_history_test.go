package screenstore_test

import (
	"context"
	"errors"
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
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestScreeningHistoryMatchesScan stores a random sequence of transactions for a few accounts
// (out of timestamp order, over 130 days, amounts of varying scale, devices, IPs and locations
// sometimes missing), most through the store's prefetch and group commit and some by a plain
// INSERT (the trigger of migration 0020 keeps the activity whatever inserts), and after every
// few it prefetches each account's history at probe instants chosen on the windows' edges (UTC
// midnights, exactly 90 days, 24 hours and 60 minutes after a stored transaction, a microsecond
// either side). The engines' inputs the bucketed prefetch gives must equal those of the old
// statement that scanned the raw 90 days: counts, sums, mean and standard deviation exactly
// (decimal equality, not to a tolerance), known devices, latest device, IP and location, last
// activity. Probes on minute and hour edges check the grains of migration 0022. The history spans
// five monthly partitions.
func TestScreeningHistoryMatchesScan(t *testing.T) {
	t.Parallel()
	// A database of its own: creating partitions locks the parents and then tenants (their
	// foreign key), while a parallel test's tenant insert holds tenants and then writes
	// audit_events: on the shared database the two deadlocked (40P01 in another test's
	// pgtest.Tenant).
	ctx, db, _, st := freshScreeningStore(t, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)
	other := pgtest.Tenant(ctx, t, db)
	rng := rand.New(rand.NewPCG(15, 20)) //nolint:gosec // reproducible test data
	now := time.Date(2026, 11, 25, 5, 30, 0, 0, time.UTC)
	// transactions is partitioned by month (migration 0043): the 130 days are spread over the
	// partitions of July to November, so that the windows cross their boundaries.
	_, err := postgres.NewPartitionStore(db).EnsurePartitions(ctx, now.AddDate(0, 0, -135), now)
	require.NoError(t, err)
	accts := []string{"4100000001", "4100000002", "4100000003", "4100000004"}
	amount := func() string {
		switch rng.IntN(5) {
		case 0:
			return fmt.Sprintf("%d", 1+rng.IntN(5_000_000))
		case 1:
			return fmt.Sprintf("%d.%d", rng.IntN(100_000), rng.IntN(10))
		case 2:
			return fmt.Sprintf("%d.%02d", rng.IntN(1_000), rng.IntN(100))
		case 3:
			return fmt.Sprintf("%d.%02d", 100_000_000+rng.IntN(900_000_000), rng.IntN(100))
		default:
			return "0.01"
		}
	}
	var stored []time.Time
	version := map[string]int64{}
	for n := range 240 {
		acct := accts[rng.IntN(len(accts))]
		ts := now.Add(-time.Duration(rng.Int64N(int64(130 * 24 * time.Hour)))).Truncate(time.Microsecond)
		if n%3 == 0 { // bursts: the recent windows
			ts = now.Add(-time.Duration(rng.Int64N(int64(3 * time.Hour)))).Truncate(time.Microsecond)
		}
		if n%7 == 0 { // several in one minute and one hour: the minute and hour grains
			ts = now.Add(-time.Duration(rng.Int64N(int64(10 * time.Minute)))).Truncate(time.Microsecond)
		}
		amt := amount()
		r := record(ten.ID, fmt.Sprintf("hist-%d", n), "")
		r.Tx.SenderAccountNumber, r.Tx.Timestamp = acct, ts
		r.Tx.Amount, r.AmountNGN = decimal.RequireFromString(amt), decimal.RequireFromString(amt)
		if rng.IntN(10) < 7 {
			r.Tx.DeviceID = fmt.Sprintf("dev-%s-%d", acct, rng.IntN(4))
		}
		if rng.IntN(10) < 6 {
			r.Tx.IPAddress = fmt.Sprintf("10.0.%d.%d", rng.IntN(4), rng.IntN(250))
		}
		if rng.IntN(2) == 0 {
			lat, lon := 6+rng.Float64(), 3+rng.Float64()
			r.Tx.Latitude, r.Tx.Longitude = &lat, &lon
		}
		if n%5 == 4 {
			directInsert(ctx, t, db, ten.ID, r)
		} else {
			p, err := st.Prefetch(ctx, r.Tx, false, admission.PaceOf(ctx))
			require.NoError(t, err)
			require.Equal(t, version[acct], p.History.Version, "version of %s", acct)
			r.History = p.History
			_, err = st.Save(ctx, r)
			require.NoError(t, err)
		}
		version[acct]++
		// The other tenant's same account number never counts.
		if n%40 == 0 {
			seedTx(ctx, t, db, other.ID, fmt.Sprintf("other-%d", n), acct, "999999", ts)
		}
		stored = append(stored, ts)
		if n%20 != 19 {
			continue
		}
		var probes []time.Time
		probes = append(probes, now, now.Add(time.Hour))
		for range 6 {
			s := stored[rng.IntN(len(stored))]
			midnight := s.Truncate(24 * time.Hour)
			probes = append(probes, s, s.Add(-time.Microsecond), s.Add(90*24*time.Hour), s.Add(90*24*time.Hour+time.Microsecond),
				s.Add(90*24*time.Hour-time.Microsecond), s.Add(24*time.Hour), s.Add(24*time.Hour+time.Microsecond),
				s.Add(time.Hour), s.Add(time.Hour+time.Microsecond), midnight, midnight.Add(-time.Microsecond),
				midnight.Add(90*24*time.Hour), midnight.Add(90*24*time.Hour-time.Microsecond), midnight.Add(24*time.Hour))
			// The grains' edges: a stored instant's minute and hour, and the windows that start
			// or end on them.
			for _, g := range []time.Duration{time.Minute, time.Hour} {
				e := s.Truncate(g)
				probes = append(probes, e, e.Add(-time.Microsecond), e.Add(g), e.Add(g-time.Microsecond),
					e.Add(time.Hour), e.Add(time.Hour+time.Microsecond), e.Add(24*time.Hour), e.Add(24*time.Hour-time.Microsecond),
					e.Add(90*24*time.Hour), e.Add(90*24*time.Hour+time.Microsecond))
			}
		}
		var pa []string
		var pt []time.Time
		for _, a := range accts {
			for _, p := range probes {
				pa, pt = append(pa, a), append(pt, p)
			}
		}
		old, err := screenstore.PrefetchHistoryForTest(db, ctx, ten.ID, pa, pt, true)
		require.NoError(t, err)
		cur, err := screenstore.PrefetchHistoryForTest(db, ctx, ten.ID, pa, pt, false)
		require.NoError(t, err)
		for i := range pa {
			where := fmt.Sprintf("after %d: account %s at %s", n+1, pa[i], pt[i].Format(time.RFC3339Nano))
			requireSameHistory(t, old[i], cur[i], where)
			if pt[i].After(now.Add(time.Minute)) {
				require.Equal(t, version[pa[i]], cur[i].History.Version, where)
			}
		}
	}
	// The guard: a record screened on a version that another writer has since moved is refused.
	r := record(ten.ID, "hist-stale", "")
	r.Tx.SenderAccountNumber = accts[0]
	p, err := st.Prefetch(ctx, r.Tx, false, admission.PaceOf(ctx))
	require.NoError(t, err)
	directInsert(ctx, t, db, ten.ID, record(ten.ID, "hist-interloper", ""), accts[0])
	r.History = p.History
	_, err = st.Save(ctx, r)
	require.ErrorIs(t, err, screening.ErrHistoryChanged)
}

// requireSameHistory compares the engines' inputs of two prefetches (the version aside).
func requireSameHistory(t *testing.T, want, got screening.Prefetch, where string) {
	t.Helper()
	w, g := want.History, got.History
	require.Equal(t, w.Count24h, g.Count24h, "count24h %s", where)
	require.True(t, w.Sum24hNGN.Equal(g.Sum24hNGN), "sum24h %s: %s vs %s", where, w.Sum24hNGN, g.Sum24hNGN)
	require.Equal(t, w.Count60m, g.Count60m, "count60m %s", where)
	require.Equal(t, w.LastActivityAt, g.LastActivityAt, "last activity %s", where)
	require.Equal(t, w.Amounts.Count, g.Amounts.Count, "count90d %s", where)
	require.True(t, w.Amounts.Mean.Equal(g.Amounts.Mean), "mean %s: %s vs %s", where, w.Amounts.Mean, g.Amounts.Mean)
	require.True(t, w.Amounts.StdDev.Equal(g.Amounts.StdDev), "stddev %s: %s vs %s", where, w.Amounts.StdDev, g.Amounts.StdDev)
	require.Equal(t, want.Profile, got.Profile, "profile %s", where)
}

// directInsert stores r as a plain INSERT outside the screening store (as the load generator's
// seeding does), for sender account acct[0] when given.
func directInsert(ctx context.Context, t *testing.T, db *postgres.DB, tenant tenancy.TenantID, r *screening.Record, acct ...string) {
	t.Helper()
	a := r.Tx.SenderAccountNumber
	if len(acct) > 0 {
		a = acct[0]
	}
	var dev, ip *string
	if r.Tx.DeviceID != "" {
		dev = &r.Tx.DeviceID
	}
	if r.Tx.IPAddress != "" {
		ip = &r.Tx.IPAddress
	}
	err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency,
			amount_ngn, sender_account_number, sender_name, device_id, ip_address, latitude, longitude, transaction_timestamp,
			verdict_id, outcome, risk_level, aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
			values (gen_random_uuid(), $1, $2, 'TRANSFER', 'MOBILE_APP', $3::numeric, 'NGN', $3::numeric, $4, 'Direct', $5, $6,
			$7, $8, $9, 'vrd_direct', 'APPROVE', 'LOW', 0, '{}', '[]', 1, $9, $9)`, string(tenant), r.Tx.ExternalID,
			r.AmountNGN.String(), a, dev, ip, r.Tx.Latitude, r.Tx.Longitude, r.Tx.Timestamp)
		return err
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		require.NoError(t, err)
	}
}
