package sanctions

import (
	"fmt"
	"strings"
)

// Evidence adjustments (docs/design/design-choices.md §8 leaves them to the matcher): date of
// birth and country raise or lower a name score, never create a match alone.
const (
	dobExactBoost    = 0.05
	dobYearBoost     = 0.02
	dobMismatch      = -0.10
	countryBoost     = 0.03
	countryMismatch  = -0.05
	maxEvidenceBoost = dobExactBoost + countryBoost
)

// TokenMatch is one query token aligned with one listed-name token.
type TokenMatch struct {
	Query string
	Name  string
	Kind  MatchKind
	// Edits is the edit distance for KindTypo.
	Edits      int
	Similarity float64
	// Weak is set when the pair is a weak token (al, bin, trading, …).
	Weak bool
}

// Explanation says why a match scored what it did; String renders it for a
// verdict's triggeredRules.details.
type Explanation struct {
	List        string
	EntryID     string
	MatchedName string
	Alias       bool
	WeakAlias   bool
	// NameScore is the name similarity before evidence; Score is final.
	NameScore      float64
	Score          float64
	Tokens         []TokenMatch
	UnmatchedQuery []string
	UnmatchedName  []string
	// IgnoredWeak lists weak tokens left unmatched (they barely count).
	IgnoredWeak []string
	// Lookalike: the query was written with letters of another script
	// that imitate Latin ones (Cyrillic і in Putіn), read as those letters
	// for the match (lookalike.go). No honest name mixes scripts in a word.
	Lookalike bool
	// DOB and Country describe the evidence applied, empty when none.
	DOB           string
	DOBAdjust     float64
	Country       string
	CountryAdjust float64
}

// String renders the explanation as one sentence, e.g.
// `Matched alias "Mohamed Ali HASSAN" of OFAC-SDN entry ofac-sdn:123 with score 0.940: "muhammad"="mohamed" (transliteration), "hasan"~"hassan" (transliteration), "ali"="ali" (exact); listed token not in query: salim; DOB 1961 matches year (+0.02).`
func (ex Explanation) String() string {
	var b strings.Builder
	what := "name"
	if ex.Alias {
		what = "alias"
		if ex.WeakAlias {
			what = "weak alias"
		}
	}
	fmt.Fprintf(&b, "Matched %s %q of %s entry %s with score %.3f: ", what, ex.MatchedName, ex.List, ex.EntryID, ex.Score)
	parts := make([]string, 0, len(ex.Tokens))
	for _, t := range ex.Tokens {
		how := string(t.Kind)
		switch t.Kind {
		case KindTypo:
			how = fmt.Sprintf("typo, %d edit", t.Edits)
			if t.Edits > 1 {
				how += "s"
			}
		case KindExact:
			if t.Weak {
				how = "exact, weak token"
			}
		case KindJoined:
			how = "joined: spacing differs"
			if t.Edits > 0 {
				how = fmt.Sprintf("joined: spacing differs, and %d edit", t.Edits)
				if t.Edits > 1 {
					how += "s"
				}
			}
		case KindParticle, KindTitle:
			how = string(t.Kind) + " attached on one side only"
			if t.Edits > 0 {
				how += fmt.Sprintf(", and %d edit", t.Edits)
				if t.Edits > 1 {
					how += "s"
				}
			}
		}
		parts = append(parts, fmt.Sprintf("%q~%q (%s)", t.Query, t.Name, how))
	}
	b.WriteString(strings.Join(parts, ", "))
	if ex.Lookalike {
		b.WriteString("; query written with lookalike characters (letters of another script imitating Latin ones, read as the letters they imitate)")
	}
	if len(ex.UnmatchedQuery) > 0 {
		fmt.Fprintf(&b, "; query %s not in listed name: %s", tokenWord(len(ex.UnmatchedQuery)), strings.Join(ex.UnmatchedQuery, " "))
	}
	if len(ex.UnmatchedName) > 0 {
		fmt.Fprintf(&b, "; listed %s not in query: %s", tokenWord(len(ex.UnmatchedName)), strings.Join(ex.UnmatchedName, " "))
	}
	if len(ex.IgnoredWeak) > 0 {
		fmt.Fprintf(&b, "; weak %s ignored: %s", tokenWord(len(ex.IgnoredWeak)), strings.Join(ex.IgnoredWeak, " "))
	}
	if ex.WeakAlias {
		b.WriteString("; weak alias capped below BLOCK")
	}
	if ex.DOB != "" {
		fmt.Fprintf(&b, "; %s (%+.2f)", ex.DOB, ex.DOBAdjust)
	}
	if ex.Country != "" {
		fmt.Fprintf(&b, "; %s (%+.2f)", ex.Country, ex.CountryAdjust)
	}
	b.WriteString(".")
	return b.String()
}

