package sanctions

import (
	"hash/maphash"
	"slices"
	"sync"
)

// indexedName is one searchable name: an entry's primary name or one alias.
type indexedName struct {
	entry  int32
	alias  int32 // index into Entry.Aliases, -1 for the primary name
	weak   bool  // a weak (low-quality) alias
	tokens []token
	strong int     // number of strong tokens
	weight float64 // sum of token weights
}

// Index is an immutable, searchable set of entries. Build it with NewIndex;
// it is safe for concurrent Search calls.
type Index struct {
	entries []Entry
	names   []indexedName
	// del maps the hash of each strong canonical token and of each of its
	// one-letter deletions to the names holding it, as a span of postings
	// (symmetric-delete candidate generation: a query token hits any name
	// token within edit distance ~2). Neither holds a pointer, so the garbage
	// collector does not walk them (hundreds of thousands of keys: as a map of
	// strings to slices they made every collection's marking slow every
	// screening in flight). A hash collision only adds candidates, which the
	// scoring then rejects.
	del      map[uint64]span
	postings []int32
	seed     maphash.Seed
	scratch  sync.Pool
}

// span is a run of Index.postings.
type span struct{ off, n uint32 }

// lookup returns the names holding the token or deletion key.
func (idx *Index) lookup(key []byte) []int32 {
	sp, ok := idx.del[maphash.Bytes(idx.seed, key)]
	if !ok {
		return nil
	}
	return idx.postings[sp.off : sp.off+sp.n]
}

// minDeleteLen is the shortest token whose deletions are indexed.
const minDeleteLen = 4

// NewIndex builds an index over entries (primary names and every alias).
// The entries are copied; names that normalise to nothing are skipped.
func NewIndex(entries []Entry) *Index {
	idx := &Index{entries: append([]Entry(nil), entries...), seed: maphash.MakeSeed()}
	del := make(map[string][]int32)
	for ei := range idx.entries {
		e := &idx.entries[ei]
		idx.addName(del, int32(ei), -1, false, e.Name)
		for ai, a := range e.Aliases {
			idx.addName(del, int32(ei), int32(ai), a.Quality == AliasWeak, a.Name)
		}
	}
	idx.freeze(del)
	n := len(idx.names)
	idx.scratch.New = func() any { return newScratch(n) }
	return idx
}

// freeze turns the build-time map of keys to names into the hashed spans of one postings array.
func (idx *Index) freeze(del map[string][]int32) {
	total := 0
	for _, l := range del {
		total += len(l)
	}
	idx.del = make(map[uint64]span, len(del))
	idx.postings = make([]int32, 0, total)
	byHash := make(map[uint64][]int32, len(del))
	for k, l := range del {
		h := maphash.String(idx.seed, k)
		if prev, ok := byHash[h]; ok { // a collision: the span holds both keys' names
			l = append(append([]int32(nil), prev...), l...)
			slices.Sort(l)
			l = slices.Compact(l)
		}
		byHash[h] = l
	}
	for h, l := range byHash {
		idx.del[h] = span{off: uint32(len(idx.postings)), n: uint32(len(l))}
		idx.postings = append(idx.postings, l...)
	}
}

func (idx *Index) addName(del map[string][]int32, entry, alias int32, weak bool, name string) {
	toks := tokenize(name)
	if len(toks) > maxNameTokens {
		toks = toks[:maxNameTokens]
	}
	nm := indexedName{entry: entry, alias: alias, weak: weak, tokens: toks}
	for _, t := range toks {
		nm.weight += t.weight()
		if !t.weak && !t.initial() {
			nm.strong++
		}
	}
	if nm.strong == 0 {
		return // nothing that may match on its own
	}
	id := int32(len(idx.names))
	idx.names = append(idx.names, nm)
	for _, t := range toks {
		if t.weak || t.initial() {
			continue
		}
		forDeletes(t.canon, func(k string) { del[k] = appendOnce(del[k], id) })
	}
}

// appendOnce appends id unless it is already the last element (a name's
// tokens are added consecutively, so that dedupes within a name).
func appendOnce(list []int32, id int32) []int32 {
	if n := len(list); n > 0 && list[n-1] == id {
		return list
	}
	return append(list, id)
}

// forDeletes calls fn with s and, for tokens of minDeleteLen or more, every
// string obtained by deleting one byte.
func forDeletes(s string, fn func(string)) {
	fn(s)
	if len(s) < minDeleteLen {
		return
	}
	buf := make([]byte, len(s)-1)
	for i := 0; i < len(s); i++ {
		copy(buf, s[:i])
		copy(buf[i:], s[i+1:])
		if i > 0 && s[i] == s[i-1] {
			continue // same result as the previous deletion
		}
		fn(string(buf))
	}
}

// forDeleteKeys is forDeletes for lookups: it hands fn each key as bytes in buf (reused), so a
// search makes no string per deletion (a map index with string(b) does not allocate).
func forDeleteKeys(s string, buf []byte, fn func([]byte)) []byte {
	buf = append(buf[:0], s...)
	fn(buf)
	if len(s) < minDeleteLen {
		return buf
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] == s[i-1] {
			continue // same result as the previous deletion
		}
		buf = append(append(buf[:0], s[:i]...), s[i+1:]...)
		fn(buf)
	}
	return buf
}

// Len returns the number of entries in the index.
func (idx *Index) Len() int { return len(idx.entries) }

// Names returns the number of searchable names (primary names and aliases).
func (idx *Index) Names() int { return len(idx.names) }

// Entries returns the indexed entries. The slice is shared; do not modify it.
func (idx *Index) Entries() []Entry { return idx.entries }

// scratch is per-search working memory, pooled per Index.
type scratch struct {
	hit     []float64 // query weight that hit each name
	mark    []int32   // last query token (1-based) that hit each name
	touched []int32
	keyBuf  []byte              // deletion keys of the query tokens
	pairs   []pairSim           // token alignments of the scored candidates
	best    map[int32]candidate // best candidate per entry
	ranked  []candidate
}

// candidate is a scored name kept for the answer; its explanation is built only if it is
// among the matches returned.
type candidate struct {
	name      int32
	score     float64 // final, with evidence
	nameScore float64 // the alignment's, before evidence
	pairs     []pairSim
}

func newScratch(n int) *scratch {
	return &scratch{hit: make([]float64, n), mark: make([]int32, n), best: map[int32]candidate{}}
}

func (s *scratch) reset() {
	for _, id := range s.touched {
		s.hit[id] = 0
		s.mark[id] = 0
	}
	s.touched = s.touched[:0]
	s.pairs = s.pairs[:0]
	clear(s.best)
	s.ranked = s.ranked[:0]
}
