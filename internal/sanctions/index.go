package sanctions

import (
	"hash/maphash"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// indexedName is one searchable name: an entry's primary name or one alias.
type indexedName struct {
	entry  int32
	alias  int32 // index into Entry.Aliases, -1 for the primary name
	weak   bool  // a weak (low-quality) alias
	tokens []token
	// comp[j] is tokens j and j+1 written as one word (Al Qaida → alqaida), so
	// a query that joins them matches; nil for one-token names.
	comp []token
	// comp3[j] is tokens j, j+1 and j+2 written as one word (Saif Al-Arab →
	// saifalarab), so a query that runs three listed words together matches;
	// nil for names of fewer than three tokens.
	comp3  []token
	strong int     // number of strong tokens
	weight float64 // sum of token weights
	maxW   float64 // the largest token weight
	// nWeak and weakW are the number of weak tokens and the largest weight
	// among them: a particle of the query can only match one of those.
	nWeak int
	weakW float64
	// long has a bit set for each strong token of six letters or more
	// (two edits may match it without a shared deletion key).
	long uint64
	// strongMask has a bit set for each strong token.
	strongMask uint64
	// weakLong: the name holds a weak word of five letters or more (not
	// indexed; a query token may match it with a typo).
	weakLong bool
	// longW and weakLongW: the weight of the long strong tokens, of the
	// weak tokens of five letters or more.
	longW, weakLongW float64
	// weakBits: the long weak words it holds (bits of longWeakTokens).
	weakBits uint64
	// firsts has bit c-'a' set when a token starts with letter c (an initial
	// in the query can only match those).
	firsts uint32
}

// Index is an immutable, searchable set of entries. Build it with NewIndex;
// it is safe for concurrent Search calls.
type Index struct {
	// pace paces the build (nil once built, and for a build nobody paces: pace.go).
	pace    *pacer
	entries []Entry
	names   []indexedName
	// hot[i] holds what the search's bound reads of names[i], packed so that
	// the thousands of names a query touches cost one cache line per two.
	hot []nameHot
	// briefs[i]: the bits of names[i] the filter of common tokens' postings
	// reads (search_common.go).
	briefs []uint64
	// initials[i] has bit c-'a' set for each one-letter token c of
	// names[i] (a query initial matches it exactly); read only for names
	// whose hot record says they hold one (nameHasInitial).
	initials []uint32
	// del maps the hash of each key to the names holding it, as a span of
	// postings. Keys are each strong canonical token and each of its
	// one-letter deletions (symmetric-delete candidate generation: a query
	// token hits any name token within edit distance ~2), the token without an
	// attached particle and its deletions, each pair of adjacent tokens joined,
	// and the romanisation skeleton of tokens and pairs (prefixed by
	// skelMark), and each run of three adjacent tokens joined (comp3). A
	// posting is name<<slotBits | slot, where the slot says which token (or
	// pair, compSlot+j, or triple, tripSlot+j) holds the key, so the search can bound a
	// name's score by the weight of what it hit. Neither holds a pointer, so
	// the garbage collector does not walk them (hundreds of thousands of
	// keys: as a map of strings to slices they made every collection's
	// marking slow every screening in flight). A hash collision only adds
	// candidates, which the scoring then rejects.
	del      keyTable
	postings []int32
	// postW[i] is the weight of the token or pair postings[i] points at, so
	// that the search reads it in sequence instead of chasing every name.
	postW []float32
	// heaviest maps the offset of each span of commonPostings postings or
	// more to its largest posting weight (commonUnit.wmax), which the
	// search would otherwise find by reading thousands of weights.
	heaviest map[uint32]float32
	// weights maps the hash of a canonical token to its rarity weight (weightOf).
	weights map[uint64]float32
	seed    maphash.Seed
	// cache remembers the answers of recent searches through the matcher (search_cache.go).
	cache   *searchCache
	scratch sync.Pool
}

// Posting layout: the low slotBits bits are a token position (< maxNameTokens),
// compSlot + the position of a joined pair's first token, or tripSlot + the
// position of a joined triple's first token.
const (
	slotBits = 8
	compSlot = 64
	tripSlot = 128
	slotMask = 1<<slotBits - 1
	// skelMark prefixes skeleton keys so that they never equal a spelling key.
	skelMark = '#'
)

// span is a run of Index.postings.
type span struct{ off, n uint32 }

// lookup returns the postings of the token or deletion key.
func (idx *Index) lookup(key []byte) []int32 {
	p, _ := idx.lookupW(key)
	return p
}

// lookupW returns the postings of a key and their weights.
func (idx *Index) lookupW(key []byte) ([]int32, []float32) {
	sp, ok := idx.del.get(maphash.Bytes(idx.seed, key))
	if !ok {
		return nil, nil
	}
	return idx.postings[sp.off : sp.off+sp.n], idx.postW[sp.off : sp.off+sp.n]
}

// lookupSpan returns the span of a key's postings (n == 0 when none).
func (idx *Index) lookupSpan(key []byte) span {
	sp, _ := idx.del.get(maphash.Bytes(idx.seed, key))
	return sp
}

// spanWeight is the weight of the token or joined pair a posting points at.
func (nm *indexedName) spanWeight(slot int32) float64 {
	if slot >= tripSlot {
		j := slot - tripSlot
		return nm.tokens[j].w + nm.tokens[j+1].w + nm.tokens[j+2].w
	}
	if slot >= compSlot {
		j := slot - compSlot
		return nm.tokens[j].w + nm.tokens[j+1].w
	}
	return nm.tokens[slot].w
}

// minDeleteLen is the shortest token whose deletions are indexed.
const minDeleteLen = 4

// Rarity weights (weightOf). A token held by at most rareDF entries weighs 1;
// the weight falls with the log of the number of entries holding it, to
// minTokenWeight. Below minWeightedEntries (a small tenant watchlist) every
// token weighs 1: a handful of entries says nothing about how common a name is.
const (
	rareDF             = 2
	minTokenWeight     = 0.25
	minWeightedEntries = 500
)

// NewIndex builds an index over entries (primary names and every alias).
// The entries are copied; names that normalise to nothing are skipped.
func NewIndex(entries []Entry) *Index {
	return buildIndex(entries, maphash.MakeSeed(), newTokenMemo(), nil)
}

// buildIndex is NewIndex with its hash seed, memo (nil: every name worked out afresh) and
// pacer (nil: the build only yields).
func buildIndex(entries []Entry, seed maphash.Seed, memo *tokenMemo, pace *pacer) *Index {
	idx := &Index{pace: pace, entries: copyYielding(entries), seed: seed, cache: newSearchCache()}
	defer func() { idx.pace = nil }()
	names := len(entries)
	for i := range entries {
		names += len(entries[i].Aliases)
	}
	// Sized once: an indexed name is a large struct, and growing the slice to 300,000 of them
	// (a 100,000-row import with two aliases a row) copied it a dozen times.
	idx.names = make([]indexedName, 0, names)
	for ei := range idx.entries {
		e := &idx.entries[ei]
		idx.addName(int32(ei), -1, false, e.Name, memo)
		for ai, a := range e.Aliases {
			idx.addName(int32(ei), int32(ai), a.Quality == AliasWeak, a.Name, memo)
		}
		idx.pace.every(ei, 7)
	}
	idx.weigh()
	idx.packHot()
	idx.packBriefs()
	idx.buildPostings(memo)
	n := len(idx.names)
	idx.scratch.New = func() any { return newScratch(n) }
	return idx
}

// weigh counts in how many entries each canonical token appears and weights
// every name token by its rarity (weightOf).
func (idx *Index) weigh() {
	df := map[string]int32{}
	last := map[string]int32{} // the last entry counted per token
	for i := range idx.names {
		idx.pace.every(i, 7)
		nm := &idx.names[i]
		for _, t := range nm.tokens {
			if e, ok := last[t.canon]; ok && e == nm.entry {
				continue
			}
			last[t.canon] = nm.entry
			df[t.canon]++
		}
	}
	idx.weights = make(map[uint64]float32, len(df))
	n := len(idx.entries)
	if n >= minWeightedEntries {
		full := math.Log(float64(n) / rareDF)
		k := 0
		for c, d := range df {
			idx.pace.every(k, 255)
			k++
			if d > rareDF {
				w := max(math.Log(float64(n)/float64(d))/full, minTokenWeight)
				idx.weights[maphash.String(idx.seed, c)] = float32(w)
			}
		}
	}
	for i := range idx.names {
		idx.pace.every(i, 7)
		nm := &idx.names[i]
		nm.weight, nm.maxW, nm.nWeak, nm.weakW, nm.longW, nm.weakLongW = 0, 0, 0, 0, 0, 0
		for ti := range nm.tokens {
			t := &nm.tokens[ti]
			t.w = idx.weightOf(*t)
			nm.weight += t.w
			nm.maxW = max(nm.maxW, t.w)
			if t.weak {
				nm.nWeak++
				nm.weakW = max(nm.weakW, t.w)
				if len(t.canon) >= 5 {
					nm.weakLongW += t.w
				}
			}
			if nm.long&(1<<ti) != 0 {
				nm.longW += t.w
			}
		}
		for j := range nm.comp {
			nm.comp[j].w = nm.tokens[j].w + nm.tokens[j+1].w
		}
		for j := range nm.comp3 {
			nm.comp3[j].w = nm.tokens[j].w + nm.tokens[j+1].w + nm.tokens[j+2].w
		}
	}
}

// weightOf is a token's rarity weight: 1 for a token at most rareDF entries
// hold (or none: a query token the lists do not know costs in full when it
// matches nothing), less the more entries hold it, at most weakWeight for a
// weak token.
func (idx *Index) weightOf(t token) float64 {
	w := 1.0
	if v, ok := idx.weights[maphash.String(idx.seed, t.canon)]; ok {
		w = float64(v)
	}
	if t.weak {
		w = min(w, weakWeight)
	}
	return w
}

// buildPostings fills del, postings, postW and heaviest from the names, in two passes over
// every name's keys (nameKeys): the first counts each key's postings, the second writes them
// into one array at the offsets the counts give. The build table holds no pointer and no key
// string: a map of each key (string) to its own slice of postings made millions of small
// allocations for a 100,000-entry list, and the garbage collector's work on them slowed every
// other tenant's screening while an import was indexed (docs/guide/watchlists.md "Import at scale").
// Each key's postings are in name order, as before; a posting repeated by the same name under
// the same key is kept once (the slot's last posting). A hash collision between two keys makes them share
// a span, which only adds candidates the scoring rejects.
func (idx *Index) buildPostings(memo *tokenMemo) {
	keys := newBuildTable(len(idx.names) * 4) // grown when short
	var buf []byte
	for id := range idx.names {
		buf = idx.nameKeys(int32(id), buf, memo, func(h uint64, p int32) {
			if s := keys.slot(h); s.last != p {
				s.n++
				s.last = p
			}
		})
		idx.pace.every(id, 7)
	}
	total := uint32(0)
	idx.del = newKeyTable(keys.count)
	for i := range keys.slots {
		idx.pace.every(i, 1023)
		s := &keys.slots[i]
		if !s.used {
			continue
		}
		idx.del.put(s.h, span{off: total, n: s.n})
		n := s.n
		s.off, s.n, s.last = total, 0, -1
		total += n
	}
	idx.postings = make([]int32, total)
	for id := range idx.names {
		buf = idx.nameKeys(int32(id), buf, memo, func(h uint64, p int32) {
			if s := keys.slot(h); s.last != p {
				idx.postings[s.off+s.n] = p
				s.n++
				s.last = p
			}
		})
		idx.pace.every(id, 7)
	}
	idx.postW = make([]float32, total)
	for i, p := range idx.postings {
		idx.pace.every(i, 1023)
		idx.postW[i] = float32(idx.names[p>>slotBits].spanWeight(p & slotMask))
	}
	idx.heaviest = map[uint32]float32{}
	for i, sl := range idx.del.slots {
		idx.pace.every(i, 1023)
		if sl.sp.n >= commonPostings {
			idx.heaviest[sl.sp.off] = slices.Max(idx.postW[sl.sp.off : sl.sp.off+sl.sp.n])
		}
	}
}

// The build and the parse yield every eight names, entries or rows (pace.every(i, 7): some
// tens of microseconds of work): an index build is seconds of CPU, and other tenants'
// screenings queued behind it would otherwise wait for the scheduler's 10 ms preemption. Every
// 64 names (about 0.6 ms, and several on a loaded machine) was too coarse: a screening hands its
// work from goroutine to goroutine several times, and waited at each.

// yieldEvery lets the goroutines waiting for this one's processor run at every mask+1-th
// iteration i of a loop (mask: a power of two less one, chosen so that mask+1 iterations are
// some tens of microseconds). Every step of an import and of an index build that loops over its
// rows, names, keys or postings yields so: a loop that does not runs until the scheduler
// preempts it, 10 ms, and goroutines queued on its processor (another tenant's screening) wait
// that long (the runtime's scheduling latency p99.9 was 12.6 ms during a 100,000-row import,
// 0.4 ms outside it: docs/guide/watchlists.md "Import at scale").
func yieldEvery(i, mask int) {
	if i&mask == mask {
		runtime.Gosched()
	}
}

// copyYielding is a copy of entries, copied a chunk at a time with a yield between chunks: one
// copy of 100,000 entries is a single non-preemptible move of tens of megabytes.
func copyYielding(entries []Entry) []Entry {
	if len(entries) == 0 {
		return nil // as append([]Entry(nil), entries...) gave
	}
	out := make([]Entry, len(entries))
	for i := 0; i < len(entries); i += 1024 {
		copy(out[i:], entries[i:min(i+1024, len(entries))])
		runtime.Gosched()
	}
	return out
}

// buildTable is the build's map of key hashes to their postings (open addressing, linear
// probing, grown at three quarters full); it holds no pointer, so the collector never scans it.
type buildTable struct {
	slots []buildSlot
	mask  uint64
	count int
}

// buildSlot is one key: its postings counted (n, first pass) or written (off and n, second
// pass), and the last posting added (to add a name's posting once).
type buildSlot struct {
	h      uint64
	off, n uint32
	last   int32
	used   bool
}

func newBuildTable(n int) *buildTable {
	size := 1024
	for size < n+n/3+1 {
		size <<= 1
	}
	return &buildTable{slots: make([]buildSlot, size), mask: uint64(size - 1)}
}

// slot returns h's slot, adding it (n 0, last -1) when absent (only in the first pass: the
// second meets the same keys).
func (t *buildTable) slot(h uint64) *buildSlot {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if !s.used {
			if (t.count+1)*4 > len(t.slots)*3 {
				t.grow()
				return t.slot(h)
			}
			t.count++
			*s = buildSlot{h: h, last: -1, used: true}
			return s
		}
		if s.h == h {
			return s
		}
	}
}

