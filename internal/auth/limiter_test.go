package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTenantLimiter(t *testing.T) {
	t.Parallel()
	type testBundle struct {
		now     time.Time
		limiter *TenantLimiter
	}
	setup := func(t *testing.T) *testBundle {
		t.Helper()
		b := &testBundle{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
		b.limiter = NewTenantLimiter(3, 0, func() time.Time { return b.now })
		return b
	}

	t.Run("BurstThenRefusedWithWait", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		for i := range 3 {
			ok, wait := b.limiter.Allow("t1", ClassScreening)
			require.True(t, ok, "request %d of the burst", i)
			require.Zero(t, wait)
		}
		ok, wait := b.limiter.Allow("t1", ClassScreening)
		require.False(t, ok)
		require.InDelta(t, float64(time.Second/3), float64(wait), float64(time.Millisecond))
		// A refusal spends nothing: one token is back after a third of a second.
		b.now = b.now.Add(time.Second / 3)
		ok, _ = b.limiter.Allow("t1", ClassScreening)
		require.True(t, ok)
		ok, _ = b.limiter.Allow("t1", ClassScreening)
		require.False(t, ok)
	})
	t.Run("TenantsAndClassesAreSeparate", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		for range 3 {
			ok, _ := b.limiter.Allow("t1", ClassScreening)
			require.True(t, ok)
		}
		ok, _ := b.limiter.Allow("t2", ClassScreening)
		require.True(t, ok, "another tenant has its own bucket")
		for range 10 {
			ok, _ = b.limiter.Allow("t1", ClassAPI)
			require.True(t, ok, "a class with rate 0 is unlimited")
		}
	})
}

// leaserFunc is a hand-written RateLeaser.
type leaserFunc func(key string, perSecond, n int) (int, time.Duration, error)

func (f leaserFunc) Lease(_ context.Context, key string, perSecond, n int) (int, time.Duration, error) {
	return f(key, perSecond, n)
}

// TestTenantLimiterShared: limiters sharing one leaser (replicas sharing the database's bucket)
// allow the bucket's tokens between them, ask for a lease only when their own share is spent,
// remember a refusal until the next token is due, drop leased tokens after a second, and let
// requests through when the leaser fails.
func TestTenantLimiterShared(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { return now }
	bucket, leases := 250, 0 // the shared bucket's tokens (no refill in this test)
	var fail error
	leaser := leaserFunc(func(key string, perSecond, n int) (int, time.Duration, error) {
		require.Equal(t, "screening:t1", key)
		require.Equal(t, 250, perSecond)
		leases++
		if fail != nil {
			return 0, 0, fail
		}
		g := min(n, bucket)
		bucket -= g
		if g == 0 {
			return 0, 40 * time.Millisecond, nil
		}
		return g, 0, nil
	})
	a, b := NewTenantLimiter(250, 0, clock), NewTenantLimiter(250, 0, clock)
	a.Share(leaser)
	b.Share(leaser)
	allowed := 0
	for i := range 400 {
		l := a
		if i%2 == 1 {
			l = b
		}
		if ok, _ := l.Allow("t1", ClassScreening); ok {
			allowed++
		}
	}
	require.Equal(t, 250, allowed, "the two share one bucket")
	require.Equal(t, 250/5+2, leases, "leases of 5 tokens (2 percent of 250), and one refusal each")
	ok, wait := a.Allow("t1", ClassScreening)
	require.False(t, ok)
	require.Equal(t, 40*time.Millisecond, wait)
	require.Equal(t, 250/5+2, leases, "a remembered refusal asks nothing")

	// Leased tokens expire after a second; the next lease comes from the bucket.
	bucket = 10
	now = now.Add(50 * time.Millisecond)
	ok, _ = a.Allow("t1", ClassScreening)
	require.True(t, ok)
	require.Equal(t, 5, bucket)
	now = now.Add(1100 * time.Millisecond)
	ok, _ = a.Allow("t1", ClassScreening)
	require.True(t, ok)
	require.Equal(t, 0, bucket, "the four tokens left of the first lease expired")

	// A leaser that fails lets requests through, and is not asked again for a second.
	now = now.Add(2 * time.Second)
	fail = errors.New("database unreachable")
	asked := leases
	for range 10 {
		ok, _ = b.Allow("t1", ClassScreening)
		require.True(t, ok)
	}
	require.Equal(t, asked+1, leases)
	now = now.Add(1100 * time.Millisecond)
	fail = nil
	ok, _ = b.Allow("t1", ClassScreening)
	require.False(t, ok, "the bucket is empty again")
	require.Equal(t, asked+2, leases)
}
