package sanctions

// A query's common tokens (muhammad, abd: held by commonPostings names or
// more) are probed last and hit thousands of names, nearly none of which is
// scored: the bound loop drops them, most at one of its first two tests.
//
//   - The second strong pair: when both sides hold two strong tokens,
//     nameScore needs two strong pairs, and a name one common token hit has
//     one (plus an initial of the query whose letter starts a token of the
//     name, plus repeated query tokens).
//   - The bound without allowances: what one common token matched cannot
//     reach the threshold, and the name has none of the routes the packed
//     check allows for (a long token two edits may reach, a long weak word,
//     an initial's letter).
//
// A name that no unit before the common ones touched and that only one
// common unit hits is tested here from its brief (one word, 8 bytes a name)
// and the weight of its postings, and left out when one of the two tests
// would drop it: it is then never added to the touched names (no
// accumulator write, no packed-record read in the bound loop, no reset).

// nameBrief bits above the 26 first letters (nameHot.firsts) and the 16 long
// lengths (nameHot.longLens, from bit briefLens).
const (
	briefLens = 26
	// briefPair: the name holds two strong tokens or more.
	briefPair = 1 << 42
	// briefRoute: the name holds exactly two strong tokens, or two strong
	// written words one of them split (nameTwoWords): the bound may find its
	// second pair by two edits from a long query token (longPairReachable).
	briefRoute = 1 << 43
	// briefWeakLong: the name holds a long weak word (nameHot.weakLongW > 0).
	briefWeakLong = 1 << 44
)

// packBriefs fills idx.briefs from idx.hot (after packHot).
func (idx *Index) packBriefs() {
	idx.briefs = make([]uint64, len(idx.hot))
	for i := range idx.hot {
		idx.pace.every(i, 1023)
		h := &idx.hot[i]
		b := uint64(h.firsts&(1<<26-1)) | uint64(h.longLens)<<briefLens
		if h.strong >= 2 {
			b |= briefPair
		}
		if h.strong == 2 || h.firsts&nameTwoWords != 0 {
			b |= briefRoute
		}
		if h.weakLongW > 0 {
			b |= briefWeakLong
		}
		idx.briefs[i] = b
	}
}

// commonDrop is the per-query part of the tests.
type commonDrop struct {
	// pair: the second-pair test applies (two strong query tokens or more,
	// no repeated one).
	pair bool
	// keep: brief bits that keep a name from either test (a route to the
	// second pair, an initial's letter).
	keep uint64
	// lens[k] and firsts[k]: the bound test's route bits for a name only
	// common unit k hit, the lengths and first letters of the long counted
	// query tokens other than unit k's own (which the name's hit covers).
	lens, firsts [maxQueryTokens]uint64
	// cut[k]: a name only common unit k hit, no heavier there, fails the
	// bound without allowances (≤ 0: the test does not apply).
	cut [maxQueryTokens]float64
	// multi: the names two common units or more hit (one bit each), nil
	// when there is one common unit.
	multi []uint64
}

// drops reports whether the name id, not touched before and hit by common
// unit k at weight at most w, would be dropped by the bound loop.
func (d *commonDrop) drops(b uint64, id int32, k int, w float32) bool {
	if b&d.keep != 0 || d.multi != nil && d.multi[id>>6]&(1<<(id&63)) != 0 {
		return false
	}
	if d.pair && b&briefPair != 0 {
		return true
	}
	return float64(w) < d.cut[k] && b&briefWeakLong == 0 && (b&d.lens[k] == 0 || b&d.firsts[k] == 0)
}

// setCut sets the bound test's weight cut of common unit k: with m the name
// weight matched (at most w, plus a for repeated tokens, particles and long
// weak words of the query at weakWeight) and u the query weight no unit
// covers (at least uq), the bound 2m / (1.5m + u + W/2) is at most
// 2m / (2m + u) (the name weighs W ≥ m), under floor when m < floor·u /
// (2(1 − floor)).
func (d *commonDrop) setCut(k int, uq, a, floor float64) {
	d.cut[k] = 0
	if floor > 0 && floor < 1 {
		d.cut[k] = floor*max(uq, 0)/(2*(1-floor)) - a - 1e-4
	}
}

// markMulti sets in multi the names that two or more of the common units
// hit, with seen as working space; both must be zero on entry, seen is
// zero again on return. A key's postings are in name order, a name's own
// adjacent.
func markMulti(common []commonUnit, seen, multi []uint64) {
	for _, c := range common {
		prev := int32(-1)
		for _, p := range c.ps {
			id := p >> slotBits
			if id == prev {
				continue
			}
			prev = id
			w, b := id>>6, uint64(1)<<(id&63)
			multi[w] |= seen[w] & b
			seen[w] |= b
		}
	}
	clear(seen)
}
