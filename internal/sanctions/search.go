package sanctions

import (
	"cmp"
	mbits "math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Search defaults and limits (docs/design/design-choices.md §10).
const (
	DefaultThreshold = 0.75
	DefaultLimit     = 10
	MaxLimit         = 100
	// maxQueryTokens and maxNameTokens bound the alignment (bit sets of 64).
	maxQueryTokens = 16
	maxNameTokens  = 48
	// weakAliasFactor caps a weak alias's score below the BLOCK band.
	weakAliasFactor = 0.93
)

// roundSlack: a score is reported rounded to three decimals (round3), so a
// raw score this much under the threshold is kept; every test before the
// final one (the bound, the raw score) allows for it, or searching at a
// threshold would drop what searching lower and filtering keeps.
const roundSlack = 0.0005

// commonPostings is the number of names holding a token above which the
// search does not probe the token's deletions.
const commonPostings = 400

// Query is one name search.
type Query struct {
	Name string
	// EntityType, when set, restricts the search: INDIVIDUAL matches
	// individuals only; BUSINESS matches businesses, vessels and aircraft.
	EntityType EntityType
	// DateOfBirth ("YYYY-MM-DD" or "YYYY") is optional evidence.
	DateOfBirth string
	// Country (name or ISO 3166 alpha-2 code) is optional evidence, checked
	// against the entry's nationalities and address countries.
	Country string
	// Threshold is the minimum score, default DefaultThreshold.
	Threshold float64
	// Limit is the maximum number of matches, default DefaultLimit, at most MaxLimit.
	Limit int
}

func (q Query) normalized() Query {
	if q.Threshold <= 0 {
		q.Threshold = DefaultThreshold
	}
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit > MaxLimit {
		q.Limit = MaxLimit
	}
	return q
}

// Match is one hit: an entry and the name of it that matched.
type Match struct {
	// Entry points into the index; do not modify it.
	Entry       *Entry
	List        string
	ListType    ListType
	EntryID     string
	SourceID    string
	Name        string
	MatchedName string
	// Score in [0,1] after evidence adjustments; see Band.
	Score       float64
	Explanation Explanation
}

// Search returns the entries whose primary name or an alias scores at least
// q.Threshold against q.Name, best first (ties by entry id), at most q.Limit,
// one match per entry (its best name).
func (idx *Index) Search(q Query) []Match { return idx.search(q, nil) }

// searchStats counts a search's work (tests only: Search passes nil).
type searchStats struct {
	touched int // names some unit hit
	scored  int // names the bound let through to nameScore
	detail  int // names the packed record did not settle (their tokens read)
	// keepCommon turns the common-token filter off (search_common.go), to
	// check that it leaves out only names the bound loop drops.
	keepCommon bool
}

// search is Search, counting into st when it is not nil. It searches each
// reading of the name (foldQuery: the folded name, then leet 1 as l, then a
// name written wholly in lookalike letters folded) and keeps each entry's best.
func (idx *Index) search(q Query, st *searchStats) []Match {
	q = q.normalized()
	rs := foldQuery(q.Name)
	out := idx.searchFolded(q, rs[0], st)
	for _, r := range rs[1:] {
		out = mergeReadings(out, idx.searchFolded(q, r, st), q.Limit)
	}
	return out
}

// searchFolded is search of one reading of q.Name.
func (idx *Index) searchFolded(q Query, r reading, st *searchStats) []Match {
	qt := tokenizeFolded(r.text)
	if len(qt) > maxQueryTokens {
		qt = qt[:maxQueryTokens]
	}
	var shortQ uint32 // counted tokens that may be a particle misspelt (bits)
	for i := range qt {
		qt[i].w = idx.weightOf(qt[i])
		qt[i].ptypo = qt[i].particleTypo()
	}
	// Strong query tokens generate candidates; initials, weak and repeated
	// tokens do not (the bound below assumes they may match anything).
	qStrong, wCounted, wRepeated := 0, 0.0, 0.0
	nParticles, nWeakLong, nRepeated := 0, 0, 0
	var initials []byte
	// costQ is what each counted query token costs when it matches nothing.
	var costQ [maxQueryTokens]float32
	// qLens and qFirst: the lengths (lenBits) a long query token may
	// reach by two edits, and its first letter.
	var qLens, qFirst [maxQueryTokens]uint32
	var counted, longQ uint32 // the counted query tokens, those of six letters or more (bits)
	for i, t := range qt {
		switch {
		case t.initial():
			initials = append(initials, t.canon[0])
		case t.weak && len(t.canon) < 5:
			nParticles++
		case t.weak:
			nWeakLong++
		case seenCanon(qt[:i], t.canon):
			wRepeated += t.w
			nRepeated++
			qStrong++
		default:
			qStrong++
			wCounted += t.unmatchedCost()
			costQ[i] = float32(t.unmatchedCost())
			counted |= 1 << i
			if t.ptypo {
				shortQ |= 1 << i
			}
			if len(t.canon) >= 6 {
				longQ |= 1 << i
				qLens[i] = lenBits(len(t.canon)-2, len(t.canon)+2+b2i(len(t.canon) >= 12))
				// Its first letter; also its second when the letter before
				// is a one-letter token that with the first letter makes
				// a particle: a hyphen that slid by one letter
				// (A-LKHASHPBAN for AL-KHASHIBAN; tokenSim allows two
				// edits at the front). Only there: second letters are
				// mostly vowels, which the names' first letters nearly
				// always hold.
				n := 1
				if i > 0 && qt[i-1].initial() && weakTokens[qt[i-1].canon+t.canon[:1]] {
					n = 2
				}
				for _, c := range []byte(t.canon[:n]) {
					if c >= 'a' && c <= 'z' {
						qFirst[i] |= 1 << (c - 'a')
					}
				}
			}
		}
	}
	if qStrong == 0 || len(idx.names) == 0 {
		return nil
	}
	s := idx.scratch.Get().(*scratch)
	defer func() { s.reset(); idx.scratch.Put(s) }()
	s.qcomp = joinPairs(qt, s.qcomp[:0])

	// Candidate generation, one unit at a time: each strong query token (its
	// spelling and one-letter deletions, the same without an attached
	// particle, its skeleton) and each pair of adjacent query tokens joined
	// (Bin Laden → binladen). Phonetic keys are too coarse for generation
	// (muhammad and mahmud share one); they only refine the score of
	// candidates found here. Per name, the search keeps the name weight the
	// units hit (the heaviest per unit) and the query weight of those units.
	unit := int32(0)
	var commonBuf [maxQueryTokens]commonUnit
	common := commonBuf[:0]
	noNew := false // visit raises only the names already touched
	// drop: visit leaves out the untouched names that only common unit
	// dropK hits and that the bound loop would drop (search_common.go);
	// dropK < 0 when off.
	var drop commonDrop
	dropK := -1
	// wordUnit: the unit is one written word canonicalize split (an abd…
	// compound); a listed pair it hits is two strong pairs (nameScore).
	wordUnit := false
	visit := func(list []int32, ws []float32) {
		acc := s.acc
		for i := 0; i < len(list); i++ {
			p := list[i]
			id := p >> slotBits
			a := &acc[id]
			if (noNew || dropK >= 0) && a.umark == 0 {
				if noNew {
					continue
				}
				// The name's postings of this unit are adjacent: the
				// heaviest of them is what the unit can add.
				j, wmax := i+1, ws[i]
				for ; j < len(list) && list[j]>>slotBits == id; j++ {
					wmax = max(wmax, ws[j])
				}
				if drop.drops(idx.briefs[id], id, dropK, wmax) {
					i = j - 1
					continue
				}
			}
			w := ws[i]
			// The distinct name tokens hit, each counted once however many
			// query tokens hit it (a second bound on the matched weight).
			sl := p & slotMask
			bits := slotTokens[sl]
			if nb := bits &^ a.slots; nb != 0 {
				if a.umark == 0 {
					a.hitS = 0
				}
				a.slots |= nb
				if nb == bits && sl < compSlot {
					a.hitS += w
				} else {
					toks := idx.names[id].tokens
					for nb != 0 {
						j := mbits.TrailingZeros64(nb)
						a.hitS += float32(toks[j].w)
						nb &= nb - 1
					}
				}
			}
			if a.umark != unit {
				if a.umark == 0 {
					s.touched = append(s.touched, id)
				}
				a.umark = unit
				a.units++
				a.wordPair = false
				a.ucur = w
				s.utouch = append(s.utouch, id)
			} else if w > a.ucur {
				a.ucur = w
			}
			if wordUnit && sl >= compSlot && !a.wordPair {
				a.wordPair = true
				a.units++
			}
		}
	}
	// endUnit closes a unit covering the query tokens qm: a token covered by
	// two units (a token and a joined pair holding it) is counted once.
	endUnit := func(qm uint16) {
		for _, id := range s.utouch {
			a := &s.acc[id]
			a.hitN += a.ucur
			for nb := qm &^ a.qmask; nb != 0; nb &= nb - 1 {
				a.hitQ += costQ[mbits.TrailingZeros16(nb)]
			}
			a.qmask |= qm
		}
		s.utouch = s.utouch[:0]
	}
	// A skeleton hundreds of names share (mahamad: every Muhammad) is not
	// probed: the names it would add are found by their spelling if they are
	// the same name, and would only be scored to be rejected if not.
	probeSkel := func(sk string) {
		if len(sk) >= 3 {
			s.keyBuf = append(append(s.keyBuf[:0], skelMark), sk...)
			if ps, ws := idx.lookupW(s.keyBuf); len(ps) < commonPostings {
				visit(ps, ws)
			}
		}
	}
	for qi, t := range qt {
		if t.weak || t.initial() || seenCanon(qt[:qi], t.canon) {
			// A repeated token (Muhammad … Muhammad) would hit the same
			// names twice and defeat the bound below; it still scores.
			continue
		}
		unit++
		// A token hundreds of names hold (muhammad, abd) is probed as
		// spelled only: its deletions, listed spellings and skeleton would
		// revisit the same names many times over, and a misspelt listed copy
		// of so common a token weighs too little to matter.
		s.keyBuf = append(s.keyBuf[:0], t.canon...)
		if sp := idx.lookupSpan(s.keyBuf); sp.n >= commonPostings {
			common = append(common, commonUnit{idx.postings[sp.off : sp.off+sp.n], idx.postW[sp.off : sp.off+sp.n],
				int8(qi), idx.heaviest[sp.off]})
			unit--
			continue
		}
		s.keyBuf = forDeleteKeys(t.canon, s.keyBuf, func(k []byte) { visit(idx.lookupW(k)) })
		if t.bare != "" {
			s.keyBuf = forDeleteKeys(t.bare, s.keyBuf, func(k []byte) { visit(idx.lookupW(k)) })
		}
		if t.raw != t.canon && len(t.raw) < 32 {
			s.keyBuf = forDeleteKeys(t.raw, s.keyBuf, func(k []byte) { visit(idx.lookupW(k)) })
		}
		probeSkel(t.skel)
		// A long token that found nothing may be two edits from a listed
		// word (0.85 from nine letters, simTypo2Long): the index holds one
		// deletion per listed key, so its two-letter deletions are looked
		// up too (a substitution and an added letter: AEDTELRAHMAN for
		// ABDELRAHMAN). Only then: a token that found its word needs no
		// more, and the deletions of every long token would cost dozens of
		// lookups each.
		if len(s.utouch) == 0 && len(t.canon) >= minTwoDeleteLen {
			s.keyBuf = forDelete2Keys(t.canon, s.keyBuf, func(k []byte) { visit(idx.lookupW(k)) })
		}
		endUnit(1 << qi)
	}
	for j, c := range s.qcomp {
		if c.canon == "" {
			continue
		}
		unit++
		// The joined spelling itself and its skeleton: a query that splits a
		// listed word and also misspells it is left to the other tokens.
		wordUnit = oneWord(qt[j], qt[j+1])
		s.keyBuf = append(s.keyBuf[:0], c.canon...)
		visit(idx.lookupW(s.keyBuf))
		probeSkel(c.skel)
		endUnit(3 << j)
	}
	wordUnit = false
	// The common tokens last. A name none of the other units hit can only
	// match through them (and through initials, particles, repeats, and
	// the tokens that may match without a hit: long ones, ones near a long
	// weak word); if that cannot reach the threshold for any name, their
	// postings only raise the names already touched.
	// The long weak words the query tokens may match, found once when the
	// common tokens or a candidate first need them.
	var nw nearWords
	nearDone := false
	// floor0 is the bound loop's floor (below).
	floor0 := q.Threshold - roundSlack - evidenceBoost(q) - 1e-6
	if len(common) > 0 {
		nearWeakWords(&nw, qt, s.qcomp, counted)
		nearDone = true
		noNew = !commonAloneReaches(qt, s.qcomp, &nw, common, counted, longQ, shortQ, wRepeated,
			nParticles+nWeakLong+len(initials), q.Threshold-roundSlack-evidenceBoost(q))
		// The names only one common token hits that the bound loop would
		// drop at its first tests are left out (search_common.go).
		dropOn := !noNew && !(st != nil && st.keepCommon)
		if dropOn {
			drop.pair = qStrong >= 2 && nRepeated == 0
			if qStrong == 2 {
				drop.keep |= briefRoute
			}
			for _, c := range initials {
				if c >= 'a' && c <= 'z' {
					drop.keep |= 1 << (c - 'a')
				}
			}
			// A short rare token may match a particle misspelt: not
			// among the bits above, so the bound test is off.
			a := wRepeated + float64(nParticles+nWeakLong)*weakWeight
			for k, c := range common {
				if counted&shortQ == 0 {
					drop.setCut(k, wCounted-float64(costQ[c.qi]), a, floor0)
				}
				for ql := counted & longQ &^ (1 << c.qi); ql != 0; ql &= ql - 1 {
					drop.lens[k] |= uint64(qLens[mbits.TrailingZeros32(ql)]) << briefLens
					drop.firsts[k] |= uint64(qFirst[mbits.TrailingZeros32(ql)])
				}
			}
			if len(common) > 1 {
				markMulti(common, s.cseen, s.cmulti)
				drop.multi = s.cmulti
			}
		}
		for k, c := range common {
			unit++
			if dropOn {
				dropK = k
			}
			visit(c.ps, c.ws)
			endUnit(1 << c.qi)
		}
		noNew, dropK = false, -1
		if drop.multi != nil {
			clear(drop.multi)
		}
	}

	// The best a candidate can score: every name token it hit matched exactly,
	// and the counted query tokens that hit nothing stay unmatched at their
	// own weight. With S the similarity-weighted matched name weight, M the
	// matched name weight, U that unmatched query weight and W the name's
	// weight, the score is 2S / (1.5M + U + W/2). Weak and repeated query
	// tokens may still match (at most weakWeight, resp. another token of
	// the same spelling and weight, exactly), and so may initials (at
	// simInitial, only a token with that first letter): the score is
	// monotone in their weight, so the bound takes the better of initials
	// matching the heaviest tokens or nothing. Evidence can only add boost.
	boost := 0.0
	if q.DateOfBirth != "" {
		boost += dobExactBoost
	}
	if q.Country != "" {
		boost += countryBoost
	}
	// The bound adds float32 weights; a hair of slack keeps it above the
	// score. A score is kept when it rounds (round3) to the threshold.
	floor := q.Threshold - roundSlack - boost - 1e-6
	// The long weak words (foundation, shipping) the counted query tokens
	// and joined pairs may match, from nw.
	near, nearPair, nearSet := uint64(0), uint64(0), false
	if st != nil {
		st.touched += len(s.touched)
	}
	for _, id := range s.touched {
		h := &idx.hot[id]
		a := &s.acc[id]
		// Two strong pairs are needed when both sides hold two strong
		// tokens (nameScore); each comes from a unit that hit the name, a
		// repeated token, an initial or, for the second, a long query token
		// that hit nothing but may match by two edits (Pkiytani Taliban ~
		// Pakistani Taliban: the index holds one-letter deletions only).
		// An initial matches a listed token with its letter at simInitial,
		// and a listed initial of that letter exactly (H.A. ~ H.A.).
		wi, bi, ni := 0.0, 0.0, 0
		if len(initials) > 0 {
			var exact uint32
			if h.firsts&nameHasInitial != 0 {
				exact = idx.initials[id]
			}
			for _, c := range initials {
				bit := uint32(1) << (c - 'a')
				var w float64
				if h.firstsHeavy&bit != 0 {
					w = float64(h.maxW)
				} else if h.firsts&bit != 0 {
					w = min(heavyWeight, float64(h.maxW))
				} else {
					continue
				}
				wi += w
				ni++
				if exact&bit != 0 {
					bi += w
				} else {
					bi += simInitial * w
				}
			}
		}
		viaLong, viaWord, lxs, lx := false, false, 0.0, 0.0
		if qStrong >= 2 && int(h.strong) >= 2 && int(a.units)+nRepeated+ni < 2 {
			// Let in for its second strong pair only when both sides hold
			// two strong tokens (or two strong words, one split) and a long
			// listed token (or split word) no unit hit matches a long query
			// token that hit nothing (else nameScore would only reject it).
			ql := counted &^ uint32(a.qmask) & longQ
			viaWord = h.firsts&nameTwoWords != 0
			if h.strong != 2 && !viaWord || qStrong != 2 || int(a.units)+nRepeated+ni < 1 ||
				!viaWord && !longMayPair(ql, &qLens, &qFirst, h) {
				continue
			}
			if lxs, lx = longPairReachable(qt, ql, &idx.names[id], a.slots); lx == 0 {
				continue
			}
			viaLong = true
		}
		// A repeated token can only match a name token the first one hit
		// (hitS counts each hit name token once); a particle only a weak
		// token of the name, exactly.
		m := float64(min(a.hitN+float32(wRepeated), a.hitS)) +
			float64(min(nParticles, int(h.nWeak)))*float64(h.weakW) + float64(nWeakLong)*min(weakWeight, float64(h.maxW))
		m = min(m, float64(h.weight))
		u := max(wCounted-float64(a.hitQ), 0)
		// The score 2S / (1.5M + U + W/2) with extra matched weight x at
		// similarity-weighted xs, the unmatched query weight then du less.
		bnd := func(xs, x, du float64) float64 {
			return 2 * (m + xs) / (1.5*(m+x) + max(u-du, 0) + 0.5*float64(h.weight))
		}
		// Initials may match (at simInitial, or exactly a listed initial)
		// only a token with that first letter; they cost nothing unmatched
		// in the bound (not counted).
		bx := 0.0
		// Let in for that one pair: the bound with it at its similarity.
		if viaLong && max(bnd(lxs, lx, 1), bnd(bi+lxs, wi+lx, 1)) < floor {
			continue
		}
		bound0 := bnd(0, 0, 0)
		if wi > 0 {
			bound0 = max(bound0, bnd(bi, wi, 0))
		}
		// A counted query token that hit nothing may still match a name
		// token that was not hit, by a route the index does not hold: two
		// edits or a phonetic key between long tokens (at most
		// simTypo2Long), or a weak listed word (light, at most joined).
		x, du := 0.0, 0.0
		nq := counted &^ uint32(a.qmask)
		if nq != 0 && bound0 < floor {
			// First from the packed figures alone (most touched names stop
			// here, without reading their tokens): at best the long listed
			// tokens match at simTypo2Long and the long weak ones at
			// joinedFactor.
			xa, xas := 0.0, 0.0
			// A long query token may match a long listed token by two
			// edits with the same first letter (the skeleton and
			// phonetic rules need it too) and a length at most two (three
			// from twelve letters) apart.
			var lens, firsts uint32
			for ql := nq & longQ; ql != 0; ql &= ql - 1 {
				qi := mbits.TrailingZeros32(ql)
				lens |= qLens[qi]
				firsts |= qFirst[qi]
			}
			longOK := lens&uint32(h.longLens) != 0 && firsts&h.firsts != 0
			if longOK {
				xa, xas = float64(h.longW), simTypo2Long*float64(h.longW)
			}
			if h.weakLongW > 0 {
				xa += float64(h.weakLongW)
				xas += joinedFactor * float64(h.weakLongW)
			}
			// A short rare token may be a particle of the name misspelt.
			kp := particleTypos(nq&shortQ, int(h.nWeak), nParticles)
			if kp > 0 {
				xa += kp * float64(h.weakW)
				xas += simTypo1 * kp * float64(h.weakW)
			}
			// The query tokens these matches can take off the unmatched
			// weight: at most one per long query token and per particle
			// misspelt (what the per-token check below counts), unless a
			// long weak word may take any. When the long tokens were left
			// out above, every one is counted as before (the check below
			// does not test first letters).
			da := float64(mbits.OnesCount32(nq))
			if h.weakLongW == 0 && (longOK || nq&longQ == 0) {
				da = min(da, float64(mbits.OnesCount32(nq&longQ))+kp)
			}
			xa = min(xa, float64(h.weight)-float64(a.hitS))
			xas = min(xas, xa)
			if xa <= 0 || max(bnd(xas, xa, da), bnd(bi+xas, wi+xa, da)) < floor {
				nq = 0
			}
		}
		if nq != 0 && bound0 < floor {
			if st != nil {
				st.detail++
			}
			nm := &idx.names[id]
			free := ^a.slots
			nfree := mbits.OnesCount32(nq)
			if ql := nq & longQ; ql != 0 {
				nl := mbits.OnesCount32(ql)
				for fl := free & nm.long; fl != 0 && nl > 0; fl &= fl - 1 {
					b := mbits.TrailingZeros64(fl)
					if free&(1<<b) == 0 || !withinReach(qt, ql, &nm.tokens[b]) {
						continue
					}
					// A piece of a split word matches as the word: its
					// free pieces together.
					ws, we := b, b
					if nm.tokens[b].piece {
						ws, we = nm.wordSpan(b)
					}
					for k := ws; k <= we; k++ {
						if free&(1<<k) != 0 {
							free &^= 1 << k
							x += nm.tokens[k].w
							bx += simTypo2Long * nm.tokens[k].w
						}
					}
					nl--
					du++
				}
			}
			if h.weakLongW > 0 && !nearSet {
				if !nearDone {
					nearWeakWords(&nw, qt, s.qcomp, counted)
					nearDone = true
				}
				near, nearPair, nearSet = nw.byToken(counted), nw.pair, true
			}
			// A weak word matched by a joined pair of the query (FOUNDA
			// TION) leaves two query tokens matched, not one.
			if k := min(nfree, mbits.OnesCount64((near|nearPair)&nm.weakBits)); k > 0 {
				x += float64(k) * float64(h.weakW)
				bx += joinedFactor * float64(k) * float64(h.weakW)
				du += float64(k + min(k, mbits.OnesCount64(nearPair&nm.weakBits)))
			}
			if k := particleTypos(nq&shortQ, int(h.nWeak), nParticles); k > 0 {
				x += k * float64(h.weakW)
				bx += simTypo1 * k * float64(h.weakW)
				du += k
			}
			du = min(du, float64(nfree))
		}
		bound := bound0
		if x > 0 {
			bound = max(bound, bnd(bx, x, du))
			if wi > 0 {
				bound = max(bound, bnd(bi+bx, wi+x, du))
			}
		}
		// A split word matched as written is not among the allowances
		// (they read the pieces' lengths): the pair longPairReachable
		// found, at its similarity, lets the name in.
		if bound < floor && !(viaLong && viaWord) {
			continue
		}
		nm := &idx.names[id]
		e := &idx.entries[nm.entry]
		if !typeMatches(q.EntityType, e.EntityType) {
			continue
		}
		if st != nil {
			st.scored++
		}
		mark := len(s.pairs)
		al, grown := nameScore(qt, s.qcomp, qStrong, nm, s.pairs)
		if al.score == 0 {
			continue
		}
		score := al.score
		if nm.weak {
			score *= weakAliasFactor
		}
		if score+boost < q.Threshold-roundSlack {
			continue
		}
		if prev, ok := s.best[nm.entry]; ok && prev.score >= score+boost {
			continue
		}
		var ev Explanation
		final := round3(min(max(score+ev.applyEvidence(q, e), 0), 1))
		if final < q.Threshold {
			continue
		}
		if prev, ok := s.best[nm.entry]; ok && prev.score >= final {
			continue
		}
		s.pairs = grown[:mark+len(al.pairs)] // keep this candidate's pairs in the buffer
		s.best[nm.entry] = candidate{name: id, score: final, nameScore: score, pairs: al.pairs}
	}
	for _, c := range s.best {
		s.ranked = append(s.ranked, c)
	}
	slices.SortFunc(s.ranked, func(a, b candidate) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return strings.Compare(idx.entries[idx.names[a.name].entry].ID, idx.entries[idx.names[b.name].entry].ID)
	})
	if len(s.ranked) > q.Limit {
		s.ranked = s.ranked[:q.Limit]
	}
	out := make([]Match, 0, len(s.ranked))
	for _, c := range s.ranked {
		m := idx.match(q, qt, c)
		m.Explanation.Lookalike = r.lookalike
		out = append(out, m)
	}
	return out
}

