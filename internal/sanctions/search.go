package sanctions

import (
	"cmp"
	mbits "math/bits"
	"slices"
	"sort"
	"strings"
)

// Search defaults and limits (decisions.md §10).
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
func (idx *Index) Search(q Query) []Match {
	q = q.normalized()
	qt := tokenize(q.Name)
	if len(qt) > maxQueryTokens {
		qt = qt[:maxQueryTokens]
	}
	for i := range qt {
		qt[i].w = idx.weightOf(qt[i])
	}
	// Strong query tokens generate candidates; initials, weak and repeated
	// tokens do not (the bound below assumes they may match anything).
	qStrong, wCounted, nWeak, wRepeated := 0, 0.0, 0, 0.0
	var initials []byte
	for i, t := range qt {
		switch {
		case t.initial():
			initials = append(initials, t.canon[0])
		case t.weak:
			nWeak++
		case seenCanon(qt[:i], t.canon):
			wRepeated += t.w
			qStrong++
		default:
			qStrong++
			wCounted += t.unmatchedCost()
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
	visit := func(list []int32, ws []float32) {
		for i, p := range list {
			id := p >> slotBits
			w := ws[i]
			// The distinct name tokens hit, each counted once however many
			// query tokens hit it (a second bound on the matched weight).
			var bits uint64
			if sl := p & slotMask; sl >= compSlot {
				bits = 3 << (sl - compSlot)
			} else {
				bits = 1 << sl
			}
			if nb := bits &^ s.acc[id].slots; nb != 0 {
				if s.acc[id].umark == 0 {
					s.acc[id].hitS = 0
				}
				s.acc[id].slots |= nb
				if nb == bits && nb&(nb-1) == 0 {
					s.acc[id].hitS += w
				} else {
					toks := idx.names[id].tokens
					for nb != 0 {
						j := mbits.TrailingZeros64(nb)
						s.acc[id].hitS += float32(toks[j].w)
						nb &= nb - 1
					}
				}
			}
			if s.acc[id].umark != unit {
				if s.acc[id].umark == 0 {
					s.touched = append(s.touched, id)
				}
				s.acc[id].umark = unit
				s.acc[id].ucur = w
				s.utouch = append(s.utouch, id)
			} else if w > s.acc[id].ucur {
				s.acc[id].ucur = w
			}
		}
	}
	endUnit := func(qw32 float64) {
		qw := float32(qw32)
		for _, id := range s.utouch {
			s.acc[id].hitN += s.acc[id].ucur
			s.acc[id].hitQ += qw
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
		if ps, ws := idx.lookupW(s.keyBuf); len(ps) >= commonPostings {
			visit(ps, ws)
			endUnit(t.unmatchedCost())
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
		endUnit(t.unmatchedCost())
	}
	for j, c := range s.qcomp {
		if c.canon == "" {
			continue
		}
		unit++
		// The joined spelling itself and its skeleton: a query that splits a
		// listed word and also misspells it is left to the other tokens.
		s.keyBuf = append(s.keyBuf[:0], c.canon...)
		visit(idx.lookupW(s.keyBuf))
		probeSkel(c.skel)
		endUnit(qt[j].unmatchedCost() + qt[j+1].unmatchedCost())
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
	floor := q.Threshold - boost
	for _, id := range s.touched {
		nm := &idx.names[id]
		m := float64(min(s.acc[id].hitN, s.acc[id].hitS)) + float64(nWeak)*min(weakWeight, nm.maxW) + wRepeated
		u := max(wCounted-float64(s.acc[id].hitQ), 0)
		bound := 2 * m / (1.5*m + u + 0.5*nm.weight)
		wi := 0.0
		for _, c := range initials {
			if nm.firsts&(1<<(c-'a')) != 0 {
				wi += nm.maxW
			}
		}
		if wi > 0 {
			bound = max(bound, 2*(m+simInitial*wi)/(1.5*(m+wi)+u+0.5*nm.weight))
		}
		if bound < floor {
			continue
		}
		e := &idx.entries[nm.entry]
		if !typeMatches(q.EntityType, e.EntityType) {
			continue
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
		if score+boost < q.Threshold {
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
		out = append(out, idx.match(q, qt, c))
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

// spanText is the folded text of n tokens from i, joined by spaces.
func spanText(ts []token, i, n int8) string {
	if n == 1 {
		return ts[i].raw
	}
	return ts[i].raw + " " + ts[i+1].raw
}
