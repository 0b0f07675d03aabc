package sanctions

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestKeyTable(t *testing.T) {
	t.Parallel()
	var empty keyTable
	_, ok := empty.get(1)
	require.False(t, ok)

	kt := newKeyTable(100)
	// Hashes that share their low bits land in one probe chain.
	for i := uint64(0); i < 100; i++ {
		kt.put(i<<20|7, span{off: uint32(i), n: uint32(i + 1)})
	}
	for i := uint64(0); i < 100; i++ {
		sp, ok := kt.get(i<<20 | 7)
		require.True(t, ok, i)
		require.Equal(t, span{off: uint32(i), n: uint32(i + 1)}, sp)
	}
	for _, h := range []uint64{0, 8, 100<<20 | 7, 1 << 63} {
		_, ok := kt.get(h)
		require.False(t, ok, h)
	}
	require.LessOrEqual(t, 100*4, 3*len(kt.slots), "load at most three quarters")
}