// match builds the answer for a kept candidate, with its explanation.
func (idx *Index) match(q Query, qt []token, c candidate) Match {
	nm := &idx.names[c.name]
	e := &idx.entries[nm.entry]
	ex := Explanation{
		List: e.List, EntryID: e.ID, MatchedName: idx.nameText(nm), Alias: nm.alias >= 0,
		WeakAlias: nm.weak, NameScore: round3(c.nameScore),
	}
	ex.Tokens = make([]TokenMatch, 0, len(c.pairs))
	for _, p := range c.pairs {
		ex.Tokens = append(ex.Tokens, TokenMatch{
			Query: spanText(qt, p.qi, p.qn), Name: spanText(nm.tokens, p.ni, p.nn), Kind: p.kind, Edits: p.dist,
			Similarity: p.sim, Weak: p.weak,
		})
	}
	ex.explainUnmatched(qt, nm, c.pairs)
	ex.applyEvidence(q, e)
	ex.Score = c.score
	return Match{
		Entry: e, List: e.List, ListType: e.ListType, EntryID: e.ID, SourceID: e.SourceID,
		Name: e.Name, MatchedName: ex.MatchedName, Score: c.score, Explanation: ex,
	}
}

// sortMatches orders matches best first, ties by entry id.
func sortMatches(ms []Match) {
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].Score != ms[j].Score {
			return ms[i].Score > ms[j].Score
		}
		return ms[i].EntryID < ms[j].EntryID
	})
}

