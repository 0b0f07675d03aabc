package sanctions

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The evasion corpus generator (issue 47): listed individuals written in
// every way an evader writes a name to get past a screening, each variant a
// reader still takes for the listed name. It is deterministic (fixed seed,
// entries in list order) and writes testdata/evasion.jsonl (go test -run
// TestEvasionCorpus -update-evasion); TestEvasionCorpus reads that file.
//
// The lookalike letters come from Unicode's confusables.txt (the generated
// latinLookalikes, reversed, by script), so the corpus uses the letters Unicode
// itself lists as confusable with Latin ones, not a list of our own.

// EvasionCase is one line of testdata/evasion.jsonl.
type EvasionCase struct {
	Kind          string `json:"kind"`
	Query         string `json:"query"`
	ListedName    string `json:"listedName"`
	ExpectEntryID string `json:"expectEntryId"`
}

// evasionKinds are the ways of writing, in the corpus's order.
var evasionKinds = []string{
	"combining-marks", "odd-spaces", "digits", "cyrillic-one", "greek-one", "soft-hyphen", "zero-width",
	"cyrillic-zero-width-spaces", "cyrillic-all", "fullwidth", "math-bold", "math-italic", "math-script",
	"math-double-struck", "math-sans-bold", "bidi-controls", "ligatures", "variation-selectors", "small-capitals",
	"circled", "tag-characters", "greek-cyrillic-mix", "armenian-one",
}

const evasionIndividuals = 350

// generateEvasionCorpus picks evasionIndividuals listed individuals (OFAC and
// UN, seeded) and writes each primary name in every kind (a kind that would
// not change a name, ligatures without fi/fl/ff/st/ae/oe, is left out for it).
func generateEvasionCorpus(entries []Entry) []EvasionCase {
	var pool []*Entry
	for i := range entries {
		e := &entries[i]
		if e.EntityType == EntityIndividual && evasionUsable(e.Name) {
			pool = append(pool, e)
		}
	}
	rng := rand.New(rand.NewPCG(47, 20260227))
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	pool = pool[:min(evasionIndividuals, len(pool))]
	slices.SortFunc(pool, func(a, b *Entry) int { return strings.Compare(a.ID, b.ID) })
	look := lookalikesByScript()
	var out []EvasionCase
	for _, e := range pool {
		for _, k := range evasionKinds {
			v := evasionVariant(k, e.Name, rng, look)
			if v == "" || v == e.Name {
				continue
			}
			out = append(out, EvasionCase{Kind: k, Query: v, ListedName: e.Name, ExpectEntryID: e.ID})
		}
	}
	return out
}

// evasionUsable: a Latin name of two words or more, letters, spaces, hyphens,
// apostrophes, commas and dots only (the listed spelling, so the variant's
// only difference is the evasion).
func evasionUsable(n string) bool {
	if len(tokenize(n)) < 2 || len(n) > 60 {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune(" -',.", r)) {
			return false
		}
	}
	return true
}

// lookalikesByScript reverses latinLookalikes: for each script, the letters
// that stand for each ASCII letter of each case (Cyrillic а for a, А for A).
// A letter stands for an upper-case ASCII letter when it is upper case itself.
func lookalikesByScript() map[string]map[rune][]rune {
	scripts := map[string]*unicode.RangeTable{"Cyrillic": unicode.Cyrillic, "Greek": unicode.Greek, "Armenian": unicode.Armenian}
	out := map[string]map[rune][]rune{}
	keys := make([]rune, 0, len(latinLookalikes))
	for r := range latinLookalikes {
		keys = append(keys, r)
	}
	slices.Sort(keys)
	for name, tab := range scripts {
		m := map[rune][]rune{}
		for _, r := range keys {
			f := latinLookalikes[r]
			if !unicode.Is(tab, r) || len(f) != 1 {
				continue
			}
			c := rune(f[0])
			if unicode.IsUpper(r) {
				c = unicode.ToUpper(c)
			}
			m[c] = append(m[c], r)
		}
		out[name] = m
	}
	return out
}

