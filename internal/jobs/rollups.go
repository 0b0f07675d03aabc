package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
)

// RollupFolder folds the dashboard rollups' shards of the hours before a cutoff
// (dashboardstore.RollupFolder).
type RollupFolder interface {
	Fold(ctx context.Context, before time.Time) (int64, error)
}

// RollupsArgs is the nightly pass that folds the rollups' shards of the hours no longer written
// (dashboardstore.FoldCutoff, docs/performance-at-scale.md "The transactions list's total").
type RollupsArgs struct{}

// Kind names the job.
func (RollupsArgs) Kind() string { return "rollups_fold" }

// RollupsWorker runs RollupsArgs.
type RollupsWorker struct {
	river.WorkerDefaults[RollupsArgs]
	Folder  RollupFolder
	Cutoff  func(now time.Time) time.Time
	NowFunc func() time.Time
	Logger  *slog.Logger
}

// Timeout allows an upgraded database's first pass over years of hours; what a pass folded
// stays folded when it is cut short.
func (w *RollupsWorker) Timeout(*river.Job[RollupsArgs]) time.Duration { return time.Hour }

// Work folds every tenant's shards of the hours before the cutoff of now.
func (w *RollupsWorker) Work(ctx context.Context, _ *river.Job[RollupsArgs]) error {
	start := time.Now()
	n, err := w.Folder.Fold(ctx, w.Cutoff(w.NowFunc()))
	if w.Logger != nil {
		w.Logger.InfoContext(ctx, "rollups folded", "rows", n, "duration", time.Since(start).Round(time.Millisecond))
	}
	return err
}

// RollupsJob runs the pass once a day, an hour after the grains' (GrainsHourUTC), at a quiet
// hour of a Nigerian bank's day.
func RollupsJob() *river.PeriodicJob {
	return river.NewPeriodicJob(dailyAt{hour: GrainsHourUTC + 1}, func() (river.JobArgs, *river.InsertOpts) {
		return RollupsArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: 24 * time.Hour}}
	}, nil)
}