func (idx *Index) nameText(nm *indexedName) string {
	e := &idx.entries[nm.entry]
	if nm.alias < 0 {
		return e.Name
	}
	return e.Aliases[nm.alias].Name
}

// typeMatches applies Query.EntityType. An entry of unknown type (a tenant
// watchlist entry without entityType) is screened by every query.
func typeMatches(want, got EntityType) bool {
	switch want {
	case "":
		return true
	case EntityIndividual:
		return got == EntityIndividual || got == ""
	case EntityBusiness:
		return got != EntityIndividual
	}
	return want == got
}

func round3(x float64) float64 {
	return float64(int64(x*1000+0.5)) / 1000
}

// explainUnmatched records the tokens the alignment left over.
func (ex *Explanation) explainUnmatched(q []token, nm *indexedName, pairs []pairSim) {
	var usedQ, usedN uint64
	for _, p := range pairs {
		usedQ |= p.qmask()
		usedN |= p.nmask()
	}
	for i, t := range q {
		if usedQ&(1<<i) == 0 {
			if t.weak {
				ex.IgnoredWeak = append(ex.IgnoredWeak, t.raw)
			} else {
				ex.UnmatchedQuery = append(ex.UnmatchedQuery, t.raw)
			}
		}
	}
	for i, t := range nm.tokens {
		if usedN&(1<<i) == 0 {
			if t.weak {
				ex.IgnoredWeak = append(ex.IgnoredWeak, t.raw)
			} else {
				ex.UnmatchedName = append(ex.UnmatchedName, t.raw)
			}
		}
	}
}

