package sanctions

import (
	"sort"
	"sync"
	"sync/atomic"

	"github.com/complyd/complyd/internal/tenancy"
)

// Matcher serves searches across the global lists and each tenant's
// watchlist entries (decisions.md §10). The global index sits behind an
// atomic pointer and is swapped whole when a list is replaced, so searches
// never wait for a rebuild. Tenant entries are screened from the moment they
// are upserted. Matcher is safe for concurrent use; its zero value is not
// usable, use NewMatcher.
type Matcher struct {
	global atomic.Pointer[Index]

	mu      sync.Mutex // serialises writers; readers only load pointers
	lists   map[string][]Entry
	tenants sync.Map // tenancy.TenantID → *tenantIndex
}

// tenantIndex holds one tenant's entries and their index.
type tenantIndex struct {
	entries map[string]Entry // by Entry.ID; guarded by Matcher.mu
	idx     atomic.Pointer[Index]
}

// NewMatcher returns a Matcher with empty global lists.
func NewMatcher() *Matcher {
	m := &Matcher{lists: make(map[string][]Entry)}
	m.global.Store(NewIndex(nil))
	return m
}

// Replace sets the entries of one global list (for example ListOFACSDN after
// a download) and swaps in a rebuilt global index. An empty entries removes
// the list. Searches running meanwhile use the previous index.
func (m *Matcher) Replace(list string, entries []Entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(entries) == 0 {
		delete(m.lists, list)
	} else {
		m.lists[list] = append([]Entry(nil), entries...)
	}
	m.rebuildGlobalLocked()
}

// SetGlobal replaces every global list at once, keyed by list name.
func (m *Matcher) SetGlobal(lists map[string][]Entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lists = make(map[string][]Entry, len(lists))
	for name, es := range lists {
		if len(es) > 0 {
			m.lists[name] = append([]Entry(nil), es...)
		}
	}
	m.rebuildGlobalLocked()
}

func (m *Matcher) rebuildGlobalLocked() {
	names := make([]string, 0, len(m.lists))
	total := 0
	for name, es := range m.lists {
		names = append(names, name)
		total += len(es)
	}
	sort.Strings(names)
	all := make([]Entry, 0, total)
	for _, name := range names {
		all = append(all, m.lists[name]...)
	}
	m.global.Store(NewIndex(all))
}

// Global returns the current global index (for stats and health:
// decisions.md §10 reports sanctions "empty" when it has no entries).
func (m *Matcher) Global() *Index { return m.global.Load() }

// UpsertTenantEntry adds or replaces (by ID) one tenant watchlist entry. The
// tenant's index is rebuilt, which is cheap for watchlist-sized sets.
func (m *Matcher) UpsertTenantEntry(tenantID tenancy.TenantID, e Entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tenantLocked(tenantID)
	t.entries[e.ID] = e
	t.rebuild()
}

// RemoveTenantEntry removes one tenant entry by ID; unknown IDs are ignored.
func (m *Matcher) RemoveTenantEntry(tenantID tenancy.TenantID, entryID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.tenants.Load(tenantID)
	if !ok {
		return
	}
	t := v.(*tenantIndex)
	if _, ok := t.entries[entryID]; !ok {
		return
	}
	delete(t.entries, entryID)
	t.rebuild()
}

// SetTenantEntries replaces all of a tenant's entries (for loading from the
// store at start-up, or after a watchlist is deleted).
func (m *Matcher) SetTenantEntries(tenantID tenancy.TenantID, entries []Entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tenantLocked(tenantID)
	t.entries = make(map[string]Entry, len(entries))
	for _, e := range entries {
		t.entries[e.ID] = e
	}
	t.rebuild()
}

// RetainTenants forgets the entries of every tenant for which keep is false.
// LoadAll uses it for the tenants that no longer have any entry: their last
// deletion's notification may have been lost, and they are not among the
// tenants it reloads.
func (m *Matcher) RetainTenants(keep func(tenancy.TenantID) bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tenants.Range(func(k, _ any) bool {
		if id := k.(tenancy.TenantID); !keep(id) {
			m.tenants.Delete(id)
		}
		return true
	})
}

func (m *Matcher) tenantLocked(id tenancy.TenantID) *tenantIndex {
	if v, ok := m.tenants.Load(id); ok {
		return v.(*tenantIndex)
	}
	t := &tenantIndex{entries: make(map[string]Entry)}
	t.idx.Store(NewIndex(nil))
	m.tenants.Store(id, t)
	return t
}

func (t *tenantIndex) rebuild() {
	es := make([]Entry, 0, len(t.entries))
	for _, e := range t.entries {
		es = append(es, e)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].ID < es[j].ID })
	t.idx.Store(NewIndex(es))
}

// Search runs q over the global lists and tenantID's entries and returns the
// merged matches, best first, at most q.Limit. An empty tenantID searches
// the global lists only.
func (m *Matcher) Search(tenantID tenancy.TenantID, q Query) []Match {
	q = q.normalized()
	out := m.global.Load().searchCached(q)
	if tenantID == "" {
		return out
	}
	v, ok := m.tenants.Load(tenantID)
	if !ok {
		return out
	}
	out = append(out, v.(*tenantIndex).idx.Load().searchCached(q)...)
	sortMatches(out)
	if len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out
}
