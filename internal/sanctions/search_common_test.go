package sanctions

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCommonPostingsInNameOrder: the common-token filter reads a name's
// postings of one key as one run (the heaviest of them) and counts the
// common units hitting a name once each (markMulti), so the postings of
// every common key must be in name order.
func TestCommonPostingsInNameOrder(t *testing.T) {
	_, idx := realLists(t)
	n := 0
	for _, sl := range idx.del.slots {
		if sl.sp.n < commonPostings {
			continue
		}
		n++
		ps := idx.postings[sl.sp.off : sl.sp.off+sl.sp.n]
		for i := 1; i < len(ps); i++ {
			require.LessOrEqual(t, ps[i-1]>>slotBits, ps[i]>>slotBits, "key at %d", sl.sp.off)
		}
		require.Equal(t, slices32Max(idx.postW[sl.sp.off:sl.sp.off+sl.sp.n]), idx.heaviest[sl.sp.off])
	}
	require.Positive(t, n)
}

// TestCommonFilterDropsOnlyDropped searches every eval query with and
// without the common-token filter at four thresholds: the filter may only
// leave out names the bound loop drops, so the same names are scored and
// the answers are the same; it must leave out some.
func TestCommonFilterDropsOnlyDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("searches every eval query eight times")
	}
	_, idx := realLists(t)
	touchedWith, touchedWithout := 0, 0
	for _, th := range []float64{0.6, 0.75, 0.85, 0.95} {
		for _, c := range loadEvalCases(t) {
			q := Query{Name: c.Query, EntityType: c.EntityType, Threshold: th}
			with, without := searchStats{}, searchStats{keepCommon: true}
			got, want := idx.search(q, &with), idx.search(q, &without)
			require.Equal(t, without.scored, with.scored, "%q at %.2f: names scored", c.Query, th)
			require.Equal(t, len(want), len(got), "%q at %.2f", c.Query, th)
			for i := range want {
				require.Equal(t, want[i].EntryID, got[i].EntryID, "%q at %.2f", c.Query, th)
				require.Equal(t, want[i].MatchedName, got[i].MatchedName, "%q at %.2f", c.Query, th)
				require.Equal(t, want[i].Score, got[i].Score, "%q at %.2f", c.Query, th)
			}
			touchedWith += with.touched
			touchedWithout += without.touched
		}
	}
	t.Logf("names touched: %d without the filter, %d with it", touchedWithout, touchedWith)
	require.Less(t, touchedWith, touchedWithout)
}

// slices32Max is the largest of ws (0 when empty).
func slices32Max(ws []float32) float32 {
	w := float32(0)
	for _, x := range ws {
		w = max(w, x)
	}
	return w
}
