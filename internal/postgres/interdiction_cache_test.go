package postgres

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestInterdictionCacheReadsOncePerChange: screenings read the tenant's interdictions from
// memory (one load per tenant until a change is announced), an invalidation of one tenant drops
// only that tenant, and a load that raced an invalidation is not kept.
func TestInterdictionCacheReadsOncePerChange(t *testing.T) {
	t.Parallel()
	var loads atomic.Int64
	var state atomic.Value
	state.Store(screening.Restrictions{})
	c := &InterdictionCache{log: slog.New(slog.DiscardHandler), entries: newTenantEntries[screening.Restrictions]()}
	c.load = func(context.Context, tenancy.TenantID) (screening.Restrictions, error) {
		loads.Add(1)
		return state.Load().(screening.Restrictions), nil
	}
	ctx := context.Background()
	for range 1000 {
		r, err := c.Restrictions(ctx, "t1")
		require.NoError(t, err)
		require.Empty(t, r)
	}
	require.EqualValues(t, 1, loads.Load(), "one database read for a thousand screenings")

	frozen := screening.Restrictions{"0123456789": {{InterdictionID: "intd_1", Action: screening.RestrictionFreeze, AccountNumber: "0123456789"}}}
	state.Store(frozen)
	_, _ = c.Restrictions(ctx, "t2")
	c.Invalidate("t1")
	r, _ := c.Restrictions(ctx, "t1")
	require.Len(t, r["0123456789"], 1, "the change is read after the announcement")
	require.EqualValues(t, 3, loads.Load())
	_, _ = c.Restrictions(ctx, "t2")
	require.EqualValues(t, 3, loads.Load(), "another tenant's entry stays")

	// A load overtaken by an invalidation answers its caller but is not kept.
	c.load = func(context.Context, tenancy.TenantID) (screening.Restrictions, error) {
		loads.Add(1)
		c.Invalidate("t3")
		return screening.Restrictions{}, nil
	}
	_, _ = c.Restrictions(ctx, "t3")
	_, _ = c.Restrictions(ctx, "t3")
	require.EqualValues(t, 5, loads.Load())

	c.Invalidate("") // a reconnection of the listener empties everything
	c.entries.mu.RLock()
	require.Empty(t, c.entries.entries)
	c.entries.mu.RUnlock()
}

// BenchmarkInterdictionCacheHit is the cost a screening pays for the interdiction check's read.
func BenchmarkInterdictionCacheHit(b *testing.B) {
	c := &InterdictionCache{entries: newTenantEntries[screening.Restrictions]()}
	c.entries.put("t1", screening.Restrictions{"0123456789": {{Action: screening.RestrictionFreeze}}}, c.entries.begin())
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, _ := c.Restrictions(ctx, "t1")
			if len(r["0123456789"]) != 1 {
				b.Fatal("miss")
			}
		}
	})
}