func (t *buildTable) grow() {
	old := t.slots
	t.slots = make([]buildSlot, 2*len(old))
	t.mask = uint64(len(t.slots) - 1)
	for _, s := range old {
		if !s.used {
			continue
		}
		for i := s.h & t.mask; ; i = (i + 1) & t.mask {
			if d := &t.slots[i]; !d.used {
				*d = s
				break
			}
		}
	}
}

func (idx *Index) addName(entry, alias int32, weak bool, name string, memo *tokenMemo) {
	toks := tokenizeMemo(foldName(name), memo)
	if len(toks) > maxNameTokens {
		toks = toks[:maxNameTokens]
	}
	var comp []token
	if len(toks) >= 2 {
		comp = make([]token, 0, len(toks)-1) // sized once: appending grew it from one
	}
	nm := indexedName{entry: entry, alias: alias, weak: weak, tokens: toks, comp: joinPairs(toks, comp),
		comp3: joinTriples(toks)}
	for i, t := range toks {
		if !t.weak && !t.initial() {
			nm.strong++
			nm.strongMask |= 1 << i
			if len(t.canon) >= 6 {
				nm.long |= 1 << i
			}
		}
		if t.weak && len(t.canon) >= 5 {
			nm.weakLong = true
			nm.weakBits |= longWeakBit(t.canon)
		}
		// An initial matches no weak token (particles match only exactly).
		if c := t.canon[0]; c >= 'a' && c <= 'z' && !t.weak {
			nm.firsts |= 1 << (c - 'a')
		}
	}
	if nm.strong == 0 {
		return // nothing that may match on its own
	}
	idx.names = append(idx.names, nm)
}

