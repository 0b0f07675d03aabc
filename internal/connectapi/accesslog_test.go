package connectapi

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestOKSampler: successes of one procedure are logged up to the per-second budget, the rest
// counted and reported on the next logged line; each procedure has its own budget (issue 15
// point 3: one access-log line per request at 3,000/s is a cost).
func TestOKSampler(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Unix(1_700_000_000, 0)
	s := &okSampler{perSecond: 3, now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }}
	logged := 0
	for range 10 {
		if ok, skipped := s.admit("/a"); ok {
			logged++
			require.Zero(t, skipped)
		}
	}
	require.Equal(t, 3, logged)
	ok, _ := s.admit("/b")
	require.True(t, ok, "another procedure has its own budget")

	mu.Lock()
	now = now.Add(time.Second)
	mu.Unlock()
	ok, skipped := s.admit("/a")
	require.True(t, ok)
	require.Equal(t, 7, skipped, "the next logged line reports the successes left out")
	ok, skipped = s.admit("/a")
	require.True(t, ok)
	require.Zero(t, skipped)
}
