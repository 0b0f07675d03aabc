package sanctions

import (
	"math/rand/v2"
	"strings"
	"unicode"
)

// The evaluation-set generator. It is deterministic (fixed seed, list order)
// and labels by construction: positives are variants of a listed name of a
// known entry; negatives are names from pools of common Nigerian and
// international names, and hard negatives that keep one token of a listed
// name. A negative is discarded when it could be a listed name: when some
// listed name and the query cover each other's strong tokens (each token
// equal after transliteration or within one edit). That check uses only the
// list data and an edit distance, never the matcher's scores.

var (
	ngFirst = strings.Fields(`Chinedu Emeka Ngozi Adaeze Oluwaseun Babatunde Folake Yetunde Aisha Fatima Musa Ibrahim
		Abubakar Usman Sani Bello Aminu Kelechi Chiamaka Ifeoma Tunde Segun Bukola Funmilayo Hauwa Zainab Halima Nnamdi
		Obinna Uchenna Chukwuemeka Adebayo Olumide Temitope Damilola Blessing Precious Godwin Emmanuel Samuel Daniel
		Joseph Peter Grace Esther Yusuf Aliyu Garba Danjuma Ikechukwu Nkechi Amaka Ebere Titilayo Kayode Gbenga Femi
		Rotimi Kunle Lanre Nneka Chidi Ifeanyi Amina Hadiza Bilkisu Jide Dayo Seun Tolu Kemi Bisi`)
	ngLast = strings.Fields(`Okafor Okonkwo Adeyemi Ogunleye Bello Abdullahi Ibrahim Mohammed Yusuf Danladi Eze Nwosu Obi
		Chukwu Okeke Adebayo Olawale Balogun Afolabi Oyelaran Nnadi Uche Onyeka Ogbonna Igwe Ezeh Aliyu Lawal Suleiman
		Garba Usman Abubakar Musa Sani Tijani Akinola Adewale Oladipo Ogundipe Okoro Nwachukwu Anyanwu Emenike Babangida
		Shehu Dantata Ojukwu Fashola Ilori Adeleke Ayodele Okwuosa Nwankwo Umeh Obiora Ogunbiyi Bankole Salami Yakubu`)
	intFirst = strings.Fields(`James Mary Robert Patricia Michael Jennifer David Linda William Elizabeth Pierre Marie Hans
		Anna Carlos Maria Giovanni Sofia Wei Li Hiroshi Yuki Raj Priya Olga Ivan Kwame Ama Thabo Naledi Lucas Emma
		Noah Olivia Mateo Isabella Chen Mei Arjun Ananya Sipho Zanele Kofi Akosua`)
	intLast = strings.Fields(`Smith Johnson Brown Taylor Wilson Martin Dubois Müller Schmidt Rossi García Fernández Silva
		Santos Wang Zhang Tanaka Sato Patel Sharma Ivanov Petrov Mensah Boateng Nkosi Dlamini Kowalski Nowak O'Brien
		Murphy Anderson Thompson Moreau Bianchi Costa Oliveira Yamamoto Kim Park Nguyen Mwangi Otieno`)
	bizWords = strings.Fields(`Lagos Sunrise Atlantic Kano Unity Zenith Heritage Prime Royal Golden Delta Savannah Niger
		Harmony Pinnacle Crescent Evergreen Summit Coastal Northern`)
	honorificWords = []string{"Mr", "Mrs", "Dr", "Alhaji", "Chief", "Sheikh", "Prof."}
	suffixWords    = []string{"Ltd", "Limited", "LLC", "PLC", "Inc.", "Co.", "GmbH", "S.A."}
	accents        = map[rune]rune{'a': 'á', 'e': 'é', 'i': 'í', 'o': 'ö', 'u': 'ü', 'c': 'ç', 'n': 'ñ', 's': 'ş'}
)

// evalSource is one listed name a positive is derived from.
type evalSource struct {
	entry *Entry
	name  string
	words []string
}

