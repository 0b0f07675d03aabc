package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
)

// Partitioner creates the monthly partitions of the tables partitioned by month
// (postgres.PartitionStore).
type Partitioner interface {
	EnsurePartitions(ctx context.Context, from, to time.Time) ([]string, error)
}

// PartitionsArgs is the periodic job that keeps the partitions of the current month and the
// PartitionsAhead months after it in place (docs/performance-at-scale.md "Partitioning").
type PartitionsArgs struct{}

// Kind names the job.
func (PartitionsArgs) Kind() string { return "partitions" }

// PartitionsAhead is how many months after the current one have their partitions already: a
// month's partition exists three months before its first screening, so a service stopped for
// less than that never stores a month's rows in the default partition.
const PartitionsAhead = 3

// PartitionsInterval is how often the job runs (and once at start).
const PartitionsInterval = 6 * time.Hour

// PartitionsWorker runs PartitionsArgs.
type PartitionsWorker struct {
	river.WorkerDefaults[PartitionsArgs]
	Store   Partitioner
	NowFunc func() time.Time
	Logger  *slog.Logger
}

// Work creates the partitions of the current UTC month and the PartitionsAhead after it that
// do not exist yet.
func (w *PartitionsWorker) Work(ctx context.Context, _ *river.Job[PartitionsArgs]) error {
	from, to := PartitionMonths(w.NowFunc())
	created, err := w.Store.EnsurePartitions(ctx, from, to)
	if err != nil {
		return fmt.Errorf("ensure partitions: %w", err)
	}
	if len(created) > 0 && w.Logger != nil {
		w.Logger.InfoContext(ctx, "partitions created", "partitions", created)
	}
	return nil
}

// PartitionMonths returns the range of months the job keeps partitioned at now: from the first
// instant of now's UTC month to the first of the month PartitionsAhead+1 after it (exclusive).
func PartitionMonths(now time.Time) (from, to time.Time) {
	n := now.UTC()
	from = time.Date(n.Year(), n.Month(), 1, 0, 0, 0, 0, time.UTC)
	return from, from.AddDate(0, PartitionsAhead+1, 0)
}

// PartitionsJob is the periodic job of PartitionsWorker, also run at start.
func PartitionsJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(PartitionsInterval), func() (river.JobArgs, *river.InsertOpts) {
		return PartitionsArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: PartitionsInterval}}
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
