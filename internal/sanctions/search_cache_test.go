package sanctions

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/tenancy"
)

// TestSearchCache: the matcher's remembered answers are the search's own, for the same query
// only (another threshold, entity type or country is searched afresh); a caller that changes
// the slice it got does not change the next answer; a list update or a tenant's new entry is
// seen at once (a new index, with an empty memory); and the memory stays within its bound.
func TestSearchCache(t *testing.T) {
	t.Parallel()
	m := NewMatcher()
	m.Replace(ListOFACSDN, []Entry{
		{ID: "ofac-sdn:1", SourceID: "1", List: ListOFACSDN, ListType: ListTypeSanctions, EntityType: EntityIndividual, Name: "Musa Danjuma KANO", Nationalities: []string{"NG"}},
		{ID: "ofac-sdn:2", SourceID: "2", List: ListOFACSDN, ListType: ListTypeSanctions, EntityType: EntityBusiness, Name: "Kano Danjuma Trading"},
	})
	ten := tenancy.TenantID("t")
	q := Query{Name: "Musa Danjuma Kano", Threshold: 0.8, Limit: 10}

	first := m.Search(ten, q)
	require.NotEmpty(t, first)
	uncached := m.global.idx.Load().Search(q)
	require.Equal(t, uncached, first)
	again := m.Search(ten, q)
	require.Equal(t, first, again, "a remembered answer is the search's")

	// The caller owns its slice.
	again[0].Score, again[0].EntryID = 0, "changed"
	require.Equal(t, uncached, m.Search(ten, q))

	// Another query is searched, not answered from the first's memory.
	for _, other := range []Query{
		{Name: q.Name, Threshold: 0.99, Limit: 10},
		{Name: q.Name, Threshold: 0.8, Limit: 10, EntityType: EntityBusiness},
		{Name: q.Name, Threshold: 0.8, Limit: 10, Country: "GB"},
		{Name: q.Name, Threshold: 0.8, Limit: 1},
	} {
		require.Equal(t, m.global.idx.Load().Search(other), m.Search(ten, other), "%+v", other)
	}

	// A tenant's new entry and a list update are seen by the next search.
	m.UpsertTenantEntry(ten, Entry{ID: "w-1", SourceID: "REF-1", List: "Local PEPs", ListType: ListTypePEP,
		EntityType: EntityIndividual, Name: "Musa Danjuma Kano"})
	require.Len(t, m.Search(ten, q), len(first)+1)
	m.Replace(ListOFACSDN, nil)
	got := m.Search(ten, q)
	require.Len(t, got, 1)
	require.Equal(t, "w-1", got[0].EntryID)

	// Bounded: far more distinct queries than it keeps.
	idx := m.global.idx.Load()
	for i := range searchCacheShards * searchCacheShardSize * 2 {
		idx.searchCached(Query{Name: fmt.Sprintf("Customer %d Adeyemi", i)})
	}
	n := 0
	for i := range idx.cache.shards {
		n += len(idx.cache.shards[i].m)
		require.LessOrEqual(t, len(idx.cache.shards[i].m), searchCacheShardSize)
	}
	require.Greater(t, n, searchCacheShardSize)
}