// seenCanon reports whether a token with canonical form c is in ts.
func seenCanon(ts []token, c string) bool {
	for _, t := range ts {
		if t.canon == c {
			return true
		}
	}
	return false
}

// spanText is the folded text of n tokens from i, joined by spaces (a word
// canonicalize split is written once).
func spanText(ts []token, i, n int8) string {
	s := ts[i].raw
	for k := i + 1; k < i+n; k++ {
		if !ts[k].cont {
			s += " " + ts[k].raw
		}
	}
	return s
}

// longWeakTokens are the weak words of five letters or more (fewer than
// 64): the ones a strong query token may match with a typo, or a query pair
// joined. A name records the ones it holds as bits (weakBits).
var longWeakTokens = sync.OnceValue(func() []token {
	var ts []token
	for w := range weakTokens {
		if len(w) >= 5 {
			ts = append(ts, newToken(w, w))
		}
	}
	slices.SortFunc(ts, func(a, b token) int { return strings.Compare(a.canon, b.canon) })
	return ts[:min(len(ts), 64)]
})

// longWeakBit is the bit of a long weak word in longWeakTokens, 0 if none.
func longWeakBit(canon string) uint64 {
	ts := longWeakTokens()
	if i, ok := slices.BinarySearchFunc(ts, canon, func(t token, c string) int { return strings.Compare(t.canon, c) }); ok {
		return 1 << i
	}
	return 0
}

