package sanctions

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/complyd/complyd/internal/flight"
	"github.com/complyd/complyd/internal/tenancy"
)

// suppressionCache keeps each tenant's active false positives (subject key → entry id → false
// positive id) until a change of the tenant's drops them. Screenings that miss at once share
// one read (flight.Group). gen counts drops: a read that began before a drop is neither kept
// nor joined by a caller that misses after it.
type suppressionCache struct {
	mu      sync.Mutex
	gen     uint64
	entries map[tenancy.TenantID]map[string]map[string]string
	reads   flight.Group[map[string]map[string]string]
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
	return c.reads.Do(ctx, string(tenant)+"/"+strconv.FormatUint(gen, 10), func(ctx context.Context) (map[string]map[string]string, error) {
		fps, err := load(ctx)
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
