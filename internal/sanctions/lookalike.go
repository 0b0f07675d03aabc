package sanctions

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

//go:generate go run ./internal/confusablegen

// The one normalisation of a name (issue 47): every name the matcher compares
// — a listed name or alias when the index is built, the name of a screening's
// party, of a search, of a KYC or KYB check, of a tenant watchlist entry, of a
// re-screened subject — goes through foldName (tokenize), and a query also
// through foldQuery, which adds the readings below. An evader's spelling that
// a reader takes for the listed name is folded to it:
//
//   - compatibility forms (NFKD, Unicode 15.0.0): fullwidth Ｖ, mathematical
//     𝐕 𝑉 𝒱 𝕍, circled Ⓥ, ligatures ﬁ, superscripts become the plain letters;
//     accents come off as combining marks, which are dropped;
//   - default-ignorable and invisible characters are removed, not made a
//     space: zero-width space and joiners, soft hyphen, word joiner, bidi
//     controls, variation selectors, tag characters, Hangul fillers, the
//     Arabic tatweel — so a word they were put inside stays one word;
//   - every other character that is not a letter or digit (every Unicode
//     space among them) separates words, as punctuation always has;
//   - a letter of another script that looks like a Latin letter (Cyrillic
//     і, а, о, Greek ο, Armenian օ; confusables.txt, Unicode Technical
//     Standard #39, in the generated latinLookalikes) is read as that letter
//     in a word that also holds Latin letters, and in a word made only of
//     such letters in a name that holds Latin letters elsewhere. Either is
//     flagged (Explanation.Lookalike): no honest name mixes scripts inside a
//     word. A word wholly in another script in a name wholly in it (Владимир
//     Путин) is left as written, as before; a query written entirely in
//     lookalikes (ОЅАМА) is tried a second time folded, flagged too;
//   - Latin letters that look like other Latin letters (dotless ı, ɑ, small
//     capital ᴋ) are read as those, like accents;
//   - digits and @ $ inside a word with letters are tried as the letters
//     they stand for (leet: 0 o, 1 i or l, 3 e, 4 a, 5 s, 7 t, 8 b, @ a,
//     $ s), as further readings of a query (foldQuery): the name as written
//     keeps its digits, for the vessels and companies whose names hold
//     numbers (FU YUAN YU7606). A word of digits only is left alone.
//
// Pure-ASCII input, nearly every name, takes a short path (foldASCII): it
// has no compatibility forms, invisible characters or other scripts.

// leet maps the characters evaders write for letters inside a word.
func leet(c byte) byte {
	switch c {
	case '0':
		return 'o'
	case '1':
		return 'i'
	case '3':
		return 'e'
	case '4':
		return 'a'
	case '5', '$':
		return 's'
	case '7':
		return 't'
	case '8':
		return 'b'
	case '@':
		return 'a'
	}
	return 0
}

// reading is one way of reading a query's name, folded.
type reading struct {
	text string
	// lookalike: letters of another script were read as the Latin letters
	// they imitate.
	lookalike bool
}

// foldName is the normalisation of a name for matching (the doc comment
// above): lower case, ASCII for Latin input, words separated by spaces.
// Digits stay as written (FU YUAN YU7606, EVER BRIGHT88: numbers are part of
// vessels' and companies' names); @ and $ separate words.
func foldName(s string) string {
	raw, _ := foldRaw(s, false)
	return plain(raw)
}

// foldQuery returns the readings of a query's name: the first is foldName's
// (with its lookalike flag); then, when a word with letters holds digits or
// @ $, the name with those read as letters (leet, every choice of i or l
// for the 1s of up to three words); then, for a name written only in letters
// that have Latin lookalikes, that name folded.
func foldQuery(s string) []reading {
	raw, look := foldRaw(s, false)
	first := plain(raw)
	rs := []reading{{text: first, lookalike: look}}
	for _, t := range leetReadings(raw) {
		if t != first {
			rs = append(rs, reading{text: t, lookalike: look})
		}
	}
	if !look && !isASCII(s) {
		if all, ok := foldRaw(s, true); ok {
			if t := plain(all); t != first {
				rs = append(rs, reading{text: t, lookalike: true})
			}
		}
	}
	return rs
}