func generateEvalSet(entries []Entry, idx *Index) []EvalCase {
	rng := rand.New(rand.NewPCG(20260227, 20231228))
	var ofac, un []evalSource
	for i := range entries {
		e := &entries[i]
		names := []string{e.Name}
		for _, a := range e.Aliases {
			if a.Quality == AliasStrong {
				names = append(names, a.Name)
			}
		}
		for _, n := range names {
			if !evalUsable(n) {
				continue
			}
			s := evalSource{entry: e, name: n, words: strings.Fields(strings.NewReplacer(",", " ", ";", " ").Replace(n))}
			if e.List == ListUNSC {
				un = append(un, s)
			} else {
				ofac = append(ofac, s)
			}
		}
	}
	var out []EvalCase
	pick := func(src []evalSource, n int) {
		for _, i := range rng.Perm(len(src))[:n] {
			out = append(out, positives(rng, src[i])...)
		}
	}
	pick(ofac, 420)
	pick(un, 180)

	neg := func(q, kind string, et EntityType) {
		if !couldBeListed(idx, q) {
			out = append(out, EvalCase{Query: q, EntityType: et, Label: LabelNegative, Kind: kind})
		}
	}
	for range 450 {
		neg(pickOne(rng, ngFirst)+" "+pickOne(rng, ngLast), "common-nigerian", "")
	}
	for range 150 {
		neg(pickOne(rng, ngFirst)+" "+pickOne(rng, ngFirst)+" "+pickOne(rng, ngLast), "common-nigerian", EntityIndividual)
	}
	for range 250 {
		neg(pickOne(rng, intFirst)+" "+pickOne(rng, intLast), "common-international", "")
	}
	all := append(append([]evalSource{}, ofac...), un...)
	for range 700 {
		s := all[rng.IntN(len(all))]
		w := cloneStrings(s.words)
		if s.entry.EntityType == EntityIndividual {
			// keep one token of the listed name, replace the rest with a
			// common first or last name
			keep := rng.IntN(len(w))
			q := []string{w[keep]}
			if rng.IntN(2) == 0 {
				q = append([]string{pickOne(rng, append(ngFirst, intFirst...))}, q...)
			} else {
				q = append(q, pickOne(rng, append(ngLast, intLast...)))
			}
			neg(strings.Join(q, " "), "hard-negative", "")
		} else {
			neg(w[rng.IntN(len(w))]+" "+pickOne(rng, bizWords)+" "+pickOne(rng, suffixWords), "hard-negative", "")
		}
	}
	return out
}

// evalUsable keeps ASCII names with two to five strong tokens.
func evalUsable(n string) bool {
	for _, r := range n {
		if r > unicode.MaxASCII {
			return false
		}
	}
	strong := 0
	for _, t := range tokenize(n) {
		if !t.weak && !t.initial() {
			strong++
		}
	}
	return strong >= 2 && strong <= 5
}

func pickOne(rng *rand.Rand, s []string) string { return s[rng.IntN(len(s))] }

func cloneStrings(s []string) []string { return append([]string(nil), s...) }

