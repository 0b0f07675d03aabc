package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestGrainsJobNightly: the pass runs at 01:00 UTC each day, never at once for a time on the
// hour itself, and across month and year ends.
func TestGrainsJobNightly(t *testing.T) {
	d := dailyAt{hour: GrainsHourUTC}
	lagos := time.FixedZone("WAT", 3600)
	for _, c := range []struct{ now, want string }{
		{"2026-12-03T13:55:00Z", "2026-12-04T01:00:00Z"},
		{"2026-12-03T00:59:59Z", "2026-12-03T01:00:00Z"},
		{"2026-12-03T01:00:00Z", "2026-12-04T01:00:00Z"},
		{"2026-12-31T23:00:00Z", "2027-01-01T01:00:00Z"},
	} {
		now, _ := time.Parse(time.RFC3339, c.now)
		want, _ := time.Parse(time.RFC3339, c.want)
		require.True(t, want.Equal(d.Next(now.In(lagos))), "after %s: %s", c.now, d.Next(now))
	}
}

type prunerFunc func(context.Context, time.Time) (int64, error)

func (f prunerFunc) Prune(ctx context.Context, before time.Time) (int64, error) {
	return f(ctx, before)
}

// TestGrainsWorkerPrunesBeforeCutoff: the pass prunes before the cutoff of the worker's clock.
func TestGrainsWorkerPrunesBeforeCutoff(t *testing.T) {
	now := time.Date(2026, 12, 3, 1, 0, 0, 0, time.UTC)
	var got time.Time
	w := &GrainsWorker{NowFunc: func() time.Time { return now }, Cutoff: func(n time.Time) time.Time { return n.AddDate(0, 0, -120) },
		Pruner: prunerFunc(func(_ context.Context, before time.Time) (int64, error) { got = before; return 7, nil })}
	require.NoError(t, w.Work(context.Background(), nil))
	require.Equal(t, now.AddDate(0, 0, -120), got)
}

type folderFunc func(context.Context, time.Time) (int64, error)

func (f folderFunc) Fold(ctx context.Context, before time.Time) (int64, error) { return f(ctx, before) }

// TestRollupsWorkerFoldsBeforeCutoff: the fold runs an hour after the grains' pass and folds
// before the cutoff of the worker's clock.
func TestRollupsWorkerFoldsBeforeCutoff(t *testing.T) {
	now := time.Date(2026, 12, 3, 2, 0, 0, 0, time.UTC)
	var got time.Time
	w := &RollupsWorker{NowFunc: func() time.Time { return now }, Cutoff: func(n time.Time) time.Time { return n.Add(-48 * time.Hour) },
		Folder: folderFunc(func(_ context.Context, before time.Time) (int64, error) { got = before; return 3, nil })}
	require.NoError(t, w.Work(context.Background(), nil))
	require.Equal(t, now.Add(-48*time.Hour), got)
	require.Equal(t, time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC), dailyAt{hour: GrainsHourUTC + 1}.Next(now))
}
