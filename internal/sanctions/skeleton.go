package sanctions

import "strings"

// skeletonReplacer folds the letter groups romanisations of Arabic, Persian,
// Cyrillic and West African names write differently (kh/h, ou/u, ee/i, q/k,
// ks/x, dj/j, zh/j, w/v, dh/z for the Arabic letters romanised either way,
// …) before every vowel becomes one symbol.
var skeletonFolds = newFolds(
	"kh", "h", "gh", "g", "ph", "f", "th", "t", "dh", "s", "sh", "s", "ch", "s", "zh", "j", "dj", "j", "dz", "j",
	"ks", "x", "ck", "k", "ts", "s", "tz", "s", "q", "k", "c", "k", "z", "s", "w", "v",
)

// skeleton returns the romanisation skeleton of a canonical token: letter
// groups folded, every vowel (and y at either end) written "a", repeated
// letters collapsed.
// Yevgeniy and Evgeny, Aleksandr and Aleksander (one letter apart), Khaled and
// Haled share or nearly share one. It is "" for tokens outside a–z.
func skeleton(t string) string {
	for i := 0; i < len(t); i++ {
		if t[i] < 'a' || t[i] > 'z' {
			return ""
		}
	}
	var sb, bb [48]byte
	s := skeletonFolds.apply(sb[:0], t)
	b := bb[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case 'e', 'i', 'o', 'u':
			c = 'a'
		case 'y':
			// y is a vowel at either end (Yevgeniy ~ Evgeny) but a consonant
			// inside (Husayn is not Hasan).
			if i == 0 || i == len(s)-1 {
				c = 'a'
			}
		}
		if n := len(b); n > 0 && b[n-1] == c {
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// particlePrefixes are the particles that are often written attached to the
// next word (Alzawahiri, Binladen, Abubakr, Vandijk); longest first.
var particlePrefixes = []string{"abou", "bint", "ould", "abu", "bin", "ben", "ibn", "van", "von", "al", "el", "ul", "de", "da", "du"}

// stripParticle returns t without an attached particle when enough letters
// remain (five after a two-letter particle, four after a longer one), else "".
func stripParticle(t string) string {
	for _, p := range particlePrefixes {
		if rest, ok := strings.CutPrefix(t, p); ok && len(rest) >= max(4, 7-len(p)) {
			return rest
		}
	}
	return ""
}

// attachedTitles are the honorifics (of five letters or more) that names are
// written with attached (Sheikhshafi, Mullahnaeem); the shorter and the
// English ones begin ordinary names (Imamoglu, Lordkipanidze, Pastorelli).
var attachedTitles = []string{"shaykh", "sheikh", "shaikh", "sheik", "mullah", "mawlawi", "maulvi", "alhaji",
	"alhaja", "hajiya", "mallam"}

// stripTitle returns t without an attached title when four letters or more
// remain, canonicalised (Sheikhabubakar → abubakar), else "".
func stripTitle(t string) string {
	for _, p := range attachedTitles {
		if rest, ok := strings.CutPrefix(t, p); ok && len(rest) >= 4 {
			return canonicalize(rest)[0]
		}
	}
	return ""
}
