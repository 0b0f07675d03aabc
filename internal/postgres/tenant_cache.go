package postgres

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/complyd/complyd/internal/tenancy"
)

// tenantEntries is the per-tenant map under the caches that LISTEN/NOTIFY invalidates
// (SettingsCache, InterdictionCache). gen counts invalidations: a value loaded from the database
// is kept only if no invalidation happened since its load began (begin), so a load that raced
// with a change can never put the old value back.
type tenantEntries[V any] struct {
	gen     atomic.Uint64
	mu      sync.RWMutex
	entries map[tenancy.TenantID]V
	flights singleflight.Group
}

// loadBudget bounds a shared load (tenantEntries.load), which runs without its first caller's
// cancellation.
const loadBudget = 10 * time.Second

// load reads tenant's value with fetch and keeps it (as put does), one fetch for all the
// callers that miss at once: at a service's start, or when an entry expires, under 1,000
// screenings a second dozens of screenings missed together, and each took a pool connection
// of its own (new ones, at start) for the same rows; the first second's p99 was 58-256 ms
// (docs/screening.md). Callers that miss after an invalidation do not join a fetch that began
// before it. The fetch runs on ctx's values without its cancellation, bounded by loadBudget,
// so that one caller giving up fails none of the others; each caller still waits only as long
// as its own ctx allows.
func (c *tenantEntries[V]) load(ctx context.Context, tenant tenancy.TenantID, fetch func(context.Context) (V, error)) (V, error) {
	gen := c.begin()
	return shared(ctx, &c.flights, string(tenant)+"/"+strconv.FormatUint(gen, 10), func(ctx context.Context) (V, error) {
		v, err := fetch(ctx)
		if err == nil {
			c.put(tenant, v, gen)
		}
		return v, err
	})
}

// shared runs fetch once for all the callers of the same key at the same time (g), on ctx's
// values without its cancellation and bounded by loadBudget; each caller waits only as long as
// its own ctx allows. The value comes back with the error, as fetch returned them.
func shared[V any](ctx context.Context, g *singleflight.Group, key string, fetch func(context.Context) (V, error)) (V, error) {
	ch := g.DoChan(key, func() (any, error) {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadBudget)
		defer cancel()
		v, err := fetch(fctx)
		return v, err
	})
	select {
	case r := <-ch:
		return r.Val.(V), r.Err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

func newTenantEntries[V any]() *tenantEntries[V] {
	return &tenantEntries[V]{entries: map[tenancy.TenantID]V{}}
}

func (c *tenantEntries[V]) get(tenant tenancy.TenantID) (V, bool) {
	c.mu.RLock()
	v, ok := c.entries[tenant]
	c.mu.RUnlock()
	return v, ok
}

// begin marks the start of a load; pass its result to put.
func (c *tenantEntries[V]) begin() uint64 { return c.gen.Load() }

// put keeps v unless an invalidation happened since begin returned gen.
func (c *tenantEntries[V]) put(tenant tenancy.TenantID, v V, gen uint64) {
	c.mu.Lock()
	if c.gen.Load() == gen {
		c.entries[tenant] = v
	}
	c.mu.Unlock()
}

// invalidate drops tenant's entry ("" drops every entry).
func (c *tenantEntries[V]) invalidate(tenant tenancy.TenantID) {
	c.mu.Lock()
	c.gen.Add(1)
	if tenant == "" {
		clear(c.entries)
	} else {
		delete(c.entries, tenant)
	}
	c.mu.Unlock()
}
