package auth

import (
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
