package sanctions

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSearchTypoRules: misspellings the matcher once missed on the real lists
// (issue 18, typo-2 misses of the tuning split and variants of them), each
// found at the default threshold with the rule a reviewer can check.
func TestSearchTypoRules(t *testing.T) {
	t.Parallel()
	_, idx := realLists(t)
	for _, c := range []struct{ query, entry, want string }{
		// An abd… compound misspelt is compared as the word it is written as
		// (abd + wllah is the word abdwllah), not as one of its pieces.
		{"ABDWLLAH AL-SEUSSI", "un-sc:690779", `"abdwllah"~"abdullah" (typo, 1 edit)`},
		{"Abshiir ABDULALHI", "ofac-sdn:11737", `"abdulalhi"~"abdullahi" (typo, 1 edit)`},
		{"Abshir ABDULLAI", "ofac-sdn:11737", `"abdullai"~"abdullahi" (typo, 1 edit)`},
	} {
		ms := idx.Search(Query{Name: c.query})
		var got *Match
		for i := range ms {
			if ms[i].EntryID == c.entry {
				got = &ms[i]
			}
		}
		require.NotNil(t, got, "%s: %v", c.query, ms)
		require.Contains(t, got.Explanation.String(), c.want, c.query)
		t.Logf("%s → %s", c.query, got.Explanation)
	}
}
