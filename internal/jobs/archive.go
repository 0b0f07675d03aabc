package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// Archiver archives, verifies and drops every tenant's months past its retention
// (archive.Service.RunAll, docs/guide/retention.md).
type Archiver interface {
	RunAll(ctx context.Context) (int, error)
}

// ArchiveArgs is the nightly retention pass.
type ArchiveArgs struct{}

// Kind names the job.
func (ArchiveArgs) Kind() string { return "archive" }

// ArchiveWorker runs ArchiveArgs.
type ArchiveWorker struct {
	river.WorkerDefaults[ArchiveArgs]
	Archiver Archiver
}

// Timeout allows a large month's export and upload.
func (w *ArchiveWorker) Timeout(*river.Job[ArchiveArgs]) time.Duration { return 6 * time.Hour }

// Work runs one pass; a failure (an object store down, a verification that failed) is retried
// by River, and what was dropped before it stays dropped.
func (w *ArchiveWorker) Work(ctx context.Context, _ *river.Job[ArchiveArgs]) error {
	_, err := w.Archiver.RunAll(ctx)
	return err
}

// ArchiveJob runs the pass every 24 hours (not at start: a restart does not start an export).
func ArchiveJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(24*time.Hour), func() (river.JobArgs, *river.InsertOpts) {
		return ArchiveArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: 24 * time.Hour}}
	}, nil)
}
