package sanctions

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/complyd/complyd/internal/tenancy"
)

// suppressionLoadBudget bounds a shared read of a tenant's false positives, which runs without
// its first caller's cancellation.
const suppressionLoadBudget = 10 * time.Second

// suppressionCache keeps each tenant's active false positives (subject key → entry id → false
// positive id) until a change of the tenant's drops them. Screenings that miss at once share
// one read: at a service's start under 1,000 screenings/s a dozen identical reads, each on a
// new pool connection, made the first second's p99 58-256 ms. gen counts drops: a read that
// began before a drop is neither kept nor joined by a caller that misses after it.
type suppressionCache struct {
	mu      sync.Mutex
	gen     uint64
	entries map[tenancy.TenantID]map[string]map[string]string
	flights singleflight.Group
}

// get returns tenant's suppressions, reading them with load on a miss.
func (c *suppressionCache) get(ctx context.Context, tenant tenancy.TenantID,
	load func(context.Context) ([]FalsePositive, error)) (map[string]map[string]string, error) {
	c.mu.Lock()
	m, ok := c.entries[tenant]
	gen := c.gen
	c.mu.Unlock()
	if ok {
		return m, nil
	}
	ch := c.flights.DoChan(string(tenant)+"/"+strconv.FormatUint(gen, 10), func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), suppressionLoadBudget)
		defer cancel()
		fps, err := load(lctx)
		if err != nil {
			return nil, fmt.Errorf("load false positives: %w", err)
		}
		m := make(map[string]map[string]string)
		for _, fp := range fps {
			if m[fp.SubjectKey] == nil {
				m[fp.SubjectKey] = map[string]string{}
			}
			m[fp.SubjectKey][fp.EntryID] = fp.ID
		}
		c.mu.Lock()
		if c.gen == gen {
			if c.entries == nil {
				c.entries = map[tenancy.TenantID]map[string]map[string]string{}
			}
			c.entries[tenant] = m
		}
		c.mu.Unlock()
		return m, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(map[string]map[string]string), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// drop forgets tenant's suppressions ("" forgets every tenant's).
func (c *suppressionCache) drop(tenant tenancy.TenantID) {
	c.mu.Lock()
	c.gen++
	if tenant == "" {
		clear(c.entries)
	} else {
		delete(c.entries, tenant)
	}
	c.mu.Unlock()
}
