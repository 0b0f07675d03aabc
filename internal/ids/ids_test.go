package ids

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestNewFormat: the prefix and 26 characters of the lower-case extended hex alphabet.
func TestNewFormat(t *testing.T) {
	t.Parallel()
	require.Regexp(t, `^case_[0-9a-v]{26}$`, New("case_"))
}

// TestNewSortsByTime: ids made at later milliseconds sort after earlier ones as text (which is
// what keeps inserts on the right edge of an index), over the whole range of the 48-bit clock's
// digits: a millisecond apart, a second, a day, decades.
func TestNewSortsByTime(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	var made []string
	for _, d := range []time.Duration{0, time.Millisecond, 2 * time.Millisecond, time.Second, time.Hour, 24 * time.Hour,
		30 * 24 * time.Hour, 365 * 24 * time.Hour, 20 * 365 * 24 * time.Hour} {
		for range 50 { // random bits must not break the order between milliseconds
			made = append(made, at("rpt_", base.Add(d)))
		}
	}
	for i := 50; i < len(made); i += 50 {
		require.Less(t, slices.Max(made[i-50:i]), slices.Min(made[i:i+50]), "group %d", i/50)
	}
}

// TestNewUnique: many ids in the same millisecond do not repeat (80 random bits).
func TestNewUnique(t *testing.T) {
	t.Parallel()
	now := time.Now()
	seen := map[string]bool{}
	for range 100_000 {
		id := at("evt_", now)
		require.False(t, seen[id], id)
		seen[id] = true
	}
}
