package snapshot

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/sanctions"
)

// TestListsParse decompresses the shipped snapshot and parses it: the public-domain OFAC SDN list
// only (the UN list is not public domain), with the entry count of the files it was made from
// (the README of ../shared/data/sanctions, beside the checkout).
func TestListsParse(t *testing.T) {
	t.Parallel()
	ls, err := Lists()
	require.NoError(t, err)
	require.Len(t, ls, 1)
	counts := map[string]int{}
	for _, l := range ls {
		es, err := sanctions.ParseFiles(l.Format, l.Files)
		require.NoError(t, err, l.List)
		counts[l.List] = len(es)
	}
	require.Equal(t, 13821, counts[sanctions.ListOFACSDN])
	require.Equal(t, "OFAC-SDN of 2023-12-28", Describe())
}