// nameKeys hands fn the hash and the posting of each key of one name (see Index.del), in
// order, building each key in buf (reused; returned grown). A token's keys' hashes come from
// memo when it is not nil (a list repeats its words: tokenMemo).
func (idx *Index) nameKeys(id int32, buf []byte, memo *tokenMemo, fn func(h uint64, p int32)) []byte {
	nm := &idx.names[id]
	seed := idx.seed
	for ti, t := range nm.tokens {
		if t.weak || t.initial() {
			continue
		}
		p := id<<slotBits | int32(ti)
		if memo != nil {
			for _, h := range memo.tokenHashes(seed, t) {
				fn(h, p)
			}
			continue
		}
		buf = tokenKeys(t, buf, func(k []byte) { fn(maphash.Bytes(seed, k), p) })
	}
	for j, c := range nm.comp {
		if c.canon == "" {
			continue
		}
		p := id<<slotBits | int32(compSlot+j)
		buf = append(buf[:0], c.canon...)
		fn(maphash.Bytes(seed, buf), p)
		if len(c.skel) >= 3 {
			buf = append(append(buf[:0], skelMark), c.skel...)
			fn(maphash.Bytes(seed, buf), p)
		}
	}
	for j, c := range nm.comp3 {
		if c.canon != "" {
			buf = append(buf[:0], c.canon...)
			fn(maphash.Bytes(seed, buf), id<<slotBits|int32(tripSlot+j))
		}
	}
	return buf
}

