package sanctions

import "strings"

// phoneticReplacer folds digraphs and letters that transliterations use
// interchangeably (ph/f, kh/k, q/k, ou/u, z/s, v/f, …) before vowels and
// repeats are dropped.
var phoneticFolds = newFolds(
	"sch", "s", "tch", "c",
	"ph", "f", "kh", "k", "gh", "g", "th", "t", "dh", "d", "sh", "s", "zh", "j", "ch", "c", "ck", "k",
	"dj", "j", "dz", "j", "ts", "s", "tz", "s",
	"q", "k", "x", "ks", "z", "s", "v", "f", "w", "", "h", "",
)

// phoneticKey returns a Soundex-like key of a canonical token, without
// Soundex's 4-character truncation: digraphs folded, the first letter kept
// (a leading vowel becomes "a"), later vowels, h, w and y dropped, repeats
// collapsed. "mohammed" and "muhamad" both give "md"; "yousef" and "yusuf"
// give "ysf". Tokens with characters outside a–z get no key.
func phoneticKey(t string) string {
	for i := 0; i < len(t); i++ {
		if t[i] < 'a' || t[i] > 'z' {
			return ""
		}
	}
	if t == "" {
		return ""
	}
	first := t[0]
	var sb, bb [48]byte
	s := phoneticFolds.apply(sb[:0], t)
	if len(s) == 0 {
		return ""
	}
	b := bb[:0]
	switch first {
	case 'a', 'e', 'i', 'o', 'u':
		b = append(b, 'a')
	default:
		b = append(b, s[0])
	}
	last := b[0]
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			last = 0
			continue
		case 'c':
			// c before e/i is soft.
			if i+1 < len(s) && (s[i+1] == 'e' || s[i+1] == 'i') {
				c = 's'
			} else {
				c = 'k'
			}
		}
		if c == last {
			continue
		}
		b = append(b, c)
		last = c
	}
	return string(b)
}

// folds is a table of letter groups and their replacements, applied like a
// strings.Replacer (left to right, at each position the first group in
// the table's order that starts there, no overlaps) without allocating: the
// search folds every query token and joined pair this way.
type folds struct {
	// byFirst[c] lists, in table order, the groups starting with letter c.
	byFirst [256][]fold
}

type fold struct{ old, new string }

// newFolds builds a folds from old, new pairs (as strings.NewReplacer).
func newFolds(oldnew ...string) *folds {
	f := &folds{}
	for i := 0; i+1 < len(oldnew); i += 2 {
		c := oldnew[i][0]
		f.byFirst[c] = append(f.byFirst[c], fold{oldnew[i], oldnew[i+1]})
	}
	return f
}

// apply appends t folded to dst.
func (f *folds) apply(dst []byte, t string) []byte {
	for i := 0; i < len(t); {
		matched := false
		for _, g := range f.byFirst[t[i]] {
			if strings.HasPrefix(t[i:], g.old) {
				dst = append(dst, g.new...)
				i += len(g.old)
				matched = true
				break
			}
		}
		if !matched {
			dst = append(dst, t[i])
			i++
		}
	}
	return dst
}
