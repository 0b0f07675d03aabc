package sanctions

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExplanationPlurals: one unmatched token reads "token", more read "tokens".
func TestExplanationPlurals(t *testing.T) {
	t.Parallel()
	one := Explanation{List: "OFAC-SDN", EntryID: "ofac-sdn:1", MatchedName: "Ali HASSAN", Score: 0.9,
		UnmatchedQuery: []string{"musa"}, UnmatchedName: []string{"salim"}, IgnoredWeak: []string{"al"}}.String()
	require.Contains(t, one, "; query token not in listed name: musa")
	require.Contains(t, one, "; listed token not in query: salim")
	require.Contains(t, one, "; weak token ignored: al")
	require.NotContains(t, one, "(s)")
	two := Explanation{List: "OFAC-SDN", EntryID: "ofac-sdn:1", MatchedName: "Ali HASSAN", Score: 0.9,
		UnmatchedQuery: []string{"musa", "bello"}, UnmatchedName: []string{"salim", "omar"}, IgnoredWeak: []string{"al", "bin"}}.String()
	require.Contains(t, two, "; query tokens not in listed name: musa bello")
	require.Contains(t, two, "; listed tokens not in query: salim omar")
	require.Contains(t, two, "; weak tokens ignored: al bin")
}
