package sanctions

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortByIDYielding: the yielding sort of a tenant's entries orders them as a plain sort by
// ID does, at every size around its runs' length (512) and merge widths, and keeps each
// entry whole.
func TestSortByIDYielding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 511, 512, 513, 1023, 1024, 1025, 2049, 5000, 20_001} {
		es := make([]Entry, n)
		for i := range es {
			es[i] = Entry{ID: fmt.Sprintf("%08x-%d", rng.Uint32(), i), Name: fmt.Sprintf("name %d", i)}
		}
		want := slices.Clone(es)
		slices.SortFunc(want, func(a, b Entry) int { return strings.Compare(a.ID, b.ID) })
		got := sortByIDYielding(slices.Clone(es))
		if len(got) != n {
			t.Fatalf("n=%d: %d entries back", n, len(got))
		}
		for i := range got {
			if got[i].ID != want[i].ID || got[i].Name != want[i].Name {
				t.Fatalf("n=%d: entry %d is %q, want %q", n, i, got[i].ID, want[i].ID)
			}
		}
	}
}

// TestSHA256Yielding: the hash taken in chunks is the hash of the whole, at sizes around the
// chunk (64 KiB).
func TestSHA256Yielding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 64<<10 - 1, 64 << 10, 64<<10 + 1, 1<<20 + 7} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if got, want := sha256Yielding(b), sha256.Sum256(b); got != want {
			t.Fatalf("n=%d: %x, want %x", n, got, want)
		}
	}
}
