package postgres

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/complyd/complyd/internal/flight"
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
	flights flight.Group[V]
}

// load reads tenant's value with fetch and keeps it (as put does), one fetch for all the
// callers that miss at once (flight.Group): callers that miss after an invalidation do not join
// a fetch that began before it.
func (c *tenantEntries[V]) load(ctx context.Context, tenant tenancy.TenantID, fetch func(context.Context) (V, error)) (V, error) {
	gen := c.begin()
	return c.flights.Do(ctx, string(tenant)+"/"+strconv.FormatUint(gen, 10), func(ctx context.Context) (V, error) {
		v, err := fetch(ctx)
		if err == nil {
			c.put(tenant, v, gen)
		}
		return v, err
	})
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
