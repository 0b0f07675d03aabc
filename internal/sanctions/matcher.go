package sanctions

import (
	"hash/maphash"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/complyd/complyd/internal/tenancy"
)

// Matcher serves searches across the global lists and each tenant's
// watchlist entries (docs/design/design-choices.md §10). Every index sits behind an atomic
// pointer and is swapped whole when its entries change, so searches never
// wait for a rebuild.
//
// Writers never hold a lock while an index is built (a 100,000-entry tenant list takes
// seconds; docs/guide/watchlists.md "Import at scale"): a change takes its scope's small lock (the
// global lists', or one tenant's) only to update the entry set and take a numbered snapshot of
// it, builds the index from the snapshot with no lock held, then swaps it in unless a newer
// snapshot of the same scope has been swapped in meanwhile. So one tenant's import never
// delays another tenant's change or anyone's search, and the last change always wins.
// Matcher is safe for concurrent use; its zero value is not usable, use NewMatcher.
type Matcher struct {
	global globalIndex
	// tenantsMu guards creating and dropping entries of tenants (never held during a build).
	tenantsMu sync.Mutex
	tenants   sync.Map // tenancy.TenantID → *tenantIndex
	// busy reports whether foreground requests (screenings, searches) are in flight; the
	// builds of tenant indexes and the parse of an import give way to them (pace.go). Set once,
	// before the matcher is used (SetForeground).
	busy func() bool
}

// SetForeground makes the tenants' index builds and imports give way to the foreground work
// busy reports (pace.go; nil: they only yield). Call it before the matcher is in use.
func (m *Matcher) SetForeground(busy func() bool) { m.busy = busy }

// pacer returns a new pacer for one build or parse.
func (m *Matcher) pacer() *pacer { return newPacer(m.busy) }

// globalIndex is the global lists' entries and index.
type globalIndex struct {
	idx atomic.Pointer[Index]

	mu      sync.Mutex // guards lists, gen, swapped; never held during a build
	lists   map[string][]Entry
	gen     uint64 // snapshots taken
	swapped uint64 // the snapshot whose index is in idx
}

// tenantIndex holds one tenant's entries and their index.
type tenantIndex struct {
	idx atomic.Pointer[Index]

	mu      sync.Mutex       // guards entries, gen, swapped; never held during a build
	entries map[string]Entry // by Entry.ID
	gen     uint64
	swapped uint64
}

// NewMatcher returns a Matcher with empty global lists.
func NewMatcher() *Matcher {
	m := &Matcher{}
	m.global.lists = make(map[string][]Entry)
	m.global.idx.Store(NewIndex(nil))
	return m
}

// Replace sets the entries of one global list (for example ListOFACSDN after
// a download) and swaps in a rebuilt global index. An empty entries removes
// the list. Searches running meanwhile use the previous index.
func (m *Matcher) Replace(list string, entries []Entry) {
	g := &m.global
	g.mu.Lock()
	if len(entries) == 0 {
		delete(g.lists, list)
	} else {
		g.lists[list] = append([]Entry(nil), entries...)
	}
	all, gen := g.snapshotLocked()
	g.mu.Unlock()
	g.swap(buildIndex(all, maphash.MakeSeed(), newTokenMemo(), m.pacer()), gen)
}

// SetGlobal replaces every global list at once, keyed by list name.
func (m *Matcher) SetGlobal(lists map[string][]Entry) {
	g := &m.global
	g.mu.Lock()
	g.lists = make(map[string][]Entry, len(lists))
	for name, es := range lists {
		if len(es) > 0 {
			g.lists[name] = append([]Entry(nil), es...)
		}
	}
	all, gen := g.snapshotLocked()
	g.mu.Unlock()
	g.swap(buildIndex(all, maphash.MakeSeed(), newTokenMemo(), m.pacer()), gen)
}

// snapshotLocked returns every global entry, lists in name order, and the snapshot's number.
func (g *globalIndex) snapshotLocked() ([]Entry, uint64) {
	names := make([]string, 0, len(g.lists))
	total := 0
	for name, es := range g.lists {
		names = append(names, name)
		total += len(es)
	}
	sort.Strings(names)
	all := make([]Entry, 0, total)
	for _, name := range names {
		all = append(all, g.lists[name]...)
	}
	g.gen++
	return all, g.gen
}

// swap stores idx, built from snapshot gen, unless a later snapshot's index is already in.
func (g *globalIndex) swap(idx *Index, gen uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if gen > g.swapped {
		g.swapped = gen
		g.idx.Store(idx)
	}
}

// Global returns the current global index (for stats and health:
// docs/design/design-choices.md §10 reports sanctions "empty" when it has no entries).
func (m *Matcher) Global() *Index { return m.global.idx.Load() }

// UpsertTenantEntry adds or replaces (by ID) one tenant watchlist entry. The
// tenant's index is rebuilt, which is cheap for watchlist-sized sets.
func (m *Matcher) UpsertTenantEntry(tenantID tenancy.TenantID, e Entry) {
	m.UpsertTenantEntries(tenantID, []Entry{e})
}

// UpsertTenantEntries adds or replaces (by ID) many tenant entries with one rebuild of the
// tenant's index (a bulk import: one build, however many rows).
func (m *Matcher) UpsertTenantEntries(tenantID tenancy.TenantID, es []Entry) {
	m.tenant(tenantID).change(m.pacer(), func(entries map[string]Entry) {
		for i, e := range es {
			yieldEvery(i, 63)
			entries[e.ID] = e
		}
	})
}

