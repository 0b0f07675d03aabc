package sanctions

import "strings"

// phoneticReplacer folds digraphs and letters that transliterations use
// interchangeably (ph/f, kh/k, q/k, ou/u, z/s, v/f, …) before vowels and
// repeats are dropped.
var phoneticReplacer = strings.NewReplacer(
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
	s := phoneticReplacer.Replace(t)
	if s == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(s))
	switch first {
	case 'a', 'e', 'i', 'o', 'u':
		b.WriteByte('a')
	default:
		b.WriteByte(s[0])
	}
	last := b.String()[0]
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
		b.WriteByte(c)
		last = c
	}
	return b.String()
}