// nearWords says which long weak words (bits of longWeakTokens) each
// counted query token could match (tok) and which a joined pair of the query
// could match (pair, two query tokens at once). Weak listed tokens are not
// indexed, so the search bound allows for these. Computed once per query
// (nearWeakWords), when a touched name holds a long weak word or common
// tokens are probed.
type nearWords struct {
	tok  [maxQueryTokens]uint64
	pair uint64
}

// byToken is the set of long weak words some query token of counted could match.
func (nw *nearWords) byToken(counted uint32) uint64 {
	var m uint64
	for ; counted != 0; counted &= counted - 1 {
		m |= nw.tok[mbits.TrailingZeros32(counted)]
	}
	return m
}

// nearWeakWords fills nw for the counted query tokens (bits) and every
// joined pair of the query.
func nearWeakWords(nw *nearWords, qt, qcomp []token, counted uint32) {
	*nw = nearWords{}
	lws := longWeakTokens()
	for i := range qt {
		if counted&(1<<i) == 0 {
			continue
		}
		for b := mayReachWeak(&qt[i]); b != 0; b &= b - 1 {
			k := mbits.TrailingZeros64(b)
			if s, _, _ := pairTokens(&qt[i], &lws[k]); s > 0 {
				nw.tok[i] |= 1 << k
			}
		}
	}
	var reach uint64
	for j := range qcomp {
		if qcomp[j].canon == "" {
			continue
		}
		for b := mayReachWeak(&qcomp[j]) &^ reach; b != 0; b &= b - 1 {
			k := mbits.TrailingZeros64(b)
			if s, _ := joinedSim(&qcomp[j], &lws[k]); s > 0 {
				reach |= 1 << k
			}
		}
	}
	nw.pair = reach
}

