package sanctions

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakePace is a pacer on a fake clock: work advances it by hand, each sleep by its duration.
type fakePace struct {
	t      time.Time
	slept  time.Duration
	sleeps int
}

func (f *fakePace) pacer(busy func() bool) *pacer {
	p := newPacer(busy)
	p.now = func() time.Time { return f.t }
	p.sleep = func(d time.Duration) { f.t = f.t.Add(d); f.slept += d; f.sleeps++ }
	return p
}

// work runs the pacer over n slices of d of work each, calling every at each (mask 0).
func (f *fakePace) work(p *pacer, n int, d time.Duration) {
	for i := 0; i < n; i++ {
		p.every(i, 0)
		f.t = f.t.Add(d)
	}
	p.every(n, 0)
}

func TestPacer(t *testing.T) {
	t.Parallel()
	type testBundle struct {
		clock *fakePace
	}
	setup := func(t *testing.T) *testBundle {
		t.Helper()
		return &testBundle{clock: &fakePace{t: time.Unix(1_700_000_000, 0)}}
	}

	t.Run("NoForegroundNeverWaits", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		require.Nil(t, newPacer(nil))
		var p *pacer
		p.every(7, 7) // a nil pacer only yields
		q := b.clock.pacer(func() bool { return false })
		b.clock.work(q, 100, time.Millisecond)
		require.Zero(t, b.clock.sleeps)
	})

	t.Run("WaitsWhileBusyAtSliceEnds", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		// The foreground is busy for 1 ms after each slice ends, then idle.
		var idleAt time.Time
		busy := func() bool { return b.clock.t.Before(idleAt) }
		p := b.clock.pacer(busy)
		for i := 0; i < 10; i++ {
			p.every(i, 0)
			b.clock.t = b.clock.t.Add(2 * time.Millisecond) // a slice of 2 ms of work
			idleAt = b.clock.t.Add(time.Millisecond)
		}
		p.every(10, 0)
		// Nine slice ends after the first start: each waited the 1 ms the foreground took.
		require.Equal(t, 10*time.Millisecond, b.clock.slept)
		require.Equal(t, 10*time.Millisecond, p.waited)
		require.Equal(t, 20*time.Millisecond, p.worked)
	})

	t.Run("ShortWorkDoesNotEndASlice", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		p := b.clock.pacer(func() bool { return true })
		b.clock.work(p, 50, 10*time.Microsecond) // 0.5 ms of work in all
		require.Zero(t, b.clock.sleeps)
	})

	t.Run("FloorOnProgressUnderConstantLoad", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		// The foreground is always busy: the pauses are bounded by paceMaxPause each and by
		// paceRatio times the work in all, so the work gets at least a third of the wall time.
		p := b.clock.pacer(func() bool { return true })
		start := b.clock.t
		b.clock.work(p, 1000, time.Millisecond)
		wall := b.clock.t.Sub(start)
		require.Equal(t, 1000*time.Millisecond, p.worked)
		require.LessOrEqual(t, p.waited, paceRatio*p.worked)
		require.LessOrEqual(t, wall, (1+paceRatio)*p.worked+paceMaxPause)
		require.Greater(t, p.waited, p.worked, "a busy foreground gets more than half the time")
	})
}
