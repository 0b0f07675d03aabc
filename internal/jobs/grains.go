package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
)

// GrainsPruner deletes the per-account grains before a cutoff (screenstore.GrainsPruner).
type GrainsPruner interface {
	Prune(ctx context.Context, before time.Time) (int64, error)
}

// GrainsArgs is the nightly pass that prunes the grains older than the prefetch reads
// (screenstore.GrainsCutoff, docs/design/screening-performance.md "How long the grains are kept").
type GrainsArgs struct{}

// Kind names the job.
func (GrainsArgs) Kind() string { return "grains_prune" }

// GrainsWorker runs GrainsArgs.
type GrainsWorker struct {
	river.WorkerDefaults[GrainsArgs]
	Pruner  GrainsPruner
	Cutoff  func(now time.Time) time.Time
	NowFunc func() time.Time
	Logger  *slog.Logger
}

// Timeout allows a pass over every account of a large bank; what one pass deleted stays deleted
// when it is cut short, and the next night's pass goes on from there.
func (w *GrainsWorker) Timeout(*river.Job[GrainsArgs]) time.Duration { return 6 * time.Hour }

// Work prunes every tenant's buckets before the cutoff of now.
func (w *GrainsWorker) Work(ctx context.Context, _ *river.Job[GrainsArgs]) error {
	start := time.Now()
	n, err := w.Pruner.Prune(ctx, w.Cutoff(w.NowFunc()))
	if w.Logger != nil {
		w.Logger.InfoContext(ctx, "grains pruned", "rows", n, "duration", time.Since(start).Round(time.Millisecond))
	}
	return err
}

// GrainsJob runs the pass once a day at GrainsHourUTC, when a Nigerian bank's traffic is
// lowest, rather than at start and every 24 hours after: a service restarted more often than
// daily would otherwise never prune, and a deployment would start a pass at the busiest hour.
func GrainsJob() *river.PeriodicJob {
	return river.NewPeriodicJob(dailyAt{hour: GrainsHourUTC}, func() (river.JobArgs, *river.InsertOpts) {
		return GrainsArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: 24 * time.Hour}}
	}, nil)
}

// GrainsHourUTC is the UTC hour of the nightly pass (02:00 in Lagos).
const GrainsHourUTC = 1

// dailyAt is a river.PeriodicSchedule: every day at hour:00 UTC.
type dailyAt struct{ hour int }

// Next returns the first hour:00 UTC after current.
func (d dailyAt) Next(current time.Time) time.Time {
	c := current.UTC()
	next := time.Date(c.Year(), c.Month(), c.Day(), d.hour, 0, 0, 0, time.UTC)
	if !next.After(c) {
		next = next.AddDate(0, 0, 1)
	}
	return next
}
