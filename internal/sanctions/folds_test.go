package sanctions

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFoldsAsReplacer: the allocation-free folds give what a
// strings.Replacer of the same pairs gives (the skeleton and phonetic key
// were written with one), on every token and joined pair of the listed
// names and the eval queries, and on strings made to overlap the groups.
func TestFoldsAsReplacer(t *testing.T) {
	t.Parallel()
	skel := strings.NewReplacer(
		"kh", "h", "gh", "g", "ph", "f", "th", "t", "dh", "s", "sh", "s", "ch", "s", "zh", "j", "dj", "j", "dz", "j",
		"ks", "x", "ck", "k", "ts", "s", "tz", "s", "q", "k", "c", "k", "z", "s", "w", "v",
	)
	phon := strings.NewReplacer(
		"sch", "s", "tch", "c",
		"ph", "f", "kh", "k", "gh", "g", "th", "t", "dh", "d", "sh", "s", "zh", "j", "ch", "c", "ck", "k",
		"dj", "j", "dz", "j", "ts", "s", "tz", "s",
		"q", "k", "x", "ks", "z", "s", "v", "f", "w", "", "h", "",
	)
	words := []string{"", "schtch", "tschkhsh", "kkhh", "dzdjdh", "tzts", "cksch", "shch", "zhzh", "qqq", "wwh", "xks"}
	entries, _ := realLists(t)
	for _, e := range entries {
		names := []string{e.Name}
		for _, a := range e.Aliases {
			names = append(names, a.Name)
		}
		for _, n := range names {
			ts := tokenize(n)
			for _, tk := range ts {
				words = append(words, tk.canon, tk.raw)
			}
			for _, c := range joinPairs(ts, nil) {
				words = append(words, c.canon)
			}
		}
	}
	for _, c := range loadEvalCases(t) {
		for _, tk := range tokenize(c.Query) {
			words = append(words, tk.canon, tk.raw)
		}
	}
	for _, w := range words {
		require.Equal(t, skel.Replace(w), string(skeletonFolds.apply(nil, w)), "skeleton folds of %q", w)
		require.Equal(t, phon.Replace(w), string(phoneticFolds.apply(nil, w)), "phonetic folds of %q", w)
	}
}
