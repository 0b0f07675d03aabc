package sanctions

import (
	"cmp"
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
	// wInitials and wUncounted (weak and repeated tokens) do not generate
	// candidates; the bound below assumes they match.
	qStrong, wQuery, wInitials, wUncounted := 0, 0.0, 0.0, 0.0
	for i, t := range qt {
		wQuery += t.weight()
		switch {
		case t.initial():
			wInitials += t.weight()
		case t.weak || seenCanon(qt[:i], t.canon):
			wUncounted += t.weight()
			if !t.weak {
				qStrong++
			}
		default:
			qStrong++
		}
	}
	if qStrong == 0 || len(idx.names) == 0 {
		return nil
	}
	s := idx.scratch.Get().(*scratch)
	defer func() { s.reset(); idx.scratch.Put(s) }()

	// Candidate generation: each strong query token hits the names holding a
	// token that shares it or one of its one-letter deletions (symmetric
	// delete: equal after transliteration, or about one or two edits apart).
	// Phonetic keys are too coarse for generation (muhammad and mahmud share
	// one); they only refine the score of candidates found here.
	for qi, t := range qt {
		if t.weak || t.initial() || seenCanon(qt[:qi], t.canon) {
			// A repeated token (Muhammad … Muhammad) would hit the same
			// names twice and defeat the bound below; it still scores.
			continue
		}
		mark := int32(qi + 1)
		visit := func(list []int32) {
			for _, id := range list {
				if s.mark[id] == mark {
					continue
				}
				if s.mark[id] == 0 && s.hit[id] == 0 {
					s.touched = append(s.touched, id)
				}
				s.mark[id] = mark
				s.hit[id] += 1
			}
		}
		s.keyBuf = forDeleteKeys(t.canon, s.keyBuf, func(k []byte) { visit(idx.lookup(k)) })
	}

	// The best a candidate can score is when every hit is exact and the rest
	// of the name is all that is left over; evidence can only add boost.
	boost := 0.0
	if q.DateOfBirth != "" {
		boost += dobExactBoost
	}
	if q.Country != "" {
		boost += countryBoost
	}
	floor := q.Threshold - boost
	for _, id := range s.touched {
		h := s.hit[id]
		nm := &idx.names[id]
		opt := wInitials + wUncounted
		rest := max(nm.weight-h-opt, 0)
		if 2*(h+wUncounted+simInitial*wInitials)/(wQuery+h+opt+unmatchedNameWeight*rest) < floor {
			continue
		}
		e := &idx.entries[nm.entry]
		if !typeMatches(q.EntityType, e.EntityType) {
			continue
		}
		mark := len(s.pairs)
		al, grown := nameScore(qt, qStrong, nm, s.pairs)
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
			Query: qt[p.qi].raw, Name: nm.tokens[p.ni].raw, Kind: p.kind, Edits: p.dist,
			Similarity: p.sim, Weak: qt[p.qi].weak || nm.tokens[p.ni].weak,
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
		usedQ |= 1 << p.qi
		usedN |= 1 << p.ni
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
