package sanctions

import (
	"slices"
	"strings"
)

// token is one normalised name token.
type token struct {
	// raw is the folded lower-case token as written (diacritics removed).
	raw string
	// canon is raw after transliteration canonicalisation (Mohamed → muhammad).
	canon string
	// phon is the phonetic key of canon.
	phon string
	// skel is the romanisation skeleton of canon (skeleton.go).
	skel string
	// bare is canon without an attached particle (alzawahiri → zawahiri) or
	// title (sheikhshafi → shafi), "" if none; bareSkel is its skeleton;
	// bareTitle says a title was taken off.
	bare, bareSkel string
	bareTitle      bool
	// mask and rawMask have bit c-'a' set for each letter c in canon, raw: an
	// edit changes at most two bits, so tokens whose masks differ in more than
	// 2·d bits are more than d edits apart (a cheap test before osaDistance).
	mask, rawMask uint32
	// weak tokens (al, bin, trading, …) weigh little and never match alone.
	weak bool
	// cont: the token continues the written word of the one before it
	// (canonicalize split Abdelrahman into abd + rahman; this is rahman).
	cont bool
	// piece: canonicalize split the written word into several tokens and
	// this is one of them (raw is the whole word).
	piece bool
	// ptypo: a query token that may be a particle misspelt (particleTypo;
	// set by Search, which knows the weights).
	ptypo bool
	// w is the token's weight: its rarity across the loaded lists (Index.weightOf),
	// at most weakWeight for a weak token.
	w float64
}

// weakWeight is a weak token's share of a strong token's weight.
const weakWeight = 0.3

// newToken builds a token from its folded and canonical spellings, weighted as
// if rare (the index lowers the weight of tokens common in its lists).
func newToken(raw, canon string) token {
	t := token{raw: raw, canon: canon, phon: phoneticKey(canon), skel: skeleton(canon), bare: stripParticle(canon),
		weak: weakTokens[canon], w: 1}
	if t.weak {
		t.w = weakWeight
	}
	if rest := stripTitle(canon); rest != "" {
		t.bare, t.bareTitle = rest, true
	}
	if t.bare != "" {
		t.bareSkel = skeleton(t.bare)
	}
	t.mask, t.rawMask = letterMask(canon), letterMask(raw)
	return t
}

// letterMask sets bit c-'a' for each ASCII letter c of s (other bytes share bit 26).
func letterMask(s string) uint32 {
	var m uint32
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			m |= 1 << (c - 'a')
		} else {
			m |= 1 << 26
		}
	}
	return m
}

// foldTable maps Latin letters to ASCII. Letters with accents decompose
// (NFKD, lookalike.go) and lose their marks before it is consulted; the ones
// listed here with accents were the table before that, and the rest (ø, ł,
// đ, ß, æ, œ, þ, ı, ə, ħ, ŧ) do not decompose.
var foldTable = func() map[rune]string {
	m := map[rune]string{}
	add := func(to string, from string) {
		for _, r := range from {
			m[r] = to
		}
	}
	add("a", "àáâãäåāăąǎạảấầẩẫậắằẳẵặ")
	add("c", "çćĉċč")
	add("d", "ďđḍ")
	add("e", "èéêëēĕėęěẹẻẽếềểễệə")
	add("g", "ĝğġģ")
	add("h", "ĥħḥ")
	add("i", "ìíîïĩīĭįıǐịỉ")
	add("j", "ĵ")
	add("k", "ķ")
	add("l", "ĺļľŀł")
	add("n", "ñńņňŉṇ")
	add("o", "òóôõöøōŏőǒọỏốồổỗộớờởỡợ")
	add("r", "ŕŗř")
	add("s", "śŝşšșṣ")
	add("t", "ţťŧțṭ")
	add("u", "ùúûüũūŭůűųǔụủứừửữự")
	add("w", "ŵ")
	add("y", "ýÿŷỳỵỷỹ")
	add("z", "źżžẓ")
	add("ss", "ß")
	add("ae", "æ")
	add("oe", "œ")
	add("th", "þ")
	return m
}()