// foldRaw folds s keeping @ and $ (plain and leetReadings decide what they
// are); wholly folds lookalikes in every word, for foldQuery's last reading,
// and returns "" when the name is not wholly in them. It reports whether
// lookalikes were folded.
func foldRaw(s string, wholly bool) (string, bool) {
	if isASCII(s) {
		if wholly {
			return "", false
		}
		return foldASCII(s), false
	}
	return foldUnicode(s, wholly)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldASCII is the short path: lower case, apostrophes removed, everything
// but letters, digits and @ $ a space.
func foldASCII(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '@' || c == '$':
			b = append(b, c)
		case c == '\'' || c == '`':
		default:
			b = append(b, ' ')
		}
	}
	return string(b)
}

// plain is a raw fold with @ and $ made spaces, as every other sign.
func plain(raw string) string {
	if !strings.ContainsAny(raw, "@$") {
		return raw
	}
	return strings.Map(func(r rune) rune {
		if r == '@' || r == '$' {
			return ' '
		}
		return r
	}, raw)
}

// maxLeetChoices is the most words whose 1s are tried both as i and as l
// (2^3 readings); past it the 1s are all i, then all l.
const maxLeetChoices = 3

// leetReadings returns raw with the digits and @ $ of every word that holds
// an ASCII letter read as letters (leet), nil when there are none; @ and $
// elsewhere are spaces. A 1 is i or l: each word's 1s are tried both ways.
func leetReadings(raw string) []string {
	b := []byte(raw)
	var ones [][2]int // words with a 1: [start, end)
	found := false
	for i := 0; i < len(b); {
		if b[i] == ' ' {
			i++
			continue
		}
		j, letters, marks := i, false, false
		for ; j < len(b) && b[j] != ' '; j++ {
			c := b[j]
			switch {
			case c >= 'a' && c <= 'z':
				letters = true
			case leet(c) != 0:
				marks = true
			}
		}
		if marks {
			has1 := false
			for k := i; k < j; k++ {
				c := b[k]
				switch {
				case letters && c == '1':
					has1 = true
				case letters && leet(c) != 0:
					b[k], found = leet(c), true
				case c == '@' || c == '$':
					b[k] = ' '
				}
			}
			if has1 {
				ones, found = append(ones, [2]int{i, j}), true
			}
		}
		i = j
	}
	if !found {
		return nil
	}
	if len(ones) == 0 {
		return []string{string(b)}
	}
	set := func(mask int) string {
		c := append([]byte(nil), b...)
		for w, span := range ones {
			l := byte('i')
			if mask&(1<<w) != 0 {
				l = 'l'
			}
			for k := span[0]; k < span[1]; k++ {
				if c[k] == '1' {
					c[k] = l
				}
			}
		}
		return string(c)
	}
	if len(ones) > maxLeetChoices {
		return []string{set(0), set(-1)}
	}
	out := make([]string, 0, 1<<len(ones))
	for mask := 0; mask < 1<<len(ones); mask++ {
		out = append(out, set(mask))
	}
	return out
}

// word is one written word of a name, after decomposition: its runes in their
// case (latinLookalikes chooses by case), with what scripts its letters are in.
type word struct {
	runes []rune
	// latin: some letter is Latin; other: some letter is of another script;
	// allLook: every letter of another script has a Latin lookalike.
	latin, other, allLook bool
	// glued: the word follows the previous one with only @ or $ (at the
	// front of runes) between them. It is one written word for leet (Pu$in),
	// but its own word for the choice of script, because plain makes @ and $
	// spaces: deciding on "ы$е" as one word kept the Cyrillic е, and folding
	// the result "ы е" again read it as e.
	glued bool
}

