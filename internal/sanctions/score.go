package sanctions

import (
	"math/bits"
	"slices"
)

// MatchKind says how a query token matched a listed name token.
type MatchKind string

// The ways two tokens can match, strongest first.
const (
	KindExact           MatchKind = "exact"
	KindTransliteration MatchKind = "transliteration"
	KindTypo            MatchKind = "typo"
	KindPhonetic        MatchKind = "phonetic"
	KindInitial         MatchKind = "initial"
	// KindJoined: two words on one side are one word on the other (Bin Laden ~ Binladen).
	KindJoined MatchKind = "joined"
	// KindParticle: one side writes a particle attached that the other leaves out (Alzawahiri ~ Zawahiri).
	KindParticle MatchKind = "particle"
	// KindTitle: one side writes a title attached that the other leaves out (Sheikhshafi ~ Shafi).
	KindTitle MatchKind = "title"
)

// Token similarities. They are the only scoring constants besides the
// coverage rule in nameScore; see docs/design/sanctions-matcher.md.
const (
	simExact    = 1.0
	simTranslit = 0.97
	simTypo1    = 0.90
	simTypo2    = 0.80
	simPhonetic = 0.85
	simInitial  = 0.70
	// simSkeleton: same romanisation skeleton (skeleton.go), spelled further apart than a typo.
	simSkeleton = 0.90
	// simTypo2Long and simTypo3 scale typo tolerance with length: two edits in a
	// token of nine letters or more, three in one of twelve or more.
	simTypo2Long = 0.85
	simTypo3     = 0.75
	// joinedFactor and particleFactor discount a match across a spacing
	// difference or a dropped particle.
	joinedFactor   = 0.96
	particleFactor = 0.95
	// unmatchedNameWeight is the share of a listed token's weight charged
	// when the query leaves it out (middle names are often omitted).
	unmatchedNameWeight = 0.5
)