// tokenKeys hands fn each key of strong token t (see Index.del) as bytes in buf (reused;
// returned grown): the token and its deletions, the same without an attached particle, the
// spelling as listed, and its skeleton.
func tokenKeys(t token, buf []byte, fn func([]byte)) []byte {
	buf = forDeleteKeys(t.canon, buf, fn)
	if t.bare != "" {
		buf = forDeleteKeys(t.bare, buf, fn)
	}
	if t.raw != t.canon && skeleton(t.raw) != "" { // the spelling as listed, for typos of it (Moahmed ~ Mohamed)
		buf = forDeleteKeys(t.raw, buf, fn)
	}
	if len(t.skel) >= 3 {
		buf = append(append(buf[:0], skelMark), t.skel...)
		fn(buf)
	}
	return buf
}

// joinPairs appends to buf, for each pair of adjacent tokens, the two written
// as one word (an empty token where either is an initial or both are weak:
// such pairs are not joined).
func joinPairs(toks []token, buf []token) []token {
	if len(toks) < 2 {
		return buf
	}
	for j := 0; j+1 < len(toks); j++ {
		a, b := toks[j], toks[j+1]
		if a.initial() || b.initial() || (a.weak && b.weak) || len(a.raw)+len(b.raw) > maxJoinedLen {
			buf = append(buf, token{})
			continue
		}
		buf = append(buf, joinPair(a, b))
	}
	return buf
}

