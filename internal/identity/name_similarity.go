package identity

import (
	"strings"
	"unicode"
)

// NameSimilarity scores how alike two personal names are, in 0..1. Both names are normalised
// (case, accents, punctuation) and split into tokens; each token of the claimed name is paired
// with a distinct token of the registry name by best Jaro-Winkler similarity, and the scores are
// averaged over the claimed tokens. So the order of the names does not matter ("Okafor Chinedu"
// matches "Chinedu Okafor") and a registry middle name the applicant left out costs nothing.
// Registry tokens left unpaired are ignored; claimed tokens left unpaired score 0.
func NameSimilarity(claimed, registry string) float64 {
	q, r := nameTokens(claimed), nameTokens(registry)
	if len(q) == 0 || len(r) == 0 {
		return 0
	}
	// Greedy assignment by best pair; names have few tokens, so this is exact enough and cheap.
	type pair struct {
		i, j int
		s    float64
	}
	pairs := make([]pair, 0, len(q)*len(r))
	for i, a := range q {
		for j, b := range r {
			pairs = append(pairs, pair{i, j, JaroWinkler(a, b)})
		}
	}
	usedQ, usedR := make([]bool, len(q)), make([]bool, len(r))
	total := 0.0
	for range min(len(q), len(r)) {
		best := -1
		for k, p := range pairs {
			if usedQ[p.i] || usedR[p.j] {
				continue
			}
			if best < 0 || p.s > pairs[best].s {
				best = k
			}
		}
		p := pairs[best]
		usedQ[p.i], usedR[p.j] = true, true
		total += p.s
	}
	return round4(total / float64(len(q)))
}

// nameTokens lowercases, folds common Latin accents (Yorùbá and Igbo diacritics), turns
// punctuation into separators and splits.
func nameTokens(s string) []string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		case unicode.IsLetter(r):
			b.WriteRune(foldAccent(r))
		case r == '\'' || r == '’':
			// O'Neil → oneil
		default:
			b.WriteRune(' ')
		}
	}
	return strings.Fields(b.String())
}

func foldAccent(r rune) rune {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā':
		return 'a'
	case 'è', 'é', 'ê', 'ë', 'ẹ', 'ē':
		return 'e'
	case 'ì', 'í', 'î', 'ï', 'ị', 'ī':
		return 'i'
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ọ', 'ō':
		return 'o'
	case 'ù', 'ú', 'û', 'ü', 'ụ', 'ū':
		return 'u'
	case 'ṣ', 'ş':
		return 's'
	case 'ñ', 'ń', 'ǹ':
		return 'n'
	}
	return r
}

// JaroWinkler returns the Jaro-Winkler similarity of a and b in 0..1 (prefix scale 0.1, prefix
// up to 4 runes).
func JaroWinkler(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 && len(rb) == 0 {
		return 1
	}
	if len(ra) == 0 || len(rb) == 0 {
		return 0
	}
	window := max(len(ra), len(rb))/2 - 1
	window = max(window, 0)
	ma, mb := make([]bool, len(ra)), make([]bool, len(rb))
	matches := 0
	for i := range ra {
		lo, hi := max(0, i-window), min(len(rb)-1, i+window)
		for j := lo; j <= hi; j++ {
			if !mb[j] && ra[i] == rb[j] {
				ma[i], mb[j] = true, true
				matches++
				break
			}
		}
	}
	if matches == 0 {
		return 0
	}
	transpositions, k := 0, 0
	for i := range ra {
		if !ma[i] {
			continue
		}
		for !mb[k] {
			k++
		}
		if ra[i] != rb[k] {
			transpositions++
		}
		k++
	}
	m := float64(matches)
	jaro := (m/float64(len(ra)) + m/float64(len(rb)) + (m-float64(transpositions/2))/m) / 3
	prefix := 0
	for i := 0; i < min(4, len(ra), len(rb)) && ra[i] == rb[i]; i++ {
		prefix++
	}
	return jaro + float64(prefix)*0.1*(1-jaro)
}

func round4(f float64) float64 {
	return float64(int(f*10000+0.5)) / 10000
}