// RemoveTenantEntry removes one tenant entry by ID; unknown IDs are ignored.
func (m *Matcher) RemoveTenantEntry(tenantID tenancy.TenantID, entryID string) {
	v, ok := m.tenants.Load(tenantID)
	if !ok {
		return
	}
	t := v.(*tenantIndex)
	t.mu.Lock()
	_, ok = t.entries[entryID]
	t.mu.Unlock()
	if !ok {
		return
	}
	t.change(m.pacer(), func(entries map[string]Entry) { delete(entries, entryID) })
}

// SetTenantEntries replaces all of a tenant's entries (for loading from the
// store at start-up, or after a watchlist is deleted).
func (m *Matcher) SetTenantEntries(tenantID tenancy.TenantID, entries []Entry) {
	m.tenant(tenantID).change(m.pacer(), func(cur map[string]Entry) {
		clear(cur)
		for _, e := range entries {
			cur[e.ID] = e
		}
	})
}

// TenantEntriesEqual says whether the tenant's entries in memory are exactly entries (by ID
// and content): a reload that would change nothing need not build the index again.
func (m *Matcher) TenantEntriesEqual(tenantID tenancy.TenantID, entries []Entry) bool {
	v, ok := m.tenants.Load(tenantID)
	if !ok {
		return len(entries) == 0
	}
	t := v.(*tenantIndex)
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.entries) != len(entries) {
		return false
	}
	for i := range entries {
		yieldEvery(i, 63)
		cur, ok := t.entries[entries[i].ID]
		if !ok || !sameEntry(cur, entries[i]) {
			return false
		}
	}
	return true
}

// RetainTenants forgets the entries of every tenant for which keep is false.
// LoadAll uses it for the tenants that no longer have any entry: their last
// deletion's notification may have been lost, and they are not among the
// tenants it reloads.
func (m *Matcher) RetainTenants(keep func(tenancy.TenantID) bool) {
	m.tenantsMu.Lock()
	defer m.tenantsMu.Unlock()
	m.tenants.Range(func(k, _ any) bool {
		if id := k.(tenancy.TenantID); !keep(id) {
			m.tenants.Delete(id)
		}
		return true
	})
}

func (m *Matcher) tenant(id tenancy.TenantID) *tenantIndex {
	if v, ok := m.tenants.Load(id); ok {
		return v.(*tenantIndex)
	}
	m.tenantsMu.Lock()
	defer m.tenantsMu.Unlock()
	if v, ok := m.tenants.Load(id); ok {
		return v.(*tenantIndex)
	}
	t := &tenantIndex{entries: make(map[string]Entry)}
	t.idx.Store(NewIndex(nil))
	m.tenants.Store(id, t)
	return t
}

// change applies fn to the entries under the tenant's lock, then builds the index of that
// snapshot with no lock held and swaps it in unless a later snapshot's index already is.
func (t *tenantIndex) change(pace *pacer, fn func(map[string]Entry)) {
	t.mu.Lock()
	fn(t.entries)
	es := make([]Entry, 0, len(t.entries))
	for _, e := range t.entries {
		yieldEvery(len(es), 63)
		es = append(es, e)
	}
	t.gen++
	gen := t.gen
	t.mu.Unlock()

	idx := buildIndex(sortByIDYielding(es), maphash.MakeSeed(), newTokenMemo(), pace)

	t.mu.Lock()
	defer t.mu.Unlock()
	if gen > t.swapped {
		t.swapped = gen
		t.idx.Store(idx)
	}
}

// sortByIDYielding returns es ordered by ID (IDs are distinct), as sort.Slice did, yielding its
// processor every few hundred microseconds: one sort of a 100,000-entry tenant list was tens of
// milliseconds that only the scheduler's 10 ms preemption interrupted (see yieldEvery). It
// sorts runs of 512 positions, then merges runs of positions pairwise (moving 4-byte
// positions, not entries), then gathers the entries in that order.
func sortByIDYielding(es []Entry) []Entry {
	if len(es) < 2 {
		return es
	}
	const run = 512
	pos := make([]int32, len(es))
	for i := range pos {
		pos[i] = int32(i)
	}
	less := func(a, b int32) int { return strings.Compare(es[a].ID, es[b].ID) }
	for i := 0; i < len(pos); i += run {
		slices.SortFunc(pos[i:min(i+run, len(pos))], less)
		runtime.Gosched()
	}
	buf := make([]int32, len(pos))
	for w := run; w < len(pos); w *= 2 {
		k := 0
		for lo := 0; lo < len(pos); lo += 2 * w {
			mid, hi := min(lo+w, len(pos)), min(lo+2*w, len(pos))
			i, j := lo, mid
			for ; k < hi; k++ { // k: the next position of buf to fill (lo at the start of each merge)
				yieldEvery(k, 1023)
				if j >= hi || (i < mid && es[pos[i]].ID < es[pos[j]].ID) {
					buf[k] = pos[i]
					i++
				} else {
					buf[k] = pos[j]
					j++
				}
			}
		}
		pos, buf = buf, pos
	}
	out := make([]Entry, len(es))
	for i, p := range pos {
		yieldEvery(i, 255)
		out[i] = es[p]
	}
	return out
}

// Search runs q over the global lists and tenantID's entries and returns the
// merged matches, best first, at most q.Limit. An empty tenantID searches
// the global lists only.
func (m *Matcher) Search(tenantID tenancy.TenantID, q Query) []Match {
	q = q.normalized()
	out := m.global.idx.Load().searchCached(q)
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