// joinPair is adjacent tokens a and b written as one word.
func joinPair(a, b token) token {
	// The joined spelling is canonicalised again (Moha med → mohamed → muhammad).
	canon := a.canon + b.canon
	raw := a.raw + b.raw
	if oneWord(a, b) {
		// Two tokens canonicalize split from one written word
		// (Abdulalhi → abd + alhi): joined, they are that word.
		raw = a.raw
	} else {
		canon = joinedCanon(raw, []token{a, b})
	}
	c := newToken(raw, canon)
	c.weak = false
	c.w = a.w + b.w
	return c
}

// maxJoinedLen is the longest joined pair or triple (as written) that is
// indexed and compared; two long words run together
// (OBEDINENNAYADVIGATELESTROITELNAYA, 33 letters) are within it.
const maxJoinedLen = 48

// joinedCanon is the canonical spelling of tokens ts written as one word
// raw. When canonicalize splits that word (an abd… compound), it is its
// pieces run together: Abdullah Ragab written as one word is abd + lahragab,
// so the pair is abdlahragab, the spelling of a query that joins it (before,
// abdullahragab, which no query token can be: a written abd… word is always
// split). When a token is itself a piece of a split word, the tokens' own
// spellings run together (Abdelrah man: rah + man is rahman).
func joinedCanon(raw string, ts []token) string {
	cs := canonicalize(raw)
	if len(cs) == 1 {
		return cs[0]
	}
	if slices.ContainsFunc(ts, func(t token) bool { return t.piece }) {
		cs = cs[:0]
		for _, t := range ts {
			cs = append(cs, t.canon)
		}
	}
	return strings.Join(cs, "")
}