var (
	oddSpaces  = []rune{'\u00a0', '\u2009', '\u202f', '\u3000', '\u2003', '\u2002', '\u205f', '\u200a'}
	zeroWidths = []rune{'\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'}
	bidis      = []rune{'\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u061c'}
	smallCaps  = map[rune]rune{'a': 'ᴀ', 'b': 'ʙ', 'c': 'ᴄ', 'd': 'ᴅ', 'e': 'ᴇ', 'g': 'ɢ', 'h': 'ʜ', 'i': 'ɪ', 'j': 'ᴊ',
		'k': 'ᴋ', 'l': 'ʟ', 'm': 'ᴍ', 'n': 'ɴ', 'o': 'ᴏ', 'p': 'ᴘ', 'r': 'ʀ', 's': 'ꜱ', 't': 'ᴛ', 'u': 'ᴜ', 'v': 'ᴠ',
		'w': 'ᴡ', 'y': 'ʏ', 'z': 'ᴢ'}
	digitsFor = map[rune]rune{'a': '4', 'e': '3', 'i': '1', 'o': '0', 's': '5', 't': '7'}
	// mathStyles: the first code point of each style's A–Z, a–z run in the
	// Mathematical Alphanumeric Symbols block, and the letters the block
	// leaves out because Letterlike Symbols had them (ℎ, ℬ, ℂ, …).
	mathStyles = map[string]struct {
		base  rune
		holes map[rune]rune
	}{
		"math-bold":          {0x1D400, nil},
		"math-italic":        {0x1D434, map[rune]rune{'h': 'ℎ'}},
		"math-script":        {0x1D49C, map[rune]rune{'B': 'ℬ', 'E': 'ℰ', 'F': 'ℱ', 'H': 'ℋ', 'I': 'ℐ', 'L': 'ℒ', 'M': 'ℳ', 'R': 'ℛ', 'e': 'ℯ', 'g': 'ℊ', 'o': 'ℴ'}},
		"math-double-struck": {0x1D538, map[rune]rune{'C': 'ℂ', 'H': 'ℍ', 'N': 'ℕ', 'P': 'ℙ', 'Q': 'ℚ', 'R': 'ℝ', 'Z': 'ℤ'}},
		"math-sans-bold":     {0x1D5D4, nil},
	}
)

