package sanctions

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSearchSpacingRules: listed names written with other spacing (issue 18,
// spacing-joined), each found at the default threshold with the rule a
// reviewer can check.
func TestSearchSpacingRules(t *testing.T) {
	t.Parallel()
	_, idx := realLists(t)
	for _, c := range []struct{ query, entry, want string }{
		// Three listed words run together into one query token (joined
		// triples are index keys, as adjacent pairs are).
		{"Saifalarab GADDAFI", "ofac-sdn:12631", `"saifalarab"~"saif al arab" (joined: spacing differs)`},
		{"Saif Alarabgaddafi", "ofac-sdn:12631", `"alarabgaddafi"~"al arab gaddafi" (joined: spacing differs)`},
		{"Kyonghwanmun", "ofac-sdn:22997", `"kyonghwanmun"~"kyong hwan mun" (joined: spacing differs)`},
		{"NOVOSIBIRSKIIPRIBOROSTROITELNYIZAVOD", "ofac-sdn:46678",
			`"novosibirskiipriborostroitelnyizavod"~"novosibirskii priborostroitelnyi zavod" (joined: spacing differs)`},
		// Two long listed words joined: 33 letters, over the old limit of 30.
		{"OBEDINENNAYADVIGATELESTROITELNAYA KORPORATSIYA", "ofac-sdn:37782",
			`"obedinennayadvigatelestroitelnaya"~"obedinennaya dvigatelestroitelnaya" (joined: spacing differs)`},
		// A join that hides an abd… compound: the query word is split abd +
		// lahragab, and so is the listed pair joined (joinedCanon).
		{"Abdullahragab", "un-sc:2786246", `"abdullahragab"~"abdullah ragab" (joined: spacing differs)`},
		{"Abdallahragab", "un-sc:2786246", `"abdallahragab"~"abdullah ragab" (joined: spacing differs)`},
		// A particle joined to the word before it is matched as that pair,
		// not left to an exact particle elsewhere in the query.
		{"Saifal-arab AL-GADDAFI", "ofac-sdn:12631", `"saifal"~"saif al" (joined: spacing differs)`},
	} {
		requireExplained(t, idx, c.query, c.entry, c.want)
	}
}

// requireExplained requires that query finds entry at the default threshold
// with an explanation holding want.
func requireExplained(t *testing.T, idx *Index, query, entry, want string) {
	t.Helper()
	ms := idx.Search(Query{Name: query})
	var got *Match
	for i := range ms {
		if ms[i].EntryID == entry {
			got = &ms[i]
		}
	}
	require.NotNil(t, got, "%s: %v", query, ms)
	require.Contains(t, got.Explanation.String(), want, query)
	t.Logf("%s → %s", query, got.Explanation)
}

// TestAttachedLegalForm: a legal form written onto a word of the name (no
// space) is dropped like the legal form it is; forms a name word may end or
// begin with (co, sa, ao, corp) are left alone.
func TestAttachedLegalForm(t *testing.T) {
	t.Parallel()
	canon := func(name string) []string {
		var out []string
		for _, t := range tokenize(name) {
			out = append(out, t.canon)
		}
		return out
	}
	for name, want := range map[string][]string{
		"SHAHID TONDGOYAN PETROCHEMICALCOMPANY": {"shahid", "tondgoyan", "petrochemical"},
		"OTKRITIE CAPITAL CYPRUSLIMITED":        {"otkritie", "capital", "cyprus"},
		"UNITED AIRCRAFTCORPORATION":            {"united", "aircraft"},
		"NPK URALVAGONZAVODOAO":                 {"npk", "uralvagonzavod"},
		"ELINS STCJSC":                          {"elins", "stc"},
		"LLCTSTO DELTA-AERO":                    {"tsto", "delta", "aero"},
		"INSURANCE COMPANYSBERBANK":             {"insurance", "sberbank"},
		"Francisco Telecorp":                    {"francisco", "telecorp"},
		"OOOZENIT":                              {"zenit"},
	} {
		require.Equal(t, want, canon(name), name)
	}
	_, idx := realLists(t)
	requireExplained(t, idx, "SHAHID TONDGOYAN PETROCHEMICALCOMPANY", "ofac-sdn:15955", `"petrochemical"~"petrochemical" (exact)`)
	requireExplained(t, idx, "ELINS STCJSC", "ofac-sdn:39183", `"stc"~"stc" (exact)`)
}

// TestSearchAttachedTitle: a title written onto the name (Sheikhshafi) is
// compared without it, like an attached particle, and explained as a title;
// titles that begin ordinary names (Imam-, Lord-) are not taken off.
func TestSearchAttachedTitle(t *testing.T) {
	t.Parallel()
	require.Equal(t, "shafi", stripTitle("sheikhshafi"))
	require.Equal(t, "abubakar", stripTitle("sheikhabubakar"))
	require.Equal(t, "", stripTitle("imamoglu"))
	require.Equal(t, "", stripTitle("sheikhov")) // three letters would remain
	_, idx := realLists(t)
	requireExplained(t, idx, "Sheikhshafi al-Ajmi", "un-sc:6908397", `"sheikhshafi"~"shafi" (title attached on one side only)`)
	requireExplained(t, idx, "Mullahnaeem Barech", "un-sc:110897", `"mullahnaeem"~"naeem" (title attached on one side only)`)
}