// joinTriples returns, for each run of three adjacent tokens, the three
// written as one word (Saif Al Arab → saifalarab), nil for names under three
// tokens; an empty token where one is an initial, two are weak, or the run
// is longer than maxJoinedLen. Tokens canonicalize split from one word
// (abd + rahman) add their word once.
func joinTriples(toks []token) []token {
	if len(toks) < 3 {
		return nil
	}
	out := make([]token, len(toks)-2)
	for j := range out {
		ts := toks[j : j+3]
		nWeak, raw := 0, ""
		ok := true
		for k, t := range ts {
			if t.initial() {
				ok = false
			}
			if t.weak {
				nWeak++
			}
			if k == 0 || !t.cont {
				raw += t.raw
			}
		}
		if !ok || nWeak > 1 || len(raw) > maxJoinedLen {
			continue
		}
		c := newToken(raw, joinedCanon(raw, ts))
		c.weak = false
		out[j] = c
	}
	return out
}

// oneWord reports whether adjacent tokens a and b are one written word that
// canonicalize split (abd + rahman from Abdelrahman): both carry the word as
// their raw spelling, and b continues a's word.
func oneWord(_, b token) bool { return b.cont }

// wordSpan returns the first and last token of the written word token i
// belongs to (i, i for a word canonicalize did not split).
func (nm *indexedName) wordSpan(i int) (int, int) {
	s, e := i, i
	for s > 0 && nm.tokens[s].cont {
		s--
	}
	for e+1 < len(nm.tokens) && nm.tokens[e+1].cont {
		e++
	}
	return s, e
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

// minTwoDeleteLen is the shortest query token whose two-letter deletions
// the search looks up when nothing else found it (two edits score
// simTypo2Long from nine letters).
const minTwoDeleteLen = 9

// forDelete2Keys hands fn each distinct two-letter deletion of s (as bytes
// in buf, reused).
func forDelete2Keys(s string, buf []byte, fn func([]byte)) []byte {
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] == s[i-1] {
			continue
		}
		for j := i + 1; j < len(s); j++ {
			if j > i+1 && s[j] == s[j-1] {
				continue
			}
			buf = append(append(append(buf[:0], s[:i]...), s[i+1:j]...), s[j+1:]...)
			fn(buf)
		}
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
	// acc holds, per name, what the query's units hit (nameAcc).
	acc     []nameAcc
	touched []int32
	utouch  []int32
	keyBuf  []byte              // deletion keys of the query tokens
	qcomp   []token             // the query's joined pairs
	pairs   []pairSim           // token alignments of the scored candidates
	best    map[int32]candidate // best candidate per entry
	ranked  []candidate
	// cseen and cmulti: working space of markMulti and the names two common
	// units or more hit, one bit per name; zero between searches.
	cseen, cmulti []uint64
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
	return &scratch{acc: make([]nameAcc, n),
		best: map[int32]candidate{}, cseen: make([]uint64, (n+63)/64), cmulti: make([]uint64, (n+63)/64)}
}