// evasionVariant writes name in kind k ("" when k cannot change it).
func evasionVariant(k, name string, rng *rand.Rand, look map[string]map[rune][]rune) string {
	words := strings.Fields(name)
	pick := func(rs []rune) rune { return rs[rng.IntN(len(rs))] }
	perLetter := func(f func(r rune) rune) string {
		var b strings.Builder
		for _, r := range name {
			b.WriteRune(f(r))
		}
		return b.String()
	}
	insideEach := func(ins func() string) string {
		out := make([]string, len(words))
		for i, w := range words {
			rs := []rune(w)
			if len(rs) < 3 {
				out[i] = w
				continue
			}
			at := 1 + rng.IntN(len(rs)-2)
			out[i] = string(rs[:at]) + ins() + string(rs[at:])
		}
		return strings.Join(out, " ")
	}
	replaceOne := func(s string, script string) string {
		m := look[script]
		rs := []rune(s)
		var at []int
		for i, r := range rs {
			if len(m[r]) > 0 {
				at = append(at, i)
			}
		}
		if len(at) == 0 {
			return ""
		}
		i := at[rng.IntN(len(at))]
		rs[i] = pick(m[rs[i]])
		return string(rs)
	}
	switch k {
	case "combining-marks":
		marks := []rune{'\u0301', '\u0300', '\u0308', '\u0302', '\u0303', '\u0304', '\u0327', '\u0323'}
		var b strings.Builder
		for _, r := range name {
			b.WriteRune(r)
			if strings.ContainsRune("aeiouAEIOU", r) {
				b.WriteRune(pick(marks))
			}
		}
		return b.String()
	case "odd-spaces":
		return strings.Join(words, string(pick(oddSpaces)))
	case "digits":
		// Letters written as digits in every word, l as 1 in a word that
		// has no i; a word (or hyphenated part) keeps its first letter when
		// it would be digits only (a word of digits is a number, not leet).
		var b strings.Builder
		part := []rune{}
		flush := func() {
			noI := !strings.ContainsAny(string(part), "iI")
			out := make([]rune, len(part))
			letters := false
			for i, r := range part {
				lr := unicode.ToLower(r)
				switch d, ok := digitsFor[lr]; {
				case ok:
					out[i] = d
				case lr == 'l' && noI:
					out[i] = '1'
				default:
					out[i] = r
					letters = true
				}
			}
			if !letters && len(part) > 0 {
				out[0] = part[0]
			}
			b.WriteString(string(out))
			part = part[:0]
		}
		for _, r := range name {
			if unicode.IsLetter(r) {
				part = append(part, r)
				continue
			}
			flush()
			b.WriteRune(r)
		}
		flush()
		return b.String()
	case "cyrillic-one":
		return replaceOne(name, "Cyrillic")
	case "greek-one":
		return replaceOne(name, "Greek")
	case "armenian-one":
		return replaceOne(name, "Armenian")
	case "greek-cyrillic-mix":
		if s := replaceOne(name, "Greek"); s != "" {
			return replaceOne(s, "Cyrillic")
		}
		return ""
	case "soft-hyphen":
		return insideEach(func() string { return "\u00ad" })
	case "zero-width":
		return insideEach(func() string { return string(pick(zeroWidths)) })
	case "cyrillic-zero-width-spaces":
		s := replaceOne(name, "Cyrillic")
		if s == "" {
			return ""
		}
		words = strings.Fields(s)
		return strings.ReplaceAll(insideEach(func() string { return string(pick(zeroWidths)) }), " ", string(pick(oddSpaces)))
	case "cyrillic-all":
		m := look["Cyrillic"]
		return perLetter(func(r rune) rune {
			if len(m[r]) > 0 {
				return m[r][0]
			}
			return r
		})
	case "fullwidth":
		return perLetter(func(r rune) rune {
			switch {
			case r == ' ':
				return '\u3000'
			case r > ' ' && r < 0x7f:
				return r - 0x21 + 0xFF01
			}
			return r
		})
	case "math-bold", "math-italic", "math-script", "math-double-struck", "math-sans-bold":
		st := mathStyles[k]
		return perLetter(func(r rune) rune {
			if h, ok := st.holes[r]; ok {
				return h
			}
			switch {
			case r >= 'A' && r <= 'Z':
				return st.base + (r - 'A')
			case r >= 'a' && r <= 'z':
				return st.base + 26 + (r - 'a')
			}
			return r
		})
	case "bidi-controls":
		return "\u202e" + insideEach(func() string { return string(pick(bidis)) }) + "\u202c"
	case "ligatures":
		s := name
		for _, l := range [][2]string{{"ffi", "ﬃ"}, {"ffl", "ﬄ"}, {"ff", "ﬀ"}, {"fi", "ﬁ"}, {"fl", "ﬂ"}, {"st", "ﬆ"}, {"ae", "æ"}, {"oe", "œ"}} {
			s = replaceFold(s, l[0], l[1])
		}
		return s
	case "variation-selectors":
		return insideEach(func() string { return string(rune(0xFE00 + rng.IntN(16))) })
	case "small-capitals":
		return perLetter(func(r rune) rune {
			if c, ok := smallCaps[unicode.ToLower(r)]; ok {
				return c
			}
			return r
		})
	case "circled":
		return perLetter(func(r rune) rune {
			switch {
			case r >= 'A' && r <= 'Z':
				return 0x24B6 + (r - 'A')
			case r >= 'a' && r <= 'z':
				return 0x24D0 + (r - 'a')
			}
			return r
		})
	case "tag-characters":
		return insideEach(func() string { return string(rune(0xE0020 + rng.IntN(0x5F))) })
	}
	panic("unknown evasion kind " + k)
}

// replaceFold replaces every case-insensitive occurrence of old (ASCII) in s
// with repl.
func replaceFold(s, old, repl string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+len(old) <= len(s) && strings.EqualFold(s[i:i+len(old)], old) {
			b.WriteString(repl)
			i += len(old)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n
	}
	return b.String()
}