// isApostrophe reports the marks transliterations use for ʿayn/hamza and
// elisions (O'Brien, 'Abd): they are removed without splitting the token.
func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', '`', 'ʼ', 'ʻ', 'ʿ', 'ʾ', '´':
		return true
	}
	return false
}

// honorifics are titles dropped before matching (Mr, Dr, Alhaji, Chief, …).
var honorifics = setOf("mr", "mrs", "ms", "miss", "mx", "dr", "prof", "professor", "sir", "dame", "lord", "lady",
	"alhaji", "alhaja", "alh", "hajia", "hajiya", "hajj", "hadj", "chief", "sheikh", "shaykh", "sheik", "shaikh", "sh",
	"engr", "eng", "barr", "hon", "honourable", "honorable", "rev", "revd", "pastor", "imam", "mallam", "malam",
	"mullah", "mawlawi", "maulvi", "oba", "otunba", "sen", "senator", "gen", "col", "maj", "capt", "lt", "sgt",
	"jr", "sr", "junior", "senior", "mister", "madam", "mme", "mlle", "hrh")

// companySuffixes are legal-form words dropped before matching.
var companySuffixes = setOf("ltd", "limited", "llc", "plc", "inc", "incorporated", "corp", "corporation", "co",
	"company", "gmbh", "sa", "sas", "sarl", "srl", "spa", "ag", "bv", "nv", "llp", "lp", "pte", "pty", "jsc", "ojsc",
	"cjsc", "pjsc", "ooo", "zao", "oao", "ao", "fze", "fzco", "fzc", "fzllc", "bhd", "sdn", "kg", "kft", "doo", "sl",
	"cia", "ltda", "sac", "cv", "de cv")

// weakTokens carry little identity: particles and generic business words.
// They weigh weakWeight and a match on them alone never counts.
var weakTokens = setOf("al", "el", "ul", "bin", "ben", "ibn", "bint", "binti", "abu", "abou", "umm", "ould", "wad",
	"the", "of", "and", "for", "de", "del", "della", "da", "di", "do", "dos", "das", "du", "des", "la", "le", "les",
	"van", "von", "der", "den", "y", "e", "et", "und",
	"trading", "traders", "general", "group", "holding", "holdings", "international", "intl", "enterprise",
	"enterprises", "service", "services", "industries", "industry", "industrial", "bank", "commercial", "investment",
	"investments", "import", "export", "global", "national", "organization", "organisation", "foundation",
	"association", "center", "centre", "trust", "partners", "ventures", "resources", "solutions", "logistics",
	"technology", "technologies", "shipping", "agency", "network", "exchange", "development", "management",
	// legal-form words that are not a single suffix token (joint stock company, OOO spelled out)
	"joint", "stock", "open", "closed", "public", "private", "liability", "obshchestvo", "ogranichennoi",
	"ogranichennoy", "otvetstvennostyu", "aktsionernoe", "publichnoe", "zakrytoe", "otkrytoe")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// tokenize normalises a name into tokens: fold, split, drop honorifics and
// company suffixes, canonicalise transliteration variants, mark weak tokens.
func tokenize(name string) []token { return tokenizeFolded(foldName(name)) }

// tokenizeFolded is tokenize of a name foldName (or foldQuery) already folded.
func tokenizeFolded(folded string) []token { return tokenizeMemo(folded, nil) }

// tokenizeMemo is tokenizeFolded with the words' tokens taken from m when it is not nil (an
// index build: tokenMemo).
func tokenizeMemo(folded string, m *tokenMemo) []token {
	fields := joinSpelledSuffixes(strings.Fields(folded))
	var out []token
	if m != nil {
		out = m.toks[:0]
		defer func() { m.toks = out[:0] }()
	} else {
		out = make([]token, 0, len(fields)+1)
	}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if honorifics[f] || companySuffixes[f] {
			continue
		}
		// A legal form split in two (COMP ANY) or written onto the name (ZENIT-OOO
		// folds apart, OOOZENIT and CULTURELLC do not).
		if i+1 < len(fields) && len(f)+len(fields[i+1]) >= 5 && isSuffixPair(f, fields[i+1]) {
			i++
			continue
		}
		if misspeltLegalForm(fields, i, m) {
			continue
		}
		if m != nil {
			for _, t := range m.word(f) {
				// "abd al rahman": the article after abd is part of the compound.
				if t.canon == "abd" && i+1 < len(fields) && abdArticles[fields[i+1]] {
					i++
				}
				out = append(out, t)
			}
			continue
		}
		f = stripAttachedForm(f)
		cs := canonicalize(f)
		for k, c := range cs {
			// "abd al rahman": the article after abd is part of the compound.
			if c == "abd" && i+1 < len(fields) && abdArticles[fields[i+1]] {
				i++
			}
			t := newToken(f, c)
			t.cont, t.piece = k > 0, len(cs) > 1
			out = append(out, t)
		}
	}
	if m != nil {
		return slices.Clone(out)
	}
	return out
}

// isSuffixPair reports whether a and b written together are a company suffix, without making
// the joined string (a map index with string(bytes) does not allocate).
func isSuffixPair(a, b string) bool {
	var kb [64]byte
	return companySuffixes[string(append(append(kb[:0], a...), b...))]
}

// initial reports whether a token is a single letter (an initial).
func (t token) initial() bool { return len(t.canon) == 1 && t.canon[0] >= 'a' && t.canon[0] <= 'z' }

// joinSpelledSuffixes drops legal forms written as dotted letters ("S.A.",
// "L.L.C.", "B.V."), which folding split into one-letter fields.
func joinSpelledSuffixes(fields []string) []string {
	out := fields[:0:0]
	for i := 0; i < len(fields); i++ {
		if len(fields[i]) == 1 {
			j := i
			for j < len(fields) && len(fields[j]) == 1 {
				j++
			}
			if j-i >= 2 && companySuffixes[strings.Join(fields[i:j], "")] {
				i = j - 1
				continue
			}
		}
		out = append(out, fields[i])
	}
	return out
}

// longLegalForms are the legal-form words long enough (seven letters or
// more) that one typing error leaves them recognisable: COMANY, LIMTED,
// CROPORATION.
var longLegalForms = func() []string {
	var out []string
	for w := range companySuffixes {
		if len(w) >= 7 && !strings.Contains(w, " ") {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}()

// misspeltLegalForm reports whether fields[i] is a long legal form with one
// typing error (one edit, six letters or more) in the place legal forms
// take: after the name, last or followed by legal forms only. Such a word is dropped like
// the legal form it is, rather than left as a name token matching nothing.
func misspeltLegalForm(fields []string, i int, m *tokenMemo) bool {
	f := fields[i]
	if i == 0 || len(f) < 6 {
		return false
	}
	for _, g := range fields[i+1:] {
		if !companySuffixes[g] {
			return false
		}
	}
	return m.nearLegalForm(f)
}

// nearLongLegalForm reports whether f is one edit from a long legal form (longLegalForms).
func nearLongLegalForm(f string) bool {
	for _, w := range longLegalForms {
		if abs(len(f)-len(w)) <= 1 && osaDistance(f, w, 1) <= 1 {
			return true
		}
	}
	return false
}

// attachedForms are legal forms that lists and customers write onto the name
// without a space (OOOZENIT, CULTURELLC, LLCTSTO, PETROCHEMICALCOMPANY,
// CYPRUSLIMITED, URALVAGONZAVODOAO, STCJSC); longest first within a letter
// sequence (pjsc before jsc). Only forms no name word begins or ends with:
// co, sa, ag, ao and corp, inc are left alone (Francisco, Telecorp).
var attachedPrefixForms = []string{"company", "pjsc", "ojsc", "cjsc", "ooo", "oao", "zao", "llc", "jsc"}
var attachedSuffixForms = []string{"corporation", "incorporated", "company", "limited", "gmbh",
	"pjsc", "ojsc", "cjsc", "llc", "ltd", "ooo", "oao", "zao", "plc", "jsc", "llp", "fze"}

// minAttachedRest is the fewest letters a word keeps when an attached legal
// form is taken off it (ELINS STCJSC: the listed ELINS STC JSC keeps stc).
const minAttachedRest = 3

// stripAttachedForm removes an attached legal form when at least
// minAttachedRest letters remain.
func stripAttachedForm(f string) string {
	for _, p := range attachedPrefixForms {
		if rest, ok := strings.CutPrefix(f, p); ok && len(rest) >= minAttachedRest {
			return rest
		}
	}
	for _, p := range attachedSuffixForms {
		if rest, ok := strings.CutSuffix(f, p); ok && len(rest) >= minAttachedRest {
			return rest
		}
	}
	return f
}