// mayReachWeak is the set of long weak words (bits of longWeakTokens) q
// may reach (mayReach), its equality tests looked up once instead of
// compared word by word.
func mayReachWeak(q *token) uint64 {
	keys := longWeakKeys()
	m := keys.canon[q.canon]
	if len(q.canon) < 5 { // every long weak word has five letters or more
		return m
	}
	m |= keys.skel[q.skel] | keys.phon[q.phon]
	for k := range keys.toks {
		n := &keys.toks[k]
		limit := typoLimit(min(len(q.canon), len(n.canon)))
		if abs(len(q.canon)-len(n.canon)) <= limit && mbits.OnesCount32(q.mask^n.mask) <= 2*limit ||
			abs(len(q.raw)-len(n.raw)) <= limit && mbits.OnesCount32(q.rawMask^n.rawMask) <= 2*limit {
			m |= 1 << k
		}
	}
	return m
}

// weakKeys maps the spelling, skeleton and phonetic key of each long weak
// word to its bits (of longWeakTokens, toks).
type weakKeys struct {
	toks              []token
	canon, skel, phon map[string]uint64
}

var longWeakKeys = sync.OnceValue(func() *weakKeys {
	k := &weakKeys{toks: longWeakTokens(), canon: map[string]uint64{}, skel: map[string]uint64{}, phon: map[string]uint64{}}
	for b, t := range k.toks {
		k.canon[t.canon] |= 1 << b
		k.skel[t.skel] |= 1 << b
		k.phon[t.phon] |= 1 << b
	}
	return k
})

