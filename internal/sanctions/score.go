package sanctions

// MatchKind says how a query token matched a listed name token.
type MatchKind string

// The ways two tokens can match, strongest first.
const (
	KindExact           MatchKind = "exact"
	KindTransliteration MatchKind = "transliteration"
	KindTypo            MatchKind = "typo"
	KindPhonetic        MatchKind = "phonetic"
	KindInitial         MatchKind = "initial"
)

// Token similarities. They are the only scoring constants besides the
// coverage rule in nameScore; see docs/sanctions-matcher.md.
const (
	simExact    = 1.0
	simTranslit = 0.97
	simTypo1    = 0.90
	simTypo2    = 0.80
	simPhonetic = 0.85
	simInitial  = 0.70
	// unmatchedNameWeight is the share of a listed token's weight charged
	// when the query leaves it out (middle names are often omitted).
	unmatchedNameWeight = 0.5
)

// tokenSim compares a query token with a name token.
func tokenSim(q, n token) (float64, MatchKind, int) {
	if q.canon == n.canon {
		if q.raw == n.raw {
			return simExact, KindExact, 0
		}
		return simTranslit, KindTransliteration, 0
	}
	if q.weak || n.weak {
		return 0, "", 0 // particles match only exactly
	}
	if q.initial() || n.initial() {
		if q.canon[0] == n.canon[0] && !(q.initial() && n.initial()) {
			return simInitial, KindInitial, 0
		}
		return 0, "", 0
	}
	best, kind, dist := 0.0, MatchKind(""), 0
	la, lb := len(q.canon), len(n.canon)
	maxLen, minLen := max(la, lb), min(la, lb)
	if maxLen >= 4 && minLen >= 3 && abs(la-lb) <= 2 {
		d := osaDistance(q.canon, n.canon, 2)
		switch {
		case d == 1 && (maxLen >= 5 || q.canon[0] == n.canon[0]):
			best, kind, dist = simTypo1, KindTypo, 1
		case d == 2 && minLen >= 6:
			best, kind, dist = simTypo2, KindTypo, 2
		}
	}
	// A phonetic key alone is loose (vowels vanish), so it also needs the same
	// first letter and a spelling no more than a third apart.
	if best < simPhonetic && len(q.phon) >= 3 && q.phon == n.phon && minLen >= 4 &&
		q.canon[0] == n.canon[0] && abs(la-lb) <= 2 && osaDistance(q.canon, n.canon, max(2, maxLen/3)) <= max(2, maxLen/3) {
		best, kind, dist = simPhonetic, KindPhonetic, 0
	}
	return best, kind, dist
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// osaDistance is the optimal-string-alignment edit distance (Damerau with
// adjacent transpositions), giving up early above limit.
func osaDistance(a, b string, limit int) int {
	la, lb := len(a), len(b)
	if abs(la-lb) > limit {
		return limit + 1
	}
	var buf [3][32]int
	if lb+1 > len(buf[0]) {
		return limit + 1
	}
	prev2, prev, cur := buf[0][:lb+1], buf[1][:lb+1], buf[2][:lb+1]
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[lb]
}

// pairSim is one candidate alignment of a query token with a name token.
type pairSim struct {
	qi, ni int
	sim    float64
	kind   MatchKind
	dist   int
}

// alignment is the result of scoring a query against one name.
type alignment struct {
	score       float64
	pairs       []pairSim
	strongPairs int
}

// nameScore aligns query tokens to name tokens greedily by similarity (each
// token used once) and scores the alignment as a weighted Dice coefficient:
//
//	(Σ sim·w_q + Σ sim·w_n) / (W_query + W_name_matched + ½·W_name_unmatched)
//
// Extra query tokens cost in full; listed tokens the query leaves out cost
// half. At least one strong token must match, and when both sides hold two
// or more strong tokens, two must match: one shared token never suffices.
//
// The chosen pairs are appended to buf (the caller's reusable buffer) and returned as a slice of
// it, so scoring a candidate allocates nothing.
func nameScore(q []token, qStrong int, n *indexedName, buf []pairSim) (alignment, []pairSim) {
	var cand [64]pairSim
	pairs := cand[:0]
	for qi := range q {
		for ni := range n.tokens {
			if s, k, d := tokenSim(q[qi], n.tokens[ni]); s > 0 {
				pairs = append(pairs, pairSim{qi: qi, ni: ni, sim: s, kind: k, dist: d})
			}
		}
	}
	if len(pairs) == 0 {
		return alignment{}, buf
	}
	// Stable insertion sort by similarity, best first (few pairs, no allocation).
	for i := 1; i < len(pairs); i++ {
		for j := i; j > 0 && pairs[j].sim > pairs[j-1].sim; j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
	var usedQ, usedN uint64
	start := len(buf)
	chosen := buf
	matchedQ, matchedN, wNameMatched := 0.0, 0.0, 0.0
	strongPairs := 0
	for _, p := range pairs {
		if usedQ&(1<<p.qi) != 0 || usedN&(1<<p.ni) != 0 {
			continue
		}
		usedQ |= 1 << p.qi
		usedN |= 1 << p.ni
		chosen = append(chosen, p)
		wq, wn := q[p.qi].weight(), n.tokens[p.ni].weight()
		matchedQ += p.sim * wq
		matchedN += p.sim * wn
		wNameMatched += wn
		if !q[p.qi].weak && !n.tokens[p.ni].weak {
			strongPairs++
		}
	}
	if strongPairs == 0 || (strongPairs < 2 && qStrong >= 2 && n.strong >= 2) {
		return alignment{}, buf
	}
	wQuery := 0.0
	for _, t := range q {
		wQuery += t.weight()
	}
	denom := wQuery + wNameMatched + unmatchedNameWeight*(n.weight-wNameMatched)
	return alignment{score: (matchedQ + matchedN) / denom, pairs: chosen[start:len(chosen):len(chosen)], strongPairs: strongPairs}, chosen
}
