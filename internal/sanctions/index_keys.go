package sanctions

// keyTable maps the hash of an index key to its span of postings by open
// addressing with linear probing. A probe usually reads one cache line
// holding both the hash and the span; a Go map reads its control word and
// its slot apart, and the search looks up a dozen keys per query token (the
// token, its deletions, its skeleton), most of them absent, so those misses
// were a tenth of the search's CPU time.
type keyTable struct {
	slots []keySlot
	mask  uint64
}

// keySlot is one entry; a span of n == 0 marks it empty (every key holds at
// least one posting).
type keySlot struct {
	h  uint64
	sp span
}

// newKeyTable sizes a table for n keys at a load of at most three quarters.
func newKeyTable(n int) keyTable {
	size := 8
	for size < n+n/3+1 {
		size <<= 1
	}
	return keyTable{slots: make([]keySlot, size), mask: uint64(size - 1)}
}

// put stores sp under h; h must not be in the table yet.
func (t *keyTable) put(h uint64, sp span) {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		if t.slots[i].sp.n == 0 {
			t.slots[i] = keySlot{h: h, sp: sp}
			return
		}
	}
}

// get returns the span stored under h.
func (t *keyTable) get(h uint64) (span, bool) {
	if len(t.slots) == 0 {
		return span{}, false
	}
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.sp.n == 0 {
			return span{}, false
		}
		if s.h == h {
			return s.sp, true
		}
	}
}