// foldUnicode is foldRaw for input that is not ASCII.
func foldUnicode(s string, wholly bool) (string, bool) {
	if !utf8.ValidString(s) {
		// norm leaves the text after a broken sequence undecomposed (a stray
		// byte before ϰ kept it from becoming κ, so the name folded differently
		// a second time); the range loop below reads such bytes as U+FFFD, a
		// word break, so replacing them first changes nothing else.
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = norm.NFKD.String(s)
	var words []word
	cur := word{allLook: true}
	flush := func() {
		if len(cur.runes) > 0 {
			words = append(words, cur)
		}
		cur = word{allLook: true}
	}
	for _, r := range s {
		switch {
		case invisible(r), isApostrophe(r), unicode.In(r, unicode.Mn, unicode.Me):
			// Removed without splitting the word.
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			cur.runes, cur.latin = append(cur.runes, r), true
		case r == '@' || r == '$':
			flush()
			cur.glued = true
			cur.runes = append(cur.runes, r)
		case r < utf8.RuneSelf && r >= '0' && r <= '9':
			cur.runes = append(cur.runes, r)
		case unicode.IsLetter(r):
			cur.runes = append(cur.runes, r)
			if unicode.Is(unicode.Latin, r) {
				cur.latin = true
			} else {
				cur.other = true
				if _, ok := lookalikeOf(r); !ok {
					cur.allLook = false
				}
			}
		case unicode.IsDigit(r):
			cur.runes = append(cur.runes, r)
		default:
			flush()
		}
	}
	flush()
	nameLatin := false
	for _, w := range words {
		nameLatin = nameLatin || w.latin
	}
	if wholly {
		// The second reading applies only to a name with no Latin letter
		// written wholly in lookalikes.
		if nameLatin || len(words) == 0 {
			return "", false
		}
		for _, w := range words {
			if !w.allLook {
				return "", false
			}
		}
	}
	b := make([]byte, 0, len(s))
	lookalike := false
	for i, w := range words {
		if i > 0 && !w.glued {
			b = append(b, ' ')
		}
		// Lookalikes are read as Latin in a word mixing scripts, in a
		// word wholly of them in a Latin name, and everywhere in the
		// second reading.
		foldLook := w.other && (w.latin || w.allLook && (nameLatin || wholly))
		for _, r := range w.runes {
			switch {
			case r < utf8.RuneSelf:
				b = append(b, byte(unicode.ToLower(r)))
			case unicode.Is(unicode.Latin, r):
				lr := unicode.ToLower(r)
				if f, ok := foldTable[lr]; ok {
					b = append(b, f...)
				} else if f, ok := lookalikeOf(r); ok {
					b = append(b, f...)
				} else {
					b = utf8.AppendRune(b, lr)
				}
			default:
				if f, ok := lookalikeOf(r); ok && foldLook {
					b, lookalike = append(b, f...), true
				} else {
					b = utf8.AppendRune(b, unicode.ToLower(r))
				}
			}
		}
	}
	return string(b), lookalike
}

// lookalikeOf returns the ASCII letters r imitates (latinLookalikes), or
// those its lower case imitates: the table holds only the case confusables.txt
// lists (turned ɯ, not its capital Ɯ).
func lookalikeOf(r rune) (string, bool) {
	if f, ok := latinLookalikes[r]; ok {
		return f, true
	}
	f, ok := latinLookalikes[unicode.ToLower(r)]
	return f, ok
}

// invisible reports the characters removed from names: Unicode's
// default-ignorable code points (format characters such as the zero-width
// space and joiners, soft hyphen, word joiner, bidi controls and tags;
// variation selectors; Hangul fillers) and the Arabic tatweel, which
// stretches a word without changing it.
func invisible(r rune) bool {
	if r < 0xA0 {
		return false
	}
	return r == 0x0640 || unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// mergeReadings adds to ms the matches of another reading of the same query:
// an entry both found keeps its better match (the first at equal score),
// best first, at most limit.
func mergeReadings(ms, more []Match, limit int) []Match {
	if len(more) == 0 {
		return ms
	}
	at := make(map[string]int, len(ms))
	for i, m := range ms {
		at[m.EntryID] = i
	}
	for _, m := range more {
		if i, ok := at[m.EntryID]; !ok {
			at[m.EntryID] = len(ms)
			ms = append(ms, m)
		} else if m.Score > ms[i].Score {
			ms[i] = m
		}
	}
	sortMatches(ms)
	if len(ms) > limit {
		ms = ms[:limit]
	}
	return ms
}
