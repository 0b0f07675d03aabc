package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/kyc"
)

// KYCExpiryWorker marks applications EXPIRED once they stayed non-terminal for the tenant's
// expiry_days (docs/design/design-choices.md §5); the store audits each and queues kyc.status_changed.
type KYCExpiryWorker struct {
	river.WorkerDefaults[kyc.ExpireArgs]
	Expirer kyc.Expirer
	Now     func() time.Time
	Log     *slog.Logger
}

// Work runs one sweep at Now(). It is idempotent: an expired application is terminal.
func (w *KYCExpiryWorker) Work(ctx context.Context, _ *river.Job[kyc.ExpireArgs]) error {
	n, err := w.Expirer.ExpireApplications(ctx, w.Now())
	if n > 0 && w.Log != nil {
		w.Log.InfoContext(ctx, "kyc applications expired", "count", n)
	}
	return err
}

// KYCExpiryPeriodic schedules the sweep every interval (and once at start).
func KYCExpiryPeriodic(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return kyc.ExpireArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}
