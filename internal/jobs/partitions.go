package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// Partitions keeps the monthly partitions of the tables that grow with traffic ahead of the
// clock (migration 0050, docs/performance-at-scale.md "Partition maintenance");
// postgres.PartitionStore implements it.
type Partitions interface {
	EnsurePartitions(ctx context.Context, now time.Time, monthsAhead int) (int, error)
}

// PartitionsArgs is the periodic partition maintenance.
type PartitionsArgs struct{}

// Kind names the job.
func (PartitionsArgs) Kind() string { return "partitions" }

// PartitionsMonthsAhead is how many months after the current one always have their partition:
// a screening dated up to three months ahead lands in its month's partition, not the default.
const PartitionsMonthsAhead = 3

// PartitionsWorker runs PartitionsArgs.
type PartitionsWorker struct {
	river.WorkerDefaults[PartitionsArgs]
	Store   Partitions
	NowFunc func() time.Time
}

// Work creates the partitions of the current month and the PartitionsMonthsAhead after it that
// do not exist yet.
func (w *PartitionsWorker) Work(ctx context.Context, _ *river.Job[PartitionsArgs]) error {
	now := time.Now()
	if w.NowFunc != nil {
		now = w.NowFunc()
	}
	_, err := w.Store.EnsurePartitions(ctx, now, PartitionsMonthsAhead)
	return err
}

// PartitionsJob runs the maintenance every 6 hours, and at start: a month's partition exists
// three months before its first screening, so a stopped service has months to come back.
func PartitionsJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(6*time.Hour), func() (river.JobArgs, *river.InsertOpts) {
		return PartitionsArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