func (s *scratch) reset() {
	for _, id := range s.touched {
		s.acc[id] = nameAcc{}
	}
	s.touched = s.touched[:0]
	s.utouch = s.utouch[:0]
	s.qcomp = s.qcomp[:0]
	s.pairs = s.pairs[:0]
	clear(s.best)
	s.ranked = s.ranked[:0]
}

// nameAcc is one name's accumulator during a search, kept in one struct so
// that a posting visit touches one cache line. hitN is the name weight the
// query's units hit (the heaviest per unit, summed over units), hitS the weight
// of the distinct name tokens hit (slots), hitQ the query weight of the units
// that hit; umark and ucur track the current unit.
type nameAcc struct {
	slots                  uint64
	hitN, hitS, hitQ, ucur float32
	umark                  int32
	units                  uint8 // the number of units that hit the name
	// wordPair: the current unit, one written word of the query split in
	// two, hit a joined pair or triple of the name (counted as two units).
	wordPair bool
	qmask    uint16 // the query tokens those units cover
}

// nameHot is the part of an indexed name the search bound reads for every
// name a query touches (see indexedName; float32 like the postings).
type nameHot struct {
	weight, maxW, weakW, longW, weakLongW float32
	firsts                                uint32
	// firstsHeavy: the first letters of the tokens weighing at least
	// heavyWeight (an initial matching another letter adds less).
	firstsHeavy   uint32
	longLens      uint16 // lenBits of the long strong tokens
	strong, nWeak uint8
}

// heavyWeight splits a name's first letters for the initials bound.
const heavyWeight = 0.6

// nameHasInitial is set in nameHot.firsts (above the 26 letters) when the
// name holds a one-letter token: Index.initials says which.
const nameHasInitial = 1 << 31

// nameTwoWords is set in nameHot.firsts when the name's strong tokens are
// two written words, one of them split by canonicalize (an abd… compound).
const nameTwoWords = 1 << 30

// packHot fills idx.hot from idx.names (after weigh).
func (idx *Index) packHot() {
	idx.hot = make([]nameHot, len(idx.names))
	idx.initials = make([]uint32, len(idx.names))
	for i := range idx.names {
		idx.pace.every(i, 7)
		nm := &idx.names[i]
		idx.hot[i] = nameHot{weight: float32(nm.weight), maxW: float32(nm.maxW), weakW: float32(nm.weakW),
			longW: float32(nm.longW), weakLongW: float32(nm.weakLongW), firsts: nm.firsts,
			strong: uint8(min(nm.strong, 255)), nWeak: uint8(min(nm.nWeak, 255))}
		for _, t := range nm.tokens {
			if c := t.canon[0]; c >= 'a' && c <= 'z' && !t.weak && t.w >= heavyWeight {
				idx.hot[i].firstsHeavy |= 1 << (c - 'a')
			}
			if t.initial() {
				idx.initials[i] |= 1 << (t.canon[0] - 'a')
				idx.hot[i].firsts |= nameHasInitial
			}
		}
		for fl := nm.long; fl != 0; fl &= fl - 1 {
			l := len(nm.tokens[bits.TrailingZeros64(fl)].canon)
			idx.hot[i].longLens |= uint16(lenBits(l, l))
		}
		// Two strong written words, one of them split (Oman Abd + urrahman):
		// the long-token route to a second strong pair applies as to two
		// strong tokens (nameScore pairs the word as written), reading the
		// tokens (longLens holds the pieces' lengths, not the word's).
		words := 0
		for ti, t := range nm.tokens {
			if nm.strongMask&(1<<ti) != 0 && !t.cont {
				words++
			}
		}
		if words == 2 && nm.strong > 2 {
			idx.hot[i].firsts |= nameTwoWords
		}
	}
}
