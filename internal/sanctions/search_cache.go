package sanctions

import (
	"hash/maphash"
	"sync"
)

// The matcher's searches (Matcher.Search: screenings, KYC and KYB checks, the sanctions API) go
// through searchCached: an index remembers its answers to recent queries. An index never changes once built (a
// list update or a tenant's watchlist change builds a new one, with an empty memory), so a
// remembered answer is the answer the search would give again, to the last digit of its score.
//
// What it saves: a bank's screenings repeat their names. A customer sends many transfers, to
// the same few receivers; every one of them searched the lists again for the same two names,
// the screening engine's largest cost in the server (about 12 % of its CPU at 1,000
// screenings/s, docs/guide/screening.md "Performance design"). A search costs 20 to 200 µs; a
// remembered answer, a map lookup and the copy of a slice that is nearly always empty.
//
// The memory is bounded: searchCacheShards shards of at most searchCacheShardSize queries, an
// arbitrary one dropped when a shard is full (Go's map iteration starts at a random entry).
// Names are looked up by value: the same name with another threshold, limit, date of birth,
// country or entity type is another query.
const (
	searchCacheShards    = 16
	searchCacheShardSize = 2048
)

// searchCached is idx.Search through idx's memory of recent answers. Index.Search itself does
// not remember (the benchmarks and the evaluation measure the search).
func (idx *Index) searchCached(q Query) []Match {
	q = q.normalized()
	if ms, ok := idx.cache.get(q); ok {
		return ms
	}
	ms := idx.search(q, nil)
	idx.cache.put(q, ms)
	return ms
}

type searchCache struct {
	seed   maphash.Seed
	shards [searchCacheShards]searchCacheShard
}

type searchCacheShard struct {
	mu sync.Mutex
	m  map[Query][]Match
}

func newSearchCache() *searchCache { return &searchCache{seed: maphash.MakeSeed()} }

func (c *searchCache) shard(q *Query) *searchCacheShard {
	return &c.shards[maphash.String(c.seed, q.Name)%searchCacheShards]
}

// get returns a copy of q's remembered answer: callers own the slice a search returns (the
// matcher appends a tenant's matches to the global ones and sorts them). The copy is shallow:
// a match's Entry and its Explanation's slices are shared with the memory and, like Entry
// already, read only (every caller formats the explanation with String).
func (c *searchCache) get(q Query) ([]Match, bool) {
	s := c.shard(&q)
	s.mu.Lock()
	ms, ok := s.m[q]
	s.mu.Unlock()
	if !ok {
		return nil, false
	}
	return append([]Match(nil), ms...), true
}

// put remembers a copy of ms as q's answer.
func (c *searchCache) put(q Query, ms []Match) {
	kept := append([]Match(nil), ms...)
	s := c.shard(&q)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[Query][]Match)
	}
	if _, ok := s.m[q]; !ok && len(s.m) >= searchCacheShardSize {
		for k := range s.m {
			delete(s.m, k)
			break
		}
	}
	s.m[q] = kept
}