// tokenSim compares a query token with a name token.
func tokenSim(q, n *token) (float64, MatchKind, int) {
	if q.canon == n.canon {
		if q.raw == n.raw {
			return simExact, KindExact, 0
		}
		return simTranslit, KindTransliteration, 0
	}
	if q.weak || n.weak {
		// Particles match only exactly; longer weak words (foundation,
		// industries) may carry a typo, and a pair with a weak side never
		// counts as strong. A rare short query token one edit from a
		// listed particle is that particle misspelt (ALn-KA'ATBI,
		// AP-HARBI for AL-…): particleTypo.
		if min(len(q.canon), len(n.canon)) < 5 {
			if n.weak && q.ptypo && len(n.canon) <= 3 && q.canon[0] == n.canon[0] && osaDistance(q.canon, n.canon, 1) == 1 {
				return simTypo1, KindTypo, 1
			}
			return 0, "", 0
		}
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
	if maxLen >= 4 && minLen >= 3 && abs(la-lb) <= 3 {
		limit := typoLimit(minLen)
		d := limit + 1
		if abs(la-lb) <= limit && bits.OnesCount32(q.mask^n.mask) <= 2*limit {
			d = typoDistance(q.canon, n.canon, limit)
		}
		// Terek ~ Tarek, though tarek is canonically tariq.
		if (q.raw != q.canon || n.raw != n.canon) && d > 1 && abs(len(q.raw)-len(n.raw)) <= limit &&
			bits.OnesCount32(q.rawMask^n.rawMask) <= 2*limit {
			d = min(d, typoDistance(q.raw, n.raw, limit))
		}
		switch {
		case d == 1 && (maxLen >= 5 || q.canon[0] == n.canon[0]):
			best, kind, dist = simTypo1, KindTypo, 1
		case d == 2 && minLen >= 9:
			best, kind, dist = simTypo2Long, KindTypo, 2
		case d == 2 && minLen >= 6 && !suffixed(q.canon, n.canon):
			best, kind, dist = simTypo2, KindTypo, 2
		case d == 3 && minLen >= 12:
			best, kind, dist = simTypo3, KindTypo, 3
		}
	}
	// The same romanisation skeleton (Yevgeniy ~ Evgeny, Khaled ~ Haled):
	// the first letter must agree (or both be vowels, y included).
	// Four-letter tokens need the same first letter (with every vowel one
	// symbol, Aisha and Isse would agree), and spellings more than a third
	// apart are left out.
	if best < simSkeleton && minLen >= 4 && q.skel == n.skel && q.skel != "" &&
		(q.canon[0] == n.canon[0] || q.skel[0] == 'a' && minLen >= 5) &&
		osaDistance(q.canon, n.canon, max(2, maxLen/3)) <= max(2, maxLen/3) {
		best, kind, dist = simSkeleton, KindTransliteration, 0
	}
	// A phonetic key alone is loose (vowels vanish), so it also needs the same
	// first letter and a spelling no more than a third apart.
	if best < simPhonetic && len(q.phon) >= 3 && q.phon == n.phon && minLen >= 4 &&
		q.canon[0] == n.canon[0] && abs(la-lb) <= 2 && osaDistance(q.canon, n.canon, max(2, maxLen/3)) <= max(2, maxLen/3) {
		best, kind, dist = simPhonetic, KindPhonetic, 0
	}
	return best, kind, dist
}

// particleTypo reports whether q may be a listed particle with one typing
// error (Search sets token.ptypo from it, once per query token): a strong token of two or three letters that is rare in the lists
// (weight 1, Index.weightOf; common short names such as Li or Ali are not)
// and one edit from a particle (shortParticles) with its first letter (as a
// typo of a four-letter token needs: Red is not De, Sin not Bin).
func (q token) particleTypo() bool {
	if q.weak || q.w < 1 || len(q.canon) < 2 || len(q.canon) > 3 {
		return false
	}
	for _, p := range shortParticles {
		if p[0] == q.canon[0] && abs(len(p)-len(q.canon)) <= 1 && osaDistance(q.canon, p, 1) == 1 {
			return true
		}
	}
	return false
}

// shortParticles are the weak tokens of two or three letters (al, bin, de).
var shortParticles = func() []string {
	var out []string
	for w := range weakTokens {
		if len(w) >= 2 && len(w) <= 3 {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}()

// suffixed reports whether one token is the other with two letters added at
// the end (Ivanov ~ Ivanovna: a patronymic or a derived form, another name
// rather than two typos), unless the two letters are a weak word written
// attached (Refineryco ~ Refinery Co). Only below nine letters, where two
// edits score simTypo2.
func suffixed(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(b) == len(a)+2 && b[:len(a)] == a && !weakTokens[b[len(a):]] && !companySuffixes[b[len(a):]]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// typoDistance is the number of typing errors between a and b up to limit:
// osaDistance, except that two errors may be a transposition and a letter
// added or dropped between the transposed pair (Sergeevich → Sergeevchih),
// which osaDistance counts as three: there the unrestricted
// Damerau-Levenshtein distance is taken. Only then (a limit of two and
// lengths one apart), so the common path stays osaDistance alone.
func typoDistance(a, b string, limit int) int {
	d := osaDistance(a, b, limit)
	if d > limit && limit == 2 && abs(len(a)-len(b)) == 1 && oneLetterApart(a, b) {
		d = min(d, damerauDistance(a, b))
	}
	return d
}

// oneLetterApart reports whether a and b hold the same letters but one (as
// counts): a transposition keeps them, a letter added or dropped changes
// one. Cheap, it keeps damerauDistance to the few pairs it can help.
func oneLetterApart(a, b string) bool {
	var n [27]int8
	for i := 0; i < len(a); i++ {
		n[letterIndex(a[i])]++
	}
	for i := 0; i < len(b); i++ {
		n[letterIndex(b[i])]--
	}
	off := 0
	for _, c := range n {
		off += abs(int(c))
	}
	return off == 1
}

// damerauDistance is the unrestricted Damerau-Levenshtein distance (a
// transposed pair may have letters inserted between it) of strings under 32
// bytes; longer ones are reported as 32 edits apart.
func damerauDistance(a, b string) int {
	la, lb := len(a), len(b)
	if la >= 32 || lb >= 32 {
		return 32
	}
	// d[i+1][j+1] is the distance of a[:i] and b[:j]; row and column 0 are
	// the "infinite" border of the Lowrance-Wagner recurrence. Small
	// integers keep the table to one kilobyte.
	var d [34][34]uint8
	inf := uint8(la + lb)
	d[0][0] = inf
	for i := 0; i <= la; i++ {
		d[i+1][0], d[i+1][1] = inf, uint8(i)
	}
	for j := 0; j <= lb; j++ {
		d[0][j+1], d[1][j+1] = inf, uint8(j)
	}
	// last: the last row of a holding each letter; other bytes (digits)
	// stay 0, the infinite row: they are not transposed over insertions.
	var last [27]uint8
	for i := 1; i <= la; i++ {
		db := 0
		for j := 1; j <= lb; j++ {
			i1, j1 := int(last[letterIndex(b[j-1])]), db
			cost := uint8(1)
			if a[i-1] == b[j-1] {
				cost, db = 0, j
			}
			d[i+1][j+1] = min(d[i][j]+cost, d[i+1][j]+1, d[i][j+1]+1, d[i1][j1]+uint8((i-i1-1)+1+(j-j1-1)))
		}
		if k := letterIndex(a[i-1]); k < 26 {
			last[k] = uint8(i)
		}
	}
	return int(d[la+1][lb+1])
}

// letterIndex is c-'a' for a lower-case ASCII letter, 26 (never set) for any other byte.
func letterIndex(c byte) int {
	if c >= 'a' && c <= 'z' {
		return int(c - 'a')
	}
	return 26
}

// osaDistance is the optimal-string-alignment edit distance (Damerau with
// adjacent transpositions), giving up early above limit.
func osaDistance(a, b string, limit int) int {
	la, lb := len(a), len(b)
	if abs(la-lb) > limit {
		return limit + 1
	}
	if lb+2 > 34 || limit > 30 {
		return limit + 1
	}
	// Only the diagonal band |i-j| ≤ limit can hold a distance within
	// limit: cells outside it are taken as limit+1 (capped values keep the
	// result exact up to limit). Small integers keep the rows in 102 bytes.
	big := uint8(limit + 1)
	var buf [3][34]uint8
	prev2, prev, cur := &buf[0], &buf[1], &buf[2]
	for j := 0; j <= lb; j++ {
		prev[j] = min(uint8(j), big)
	}
	prev[lb+1] = big
	for i := 1; i <= la; i++ {
		lo, hi := max(1, i-limit), min(lb, i+limit)
		if lo == 1 {
			cur[0] = min(uint8(i), big)
		} else {
			cur[lo-1] = big
		}
		rowMin := big
		for j := lo; j <= hi; j++ {
			cost := uint8(1)
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, big)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		cur[hi+1] = big
		if rowMin >= big && lo <= hi {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return int(prev[lb])
}

// minUnmatchedQuery is the least a strong query token that matches nothing
// costs, however common it is in the lists: "Amina Yusuf" is not the listed
// "AMINA" because Yusuf is a frequent name.
const minUnmatchedQuery = 0.8

// unmatchedCost is what a query token left unmatched adds to the denominator.
func (t token) unmatchedCost() float64 {
	if t.weak || t.initial() {
		return t.w
	}
	return max(t.w, minUnmatchedQuery)
}

// pairSim is one candidate alignment of query tokens with name tokens: one
// with one, or (KindJoined) two adjacent tokens of one side with one token
// of the other.
type pairSim struct {
	qi, qn, ni, nn int8 // first token and count (1 or 2) on each side
	weak           bool // a weak token matched a weak token
	sim            float64
	kind           MatchKind
	dist           int
}

func (p pairSim) qmask() uint64 { return (1<<p.qn - 1) << p.qi }
func (p pairSim) nmask() uint64 { return (1<<p.nn - 1) << p.ni }

// alignment is the result of scoring a query against one name.
type alignment struct {
	score       float64
	pairs       []pairSim
	strongPairs int
}

// pairTokens compares one query token with one name token, trying the
// spellings without an attached particle when the tokens themselves differ.
func pairTokens(q, n *token) (float64, MatchKind, int) {
	sim, kind, dist := tokenSim(q, n)
	if sim >= simTypo1 || q.weak || n.weak {
		return sim, kind, dist
	}
	try := func(a, b *token, k MatchKind) {
		if s, _, d := tokenSim(a, b); s*particleFactor > sim && s >= simTypo1 {
			sim, kind, dist = s*particleFactor, k, d
		}
	}
	attached := func(t *token) MatchKind {
		if t.bareTitle {
			return KindTitle
		}
		return KindParticle
	}
	if q.bare != "" {
		try(&token{canon: q.bare, raw: q.bare, skel: q.bareSkel}, n, attached(q))
	}
	if n.bare != "" {
		try(q, &token{canon: n.bare, raw: n.bare, skel: n.bareSkel}, attached(n))
	}
	return sim, kind, dist
}

// joinedSim compares a joined pair of one side with a token of the other.
func joinedSim(a, b *token) (float64, int) {
	if a.canon == "" || b.initial() || (b.weak && len(b.canon) < 5) {
		return 0, 0
	}
	// Lengths further apart than any typo or skeleton rule allows: no match.
	if la, lb := len(a.canon), len(b.canon); abs(la-lb) > max(3, max(la, lb)/3) {
		return 0, 0
	}
	s, _, d := tokenSim(a, b)
	if s < simTypo2 {
		return 0, 0
	}
	return s * joinedFactor, d
}

// nameScore aligns query tokens to name tokens greedily by similarity (each
// token used once; two adjacent tokens of one side may match one token of the
// other as a joined pair) and scores the alignment as a weighted Dice
// coefficient over the name tokens' rarity weights w:
//
//	2·Σ sim·w_matched / (2·W_matched + W_query_unmatched + ½·W_name_unmatched)
//
// A matched pair weighs what its name tokens weigh on both sides, so a query
// token counts by the rarity of what it matched; a query token that matches
// nothing costs its own weight in full (a token the lists do not know weighs
// 1); listed tokens the query leaves out cost half. At least one strong token
// must match, and when both sides hold two or more strong tokens, two must
// match: one shared token never suffices.
//
// The chosen pairs are appended to buf (the caller's reusable buffer) and returned as a slice of
// it, so scoring a candidate allocates nothing.
func nameScore(q, qcomp []token, qStrong int, n *indexedName, buf []pairSim) (alignment, []pairSim) {
	var cand [96]pairSim
	pairs := cand[:0]
	add := func(p pairSim) {
		if len(pairs) < len(cand) {
			pairs = append(pairs, p)
		}
	}
	// A token that has exactly one partner of the same canonical spelling,
	// each the other's only one, pairs with it: the greedy alignment takes
	// that pair (0.97 or more) before any other pair holding either token
	// (only the same canonical spelling reaches 0.97), so their other pairs
	// are not computed. Long business names share many such tokens.
	qDone, nDone := uniqueExact(q, n.tokens)
	for qi := range q {
		for ni := range n.tokens {
			if (qDone|nDone) != 0 && (qDone>>qi|nDone>>ni)&1 != 0 && q[qi].canon != n.tokens[ni].canon {
				continue
			}
			if s, k, d := pairTokens(&q[qi], &n.tokens[ni]); s > 0 {
				add(pairSim{qi: int8(qi), qn: 1, ni: int8(ni), nn: 1, sim: s, kind: k, dist: d,
					weak: q[qi].weak && n.tokens[ni].weak})
			}
		}
	}
	// Spacing: two query tokens written as one listed token, and one query
	// token written as two listed tokens.
	// A pair canonicalize split from one written word (Abdwllah → abd +
	// wllah) is that word: matched with a word of the other side, the
	// spacing does not differ, so no joinedFactor, and at equal similarity
	// the pair (both tokens) wins over one of its tokens.
	// A word is not matched with a piece of another split word: the pieces
	// are compared one by one, or as their word (the other side's pair).
	for j := range qcomp {
		c := &qcomp[j]
		if qDone&(3<<j) != 0 {
			continue
		}
		one := c.canon != "" && oneWord(q[j], q[j+1])
		for ni := range n.tokens {
			if one && n.tokens[ni].piece || nDone&(1<<ni) != 0 {
				continue
			}
			if s, d := joinedSim(c, &n.tokens[ni]); s > 0 {
				add(compPair(int8(j), 2, int8(ni), 1, s, d, one))
			}
		}
	}
	for j := range n.comp {
		c := &n.comp[j]
		if nDone&(3<<j) != 0 {
			continue
		}
		one := c.canon != "" && oneWord(n.tokens[j], n.tokens[j+1])
		for qi := range q {
			if one && q[qi].piece || qDone&(1<<qi) != 0 {
				continue
			}
			if s, d := joinedSim(c, &q[qi]); s > 0 {
				add(compPair(int8(qi), 1, int8(j), 2, s, d, one))
			}
		}
	}
	// One written word that canonicalize split (an abd… compound) against
	// two or three words of the other side written as one: Abdullahragab
	// (abd + lahragab) ~ Abdullah Ragab, Abdulrahmankhan ~ Abdul Rahman
	// Khan. Both sides' joined spellings are joinedCanon's.
	namePieces := false
	for i := range n.tokens {
		namePieces = namePieces || n.tokens[i].piece
	}
	for j := range qcomp {
		c := &qcomp[j]
		if c.canon == "" || qDone&(3<<j) != 0 {
			continue
		}
		one := oneWord(q[j], q[j+1])
		if !one && !namePieces {
			continue // neither side holds a split word: nothing to compare
		}
		for k := range n.comp {
			nc := &n.comp[k]
			if nc.canon == "" || nDone&(3<<k) != 0 || one == oneWord(n.tokens[k], n.tokens[k+1]) {
				continue
			}
			if s, d := joinedSim(c, nc); s > 0 {
				add(compPair(int8(j), 2, int8(k), 2, s, d, false))
			}
		}
		if !one {
			continue
		}
		for k := range n.comp3 {
			nc := &n.comp3[k]
			if nc.canon == "" || nDone&(7<<k) != 0 {
				continue
			}
			if s, d := joinedSim(c, nc); s > 0 {
				add(compPair(int8(j), 2, int8(k), 3, s, d, false))
			}
		}
	}
	// Three listed words written as one query token (Saifalarab for Saif
	// Al-Arab).
	for j := range n.comp3 {
		c := &n.comp3[j]
		if c.canon == "" || nDone&(7<<j) != 0 {
			continue
		}
		for qi := range q {
			if q[qi].piece || qDone&(1<<qi) != 0 {
				continue
			}
			if s, d := joinedSim(c, &q[qi]); s > 0 {
				add(compPair(int8(qi), 1, int8(j), 3, s, d, false))
			}
		}
	}
	if len(pairs) == 0 {
		return alignment{}, buf
	}
	// Stable insertion sort by similarity, best first (few pairs, no
	// allocation); at equal similarity a pair covering more tokens first.
	for i := 1; i < len(pairs); i++ {
		for j := i; j > 0 && better(pairs[j], pairs[j-1]); j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
	var usedQ, usedN uint64
	start := len(buf)
	chosen := buf
	matched, wMatched := 0.0, 0.0
	strongPairs := 0
	for _, p := range pairs {
		qm, nmk := p.qmask(), p.nmask()
		if usedQ&qm != 0 || usedN&nmk != 0 {
			continue
		}
		usedQ |= qm
		usedN |= nmk
		chosen = append(chosen, p)
		wn := 0.0
		for k := p.ni; k < p.ni+p.nn; k++ {
			wn += n.tokens[k].w
		}
		matched += p.sim * wn
		wMatched += wn
		switch {
		case p.qn >= 2 && p.nn >= 2:
			// Joined on both sides (Abdullahragab ~ Abdullah Ragab): as
			// many strong pairs as the side with fewer strong tokens holds.
			strongPairs += min(strongIn(q[p.qi:p.qi+p.qn]), strongIn(n.tokens[p.ni:p.ni+p.nn]))
		case !p.weak && !(p.qn == 1 && q[p.qi].weak) && !(p.nn == 1 && n.tokens[p.ni].weak):
			strongPairs++
		}
	}
	if strongPairs == 0 || (strongPairs < 2 && qStrong >= 2 && n.strong >= 2) {
		return alignment{}, buf
	}
	wQueryUnmatched := 0.0
	for i := range q {
		if usedQ&(1<<i) == 0 {
			wQueryUnmatched += q[i].unmatchedCost()
		}
	}
	denom := 2*wMatched + wQueryUnmatched + unmatchedNameWeight*(n.weight-wMatched)
	return alignment{score: 2 * matched / denom, pairs: chosen[start:len(chosen):len(chosen)], strongPairs: strongPairs}, chosen
}

// strongIn counts the strong tokens (neither weak nor initials) of ts.
func strongIn(ts []token) int {
	n := 0
	for _, t := range ts {
		if !t.weak && !t.initial() {
			n++
		}
	}
	return n
}

// uniqueExact returns, as bits, the query and name tokens that have exactly
// one token of the same canonical spelling on the other side and none on
// their own (an initial is never one: it pairs with many).
func uniqueExact(q, n []token) (qDone, nDone uint64) {
	for qi := range q {
		c := q[qi].canon
		if len(c) < 2 {
			continue
		}
		at := -1
		for ni := range n {
			if n[ni].canon == c {
				if at >= 0 {
					at = -2
					break
				}
				at = ni
			}
		}
		if at < 0 || qDone&(1<<qi) != 0 {
			continue
		}
		dup := false
		for qj := range q {
			if qj != qi && q[qj].canon == c {
				dup = true
				break
			}
		}
		if !dup {
			qDone |= 1 << qi
			nDone |= 1 << at
		}
	}
	return qDone, nDone
}

// compPair is a joined pair (two tokens of one side, one of the other) at
// joinedSim's similarity s; sameWord: both sides are one written word, so the
// spacing does not differ and the joinedFactor comes off.
func compPair(qi, qn, ni, nn int8, s float64, d int, sameWord bool) pairSim {
	if sameWord {
		kind := KindTypo
		if d == 0 {
			kind = KindTransliteration
		}
		return pairSim{qi: qi, qn: qn, ni: ni, nn: nn, sim: min(s/joinedFactor, simExact), kind: kind, dist: d}
	}
	return pairSim{qi: qi, qn: qn, ni: ni, nn: nn, sim: s, kind: KindJoined, dist: d}
}

// better orders candidate pairs: a pair of two weak tokens (al ~ al) after
// every other, then higher similarity first, then the pair covering more
// tokens. A weak pair adds at most weakWeight; taken first, it could take the
// particle a joined pair needs (Saifal-arab AL-GADDAFI: al ~ al left saifal ~
// saif al unmatched).
func better(a, b pairSim) bool {
	if a.weak != b.weak {
		return b.weak
	}
	if a.sim != b.sim {
		return a.sim > b.sim
	}
	return a.qn+a.nn > b.qn+b.nn
}

// typoLimit is the number of edits a typo may make between tokens whose shorter one has minLen
// letters: tolerance grows with length, one edit from four letters, two from six, three from
// twelve (tokenSim; mayReach's bound uses the same, so that it never prunes what tokenSim
// would match).
func typoLimit(minLen int) int {
	switch {
	case minLen >= 12:
		return 3
	case minLen >= 6:
		return 2
	}
	return 1
}