// applyEvidence compares the query's DOB and country with the entry's,
// records what it found and returns the score adjustment.
func (ex *Explanation) applyEvidence(q Query, e *Entry) float64 {
	adj := 0.0
	if dob := strings.TrimSpace(q.DateOfBirth); dob != "" && len(e.DatesOfBirth) > 0 {
		ex.DOBAdjust, ex.DOB = dobEvidence(dob, e.DatesOfBirth)
		adj += ex.DOBAdjust
	}
	if c := strings.TrimSpace(q.Country); c != "" && (len(e.Nationalities) > 0 || len(e.Countries) > 0) {
		want := countryName(c)
		ex.CountryAdjust, ex.Country = countryMismatch, fmt.Sprintf("country %s not among the entry's countries", c)
		for _, have := range append(append([]string{}, e.Nationalities...), e.Countries...) {
			if countryName(have) == want {
				ex.CountryAdjust, ex.Country = countryBoost, fmt.Sprintf("country %s matches", have)
				break
			}
		}
		adj += ex.CountryAdjust
	}
	return adj
}

// dobEvidence compares a query DOB ("YYYY-MM-DD", "YYYY-MM" or "YYYY") with
// the entry's DOBs ("YYYY-MM-DD", "YYYY-MM", "YYYY", "YYYY/YYYY").
func dobEvidence(q string, have []string) (float64, string) {
	if len(q) < 4 {
		return 0, ""
	}
	qy := atoi4(q[:4])
	if qy == 0 {
		return 0, ""
	}
	bestAdj, bestText := dobMismatch, fmt.Sprintf("DOB %s differs from listed %s", q, strings.Join(have, ", "))
	for _, h := range have {
		switch {
		case len(q) == 10 && h == q:
			return dobExactBoost, fmt.Sprintf("DOB %s matches exactly", h)
		case len(h) == 9 && h[4] == '/':
			from, to := atoi4(h[:4]), atoi4(h[5:])
			if qy >= from && qy <= to && bestAdj < dobYearBoost {
				bestAdj, bestText = dobYearBoost, fmt.Sprintf("DOB year %d within listed range %s", qy, h)
			}
		default:
			hy := atoi4(h)
			if hy == 0 {
				continue
			}
			if hy == qy && len(h) < 10 || hy == qy && len(q) < 10 {
				if bestAdj < dobYearBoost {
					bestAdj, bestText = dobYearBoost, fmt.Sprintf("DOB year %d matches listed %s", qy, h)
				}
			} else if abs(hy-qy) <= 1 && bestAdj < 0 {
				bestAdj, bestText = 0, fmt.Sprintf("DOB %s close to listed %s", q, h)
			}
		}
	}
	return bestAdj, bestText
}

func atoi4(s string) int {
	if len(s) < 4 {
		return 0
	}
	n := 0
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// countryCodes maps ISO 3166 alpha-2 codes and common demonyms of the
// countries most seen in screening to the list files' country names.
var countryCodes = map[string]string{
	"ng": "nigeria", "nigerian": "nigeria", "gh": "ghana", "ghanaian": "ghana", "cm": "cameroon", "ne": "niger",
	"td": "chad", "ml": "mali", "bf": "burkina faso", "sn": "senegal", "ci": "cote d ivoire", "bj": "benin",
	"tg": "togo", "lr": "liberia", "sl": "sierra leone", "gn": "guinea", "gm": "gambia", "mr": "mauritania",
	"ly": "libya", "libyan": "libya", "sd": "sudan", "sudanese": "sudan", "ss": "south sudan", "so": "somalia",
	"somali": "somalia", "ke": "kenya", "et": "ethiopia", "er": "eritrea", "ug": "uganda", "rw": "rwanda",
	"cd": "democratic republic of the congo", "cf": "central african republic", "za": "south africa",
	"zw": "zimbabwe", "eg": "egypt", "egyptian": "egypt", "ma": "morocco", "dz": "algeria", "tn": "tunisia",
	"ye": "yemen", "yemeni": "yemen", "sa": "saudi arabia", "saudi": "saudi arabia", "ae": "united arab emirates",
	"iq": "iraq", "iraqi": "iraq", "ir": "iran", "iranian": "iran", "sy": "syria", "syrian": "syria",
	"lb": "lebanon", "lebanese": "lebanon", "jo": "jordan", "jordanian": "jordan", "ps": "palestinian",
	"af": "afghanistan", "afghan": "afghanistan", "pk": "pakistan", "pakistani": "pakistan", "in": "india",
	"bd": "bangladesh", "kp": "korea north", "ru": "russia", "russian": "russia", "by": "belarus",
	"ua": "ukraine", "cn": "china", "chinese": "china", "tr": "turkey", "turkish": "turkey", "us": "united states",
	"gb": "united kingdom", "uk": "united kingdom", "fr": "france", "de": "germany", "ve": "venezuela",
	"cu": "cuba", "cuban": "cuba", "mx": "mexico", "mexican": "mexico", "co": "colombia", "colombian": "colombia",
	"ph": "philippines", "id": "indonesia", "my": "malaysia", "kw": "kuwait", "qa": "qatar", "om": "oman",
	"bh": "bahrain", "syrian arab republic": "syria", "iran islamic republic of": "iran",
	"democratic people s republic of korea": "korea north", "north korea": "korea north", "russian federation": "russia",
	"united states of america": "united states", "turkiye": "turkey",
}

// countryName normalises a country name, code or demonym for comparison.
func countryName(s string) string {
	n := strings.Join(strings.Fields(foldName(s)), " ")
	if c, ok := countryCodes[n]; ok {
		return c
	}
	return n
}

// tokenWord is "token" for one token and "tokens" for more.
func tokenWord(n int) string {
	if n == 1 {
		return "token"
	}
	return "tokens"
}