// mayReach is a cheap necessary condition for tokenSim (so pairTokens and
// joinedSim) to match q with the long weak word n: the same spelling, or
// both of five letters or more (a weak word matches nothing shorter) and
// lengths and letter sets within the typo limit tokenSim applies (one edit
// under six letters, two under twelve, three from twelve), or the same
// skeleton or phonetic key. (pairTokens tries no bare form against a weak
// word.) mayReachWeak computes it for every long weak word at once;
// TestMayReachWeak holds the two equal.
func mayReach(q, n *token) bool {
	if q.canon == n.canon {
		return true
	}
	minLen := min(len(q.canon), len(n.canon))
	if minLen < 5 {
		return false
	}
	limit := typoLimit(minLen)
	return abs(len(q.canon)-len(n.canon)) <= limit && mbits.OnesCount32(q.mask^n.mask) <= 2*limit ||
		abs(len(q.raw)-len(n.raw)) <= limit && mbits.OnesCount32(q.rawMask^n.rawMask) <= 2*limit ||
		q.skel == n.skel || q.phon == n.phon
}

// withinReach reports whether a long name token could match one of the
// query tokens ql (bits) by a rule the index does not probe: two or three
// edits (lengths and letter sets close enough), a phonetic key or a skeleton.
func withinReach(qt []token, ql uint32, n *token) bool {
	for ; ql != 0; ql &= ql - 1 {
		q := &qt[mbits.TrailingZeros32(ql)]
		limit := 2
		if min(len(q.canon), len(n.canon)) >= 12 {
			limit = 3
		}
		// The skeleton and phonetic rules need spellings at most a third
		// apart, so lengths at most that far apart.
		far := abs(len(q.canon)-len(n.canon)) > max(2, max(len(q.canon), len(n.canon))/3)
		if abs(len(q.canon)-len(n.canon)) <= limit && mbits.OnesCount32(q.mask^n.mask) <= 2*limit ||
			abs(len(q.raw)-len(n.raw)) <= limit && mbits.OnesCount32(q.rawMask^n.rawMask) <= 2*limit ||
			!far && (q.phon == n.phon || q.skel == n.skel) {
			return true
		}
	}
	return false
}

