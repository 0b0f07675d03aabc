package jobs

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/sanctions"
)

// RescreenWorker re-screens one tenant's subjects after a list change (docs/guide/sanctions.md).
// Re-running is safe: recorded hits never open a second case.
type RescreenWorker struct {
	river.WorkerDefaults[sanctions.RescreenArgs]
	Rescreener *sanctions.Rescreener
}

// Work runs the job.
func (w *RescreenWorker) Work(ctx context.Context, job *river.Job[sanctions.RescreenArgs]) error {
	_, err := w.Rescreener.Run(ctx, job.Args)
	return err
}
