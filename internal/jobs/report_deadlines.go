package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// ReportDeadlines notifies the officers of reports near or past their deadline (docs/guide/reports.md
// "Deadlines"); postgres.ReportStore implements it.
type ReportDeadlines interface {
	NotifyDeadlines(ctx context.Context, now time.Time) (int, error)
}

// ReportDeadlinesArgs is the periodic sweep of report deadlines.
type ReportDeadlinesArgs struct{}

// Kind names the job.
func (ReportDeadlinesArgs) Kind() string { return "report_deadlines" }

// ReportDeadlinesWorker runs ReportDeadlinesArgs.
type ReportDeadlinesWorker struct {
	river.WorkerDefaults[ReportDeadlinesArgs]
	Store   ReportDeadlines
	NowFunc func() time.Time
}

// Work notifies every tenant's due reports once.
func (w *ReportDeadlinesWorker) Work(ctx context.Context, _ *river.Job[ReportDeadlinesArgs]) error {
	now := time.Now()
	if w.NowFunc != nil {
		now = w.NowFunc()
	}
	_, err := w.Store.NotifyDeadlines(ctx, now)
	return err
}

// ReportDeadlinesJob runs the sweep every 15 minutes, and at start.
func ReportDeadlinesJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(15*time.Minute), func() (river.JobArgs, *river.InsertOpts) {
		return ReportDeadlinesArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