// lenBits sets bit l-6 for each length l in [lo, hi] from 6 (long tokens),
// the last bit standing for 21 letters and more.
func lenBits(lo, hi int) uint32 {
	var m uint32
	for l := max(lo, 6); l <= hi; l++ {
		m |= 1 << min(l-6, 15)
	}
	return m
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// particleTypos is how many of the short rare query tokens sq (bits) may
// match a particle of a name holding nWeak weak tokens, after the query's
// own particles took theirs.
func particleTypos(sq uint32, nWeak, nParticles int) float64 {
	if sq == 0 {
		return 0
	}
	return float64(max(0, min(mbits.OnesCount32(sq), nWeak-min(nParticles, nWeak))))
}

// slotTokens[sl] has the bits of the name tokens the posting slot sl holds:
// one token, a joined pair (compSlot+j) or a joined triple (tripSlot+j).
var slotTokens = func() (t [1 << slotBits]uint64) {
	for sl := range t {
		switch {
		case sl >= tripSlot:
			t[sl] = 7 << (sl - tripSlot)
		case sl >= compSlot:
			t[sl] = 3 << (sl - compSlot)
		default:
			t[sl] = 1 << sl
		}
	}
	return t
}()

// commonUnit is a query token hundreds of names hold, probed as spelled.
type commonUnit struct {
	ps   []int32
	ws   []float32
	qi   int8
	wmax float32 // the largest of ws (Index.heaviest)
}

// evidenceBoost is the most the query's evidence can add to a score.
func evidenceBoost(q Query) float64 {
	boost := 0.0
	if q.DateOfBirth != "" {
		boost += dobExactBoost
	}
	if q.Country != "" {
		boost += countryBoost
	}
	return boost
}

// commonAloneReaches reports whether a name that only the common tokens hit
// could score floor: it matches them at their heaviest posting, every
// initial, particle, weak word and repeat at weight 1 (initials at
// simInitial), and the counted tokens that may match without a hit (long
// ones at simTypo2Long, ones near a long weak word at joinedFactor); the
// other counted tokens stay unmatched. The name's own weight is at least what it
// matched.
func commonAloneReaches(qt, qcomp []token, nw *nearWords, common []commonUnit, counted, longQ, shortQ uint32, wRepeated float64, nExtra int, floor float64) bool {
	m := wRepeated
	for _, c := range common {
		m += float64(c.wmax)
		counted &^= 1 << c.qi
	}
	// A counted token that may match without a hit does better matched
	// than unmatched; the others stay unmatched. One near a long weak word
	// matches at joinedFactor, weight 1. A long one matches a listed token
	// no unit hit by two edits or a phonetic key, at most simTypo2Long (the
	// bound over touched names allows no more): at weight 1 when that
	// reaches floor (a match at a similarity at least floor, heavier, only
	// brings the score nearer to that similarity), else as if it weighed
	// nothing (a match below floor only lowers a score above it).
	xs, x, u := 0.0, 0.0, 0.0
	for i := range qt {
		if counted&(1<<i) == 0 {
			continue
		}
		if nw.tok[i] != 0 {
			xs += joinedFactor
			x++
			continue
		}
		if longQ&(1<<i) != 0 {
			if simTypo2Long >= floor {
				xs += simTypo2Long
				x++
			}
			continue
		}
		// A particle misspelt matches a particle (at most weakWeight).
		if shortQ&(1<<i) != 0 {
			xs += simTypo1 * weakWeight
			x += weakWeight
			continue
		}
		u += qt[i].unmatchedCost()
	}
	// Joined, two counted tokens may match one listed token.
	if len(qcomp) > 0 && nw.pair != 0 {
		xs += joinedFactor
		x++
	}
	// 2S / (1.5M + U + W/2) with W ≥ M is largest at W = M; initials,
	// particles and repeats help only below simInitial, so both ways.
	e := float64(nExtra)
	return max(2*(m+xs)/(2*(m+x)+u), 2*(m+xs+simInitial*e)/(2*(m+x+e)+u)) >= floor-1e-6
}

// longMayPair reports whether one of the long query tokens ql that hit
// nothing may still make the second strong pair with a long listed token by
// two edits (the index holds one-letter deletions only): a length within
// reach and the same first letter, from the packed figures alone.
func longMayPair(ql uint32, qLens, qFirst *[maxQueryTokens]uint32, h *nameHot) bool {
	for ; ql != 0; ql &= ql - 1 {
		qi := mbits.TrailingZeros32(ql)
		if qLens[qi]&uint32(h.longLens) != 0 && qFirst[qi]&h.firsts != 0 {
			return true
		}
	}
	return false
}

// longPairReachable finds the long strong tokens of nm that no unit hit and
// that match one of the long query tokens ql (tokenSim, letter sets first),
// and returns the best one's similarity-weighted weight and weight (0, 0 when
// none): cheaper than scoring the whole name only to find no second pair.
func longPairReachable(qt []token, ql uint32, nm *indexedName, slots uint64) (float64, float64) {
	bs, bw := 0.0, 0.0
	for fl := ^slots & nm.long; fl != 0; fl &= fl - 1 {
		i := mbits.TrailingZeros64(fl)
		n := &nm.tokens[i]
		if n.weak || !withinReach(qt, ql, n) {
			continue
		}
		for q := ql; q != 0; q &= q - 1 {
			if s, _, _ := pairTokens(&qt[mbits.TrailingZeros32(q)], n); s*n.w > bs {
				bs, bw = s*n.w, n.w
			}
		}
		// A piece of a split word: the word as written (nameScore's
		// one-word pair), when no unit hit a piece of it.
		if !n.piece {
			continue
		}
		ws, we := nm.wordSpan(i)
		var c *token
		switch {
		case we == ws+1 && ws < len(nm.comp):
			c = &nm.comp[ws]
		case we == ws+2 && ws < len(nm.comp3):
			c = &nm.comp3[ws]
		}
		if c == nil || c.canon == "" || slots&(1<<(we+1)-1<<ws) != 0 {
			continue
		}
		for q := ql; q != 0; q &= q - 1 {
			if s, _ := joinedSim(c, &qt[mbits.TrailingZeros32(q)]); s > 0 {
				if s = min(s/joinedFactor, simExact); s*c.w > bs {
					bs, bw = s*c.w, c.w
				}
			}
		}
	}
	return bs, bw
}
