package screenstore_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
)

// TestWindowBoundsMatchPostgres: the bounds the prefetch takes from Go (boundsAt) are those
// PostgreSQL computed in the statement before they moved out of it, instant for instant, on the
// unit boundaries, a microsecond either side, and at instants with nanoseconds that pgx drops.
func TestWindowBoundsMatchPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC) // 90 days before it span February
	var ts []time.Time
	for _, d := range []time.Duration{0, time.Minute, time.Hour, 24 * time.Hour, 90 * 24 * time.Hour} {
		for _, e := range []time.Duration{0, time.Microsecond, -time.Microsecond, time.Nanosecond, 999 * time.Nanosecond, -time.Nanosecond} {
			ts = append(ts, base.Add(d+e))
		}
	}
	rng := rand.New(rand.NewPCG(11, 27)) //nolint:gosec // reproducible test data
	for range 200 {
		ts = append(ts, base.Add(time.Duration(rng.Int64N(int64(400*24*time.Hour)))))
	}
	// The bounds as the statement computed them (windowBoundsSQL, until the eleventh session).
	const q = `select lo, a24, a60, fd, fh, fm, mid, lom, am, am60,
		date_trunc('hour', lom, 'UTC') + case when date_trunc('hour', lom, 'UTC') < lom then interval '1 hour' else interval '0' end,
		date_trunc('hour', am, 'UTC') + case when date_trunc('hour', am, 'UTC') < am then interval '1 hour' else interval '0' end,
		date_trunc('day', lo, 'UTC')
	from (select *, date_trunc('minute', lo, 'UTC') + case when date_trunc('minute', lo, 'UTC') < lo then interval '1 minute' else interval '0' end as lom,
		date_trunc('minute', a24, 'UTC') + case when date_trunc('minute', a24, 'UTC') < a24 then interval '1 minute' else interval '0' end as am,
		date_trunc('minute', a60, 'UTC') + case when date_trunc('minute', a60, 'UTC') < a60 then interval '1 minute' else interval '0' end as am60
	from (select ts - interval '90 days' as lo, ts - interval '24 hours' as a24, ts - interval '60 minutes' as a60,
		date_trunc('day', ts, 'UTC') as fd, date_trunc('hour', ts, 'UTC') as fh, date_trunc('minute', ts, 'UTC') as fm,
		date_trunc('day', ts - interval '90 days', 'UTC') + interval '24 hours' as mid from (select $1::timestamptz as ts) x) y) z`
	for _, at := range ts {
		var w [13]time.Time
		require.NoError(t, db.Pool.QueryRow(ctx, q, at).Scan(&w[0], &w[1], &w[2], &w[3], &w[4], &w[5], &w[6], &w[7], &w[8], &w[9], &w[10], &w[11], &w[12]))
		got := screenstore.WindowBoundsForTest(at)
		require.Len(t, got, len(w))
		for i := range w {
			require.True(t, w[i].Equal(got[i]), "%s at %s: PostgreSQL %s, Go %s", screenstore.WindowColumns[i], at.Format(time.RFC3339Nano), w[i], got[i])
		}
	}
}