// positives derives up to four labelled variants of one listed name.
func positives(rng *rand.Rand, s evalSource) []EvalCase {
	id := s.entry.ID
	et := ""
	if rng.IntN(3) == 0 {
		et = string(s.entry.EntityType)
		if et != string(EntityIndividual) {
			et = string(EntityBusiness)
		}
	}
	mk := func(q, kind string) EvalCase {
		return EvalCase{Query: q, EntityType: EntityType(et), ExpectEntryID: &id, Label: LabelPositive, Kind: kind}
	}
	w := s.words
	variants := map[string]func() (string, bool){
		"exact": func() (string, bool) { return s.name, true },
		"case": func() (string, bool) {
			if rng.IntN(2) == 0 {
				return strings.ToLower(s.name), true
			}
			return strings.ToUpper(s.name), true
		},
		"reordered": func() (string, bool) {
			c := cloneStrings(w)
			rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
			return strings.Join(c, " "), strings.Join(c, " ") != strings.Join(w, " ")
		},
		"transliteration": func() (string, bool) {
			c := cloneStrings(w)
			for _, i := range rng.Perm(len(c)) {
				canon, ok := variantCanon[strings.ToLower(c[i])]
				if !ok {
					continue
				}
				for _, g := range variantGroups {
					if g[0] == canon {
						alt := g[rng.IntN(len(g))]
						if alt != strings.ToLower(c[i]) {
							c[i] = strings.ToUpper(alt[:1]) + alt[1:]
							return strings.Join(c, " "), true
						}
					}
				}
			}
			return "", false
		},
		"typo": func() (string, bool) {
			c := cloneStrings(w)
			best := -1
			for i, x := range c {
				if len(x) >= 5 && (best < 0 || len(x) > len(c[best])) {
					best = i
				}
			}
			if best < 0 {
				return "", false
			}
			c[best] = typo(rng, c[best])
			return strings.Join(c, " "), true
		},
		"initials": func() (string, bool) {
			if s.entry.EntityType != EntityIndividual || len(w) < 3 || len(w[0]) < 2 {
				return "", false
			}
			c := cloneStrings(w)
			c[0] = c[0][:1] + "."
			return strings.Join(c, " "), true
		},
		"diacritics": func() (string, bool) {
			var b strings.Builder
			changed := false
			for _, r := range s.name {
				if a, ok := accents[unicode.ToLower(r)]; ok && rng.IntN(3) == 0 {
					b.WriteRune(a)
					changed = true
				} else {
					b.WriteRune(r)
				}
			}
			return b.String(), changed
		},
		"honorific-suffix": func() (string, bool) {
			if s.entry.EntityType == EntityIndividual {
				return pickOne(rng, honorificWords) + " " + s.name, true
			}
			return s.name + " " + pickOne(rng, suffixWords), true
		},
		"punctuation": func() (string, bool) {
			return strings.Join(w, pickOne(rng, []string{"-", "  ", ". ", " - "})), true
		},
	}
	kinds := []string{"exact", "case", "reordered", "transliteration", "typo", "initials", "diacritics", "honorific-suffix", "punctuation"}
	var out []EvalCase
	for _, k := range []string{"exact", "typo"} {
		if q, ok := variants[k](); ok {
			out = append(out, mk(q, k))
		}
	}
	for _, i := range rng.Perm(len(kinds)) {
		if len(out) >= 4 || kinds[i] == "exact" || kinds[i] == "typo" {
			continue
		}
		if q, ok := variants[kinds[i]](); ok {
			out = append(out, mk(q, kinds[i]))
		}
	}
	return out
}

// typo applies one random edit (substitution, deletion, insertion or
// adjacent transposition) away from the first letter.
func typo(rng *rand.Rand, s string) string {
	b := []byte(s)
	i := 1 + rng.IntN(len(b)-2)
	letter := byte('a' + rng.IntN(26))
	if b[i] >= 'A' && b[i] <= 'Z' {
		letter -= 'a' - 'A'
	}
	switch rng.IntN(4) {
	case 0:
		if b[i] == letter {
			letter = b[i] ^ 1
		}
		b[i] = letter
	case 1:
		b = append(b[:i], b[i+1:]...)
	case 2:
		b = append(b[:i], append([]byte{letter}, b[i:]...)...)
	default:
		b[i], b[i+1] = b[i+1], b[i]
	}
	return string(b)
}

// couldBeListed reports whether some listed name and q cover each other's
// strong tokens up to transliteration or one edit (then q is no clean
// negative). It walks the index's delete map only, not the scorer.
func couldBeListed(idx *Index, q string) bool {
	var qs []token
	for _, t := range tokenize(q) {
		if !t.weak && !t.initial() {
			qs = append(qs, t)
		}
	}
	if len(qs) == 0 {
		return true
	}
	close1 := func(a, b token) bool {
		return a.canon == b.canon || osaDistance(a.canon, b.canon, 1) <= 1
	}
	seen := map[int32]bool{}
	for _, t := range qs {
		forDeletes(t.canon, func(k string) {
			for _, id := range idx.lookup([]byte(k)) {
				seen[id] = true
			}
		})
	}
	for id := range seen {
		nm := &idx.names[id]
		var ns []token
		for _, t := range nm.tokens {
			if !t.weak && !t.initial() {
				ns = append(ns, t)
			}
		}
		if covers(qs, ns, close1) || covers(ns, qs, close1) {
			return true
		}
	}
	return false
}

// covers reports whether every token of a has a distinct close token in b.
func covers(a, b []token, close func(x, y token) bool) bool {
	used := make([]bool, len(b))
	for _, x := range a {
		ok := false
		for j, y := range b {
			if !used[j] && close(x, y) {
				used[j], ok = true, true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
