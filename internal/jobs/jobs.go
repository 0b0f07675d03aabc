// Package jobs holds the River workers that deliver side effects queued by the stores in the
// same transaction as the change: email sending now; webhooks, expiry and re-screening join as
// their capabilities land. Every worker is idempotent: delivery is at least once.
//
// jobs may import core packages and River; it must not import other adapters except through
// the small interfaces it declares (cmd satisfies them).
package jobs

import (
	"sync/atomic"

	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/tenancy"
)

// EmailOutbox is what the mail worker reads and writes (postgres.EmailStore).
type EmailOutbox interface {
	// GetMany returns the emails of ids that exist, by id, with their status.
	GetMany(ctx context.Context, tenantID tenancy.TenantID, ids []string) (map[string]notify.Outboxed, error)
	MarkAttempt(ctx context.Context, tenantID tenancy.TenantID, id, status string, sendErr error) error
}

// SendEmailWorker sends a job's outbox emails.
type SendEmailWorker struct {
	river.WorkerDefaults[notify.SendEmailArgs]
	Outbox EmailOutbox
	Mailer notify.Mailer
}

// Work sends each of the job's emails unless an earlier attempt already did, giving way to busy
// screening before each after the first it sends (againFrom). The job's emails are read
// together. An email that fails, or is missing, does not stop the others; the job then fails,
// and its retry sends only what is still unsent.
func (w *SendEmailWorker) Work(ctx context.Context, job *river.Job[notify.SendEmailArgs]) error {
	tenantID := tenancy.TenantID(job.Args.TenantID)
	ids := job.Args.IDs()
	queued, err := w.Outbox.GetMany(ctx, tenantID, ids)
	if err != nil {
		return fmt.Errorf("load emails: %w", err)
	}
	var errs []error
	sent := 0
	again := againFrom(ctx)
	for _, id := range ids {
		e, ok := queued[id]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("email %s: %w", id, apperr.NotFoundf("email not found")))
			continue
		case e.Status == notify.StatusSent || e.Status == notify.StatusLogged:
			continue
		}
		if sent > 0 {
			if err := again.wait(ctx); err != nil {
				return errors.Join(append(errs, err)...)
			}
		}
		sent++
		if err := w.send(ctx, tenantID, e.Message); err != nil {
			errs = append(errs, fmt.Errorf("email %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// send sends msg and records the attempt.
func (w *SendEmailWorker) send(ctx context.Context, tenantID tenancy.TenantID, msg notify.Message) error {
	sendErr := w.Mailer.Send(ctx, msg)
	done := notify.StatusSent
	if !w.Mailer.Delivers() {
		done = notify.StatusLogged
	}
	if err := w.Outbox.MarkAttempt(ctx, tenantID, msg.ID, done, sendErr); err != nil {
		return fmt.Errorf("record attempt: %w", err)
	}
	return sendErr
}

// JobTimeout bounds every job (River's default is a minute); RescueStuckJobsAfter is when a job
// still `running` is taken for one whose process died, and retried (docs/guide/operations.md).
const (
	JobTimeout           = 30 * time.Second
	RescueStuckJobsAfter = 35 * time.Second
)

// Runner owns the River client that works the queues.
type Runner struct {
	Client  *river.Client[pgx.Tx]
	running atomic.Bool
}

// NewRunner builds a River client working every registered worker and running the periodic
// jobs (for example the dead-webhook purge).
func NewRunner(pool *pgxpool.Pool, workers *river.Workers, log *slog.Logger, periodic ...*river.PeriodicJob) (*Runner, error) {
	return NewRunnerYielding(pool, workers, log, Yield{}, periodic...)
}

// NewRunnerYielding is NewRunner with y holding jobs back while screening is busy (yield.go).
func NewRunnerYielding(pool *pgxpool.Pool, workers *river.Workers, log *slog.Logger, y Yield, periodic ...*river.PeriodicJob) (*Runner, error) {
	var middleware []rivertype.Middleware
	if y.Busy != nil {
		middleware = append(middleware, y.Middleware())
	}
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Middleware: middleware,
		Logger:     log,
		// Side effects (webhooks, mail) should leave within a fraction of a second. River learns of
		// most inserts by LISTEN/NOTIFY; the poll is the fallback for the ones it misses, and at
		// the 1 s default it set the p99 of resolve-to-webhook (docs/guide/webhooks.md).
		FetchPollInterval: 50 * time.Millisecond,
		// A job running when its process died (kill -9, a lost node) stays `running` until the
		// rescuer frees it; River's default waits an hour, which left webhooks undelivered that
		// long. Jobs are held to JobTimeout (a worker may ask for less: webhook deliveries take
		// 30 s), so a job still running after RescueStuckJobsAfter belongs to a dead client; the
		// rescuer looks every 30 s, so another replica retries it within about a minute.
		JobTimeout:           JobTimeout,
		RescueStuckJobsAfter: RescueStuckJobsAfter,
		FetchCooldown:        20 * time.Millisecond,
		Queues:               map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 20}},
		Workers:              workers,
		PeriodicJobs:         periodic,
	})
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	return &Runner{Client: c}, nil
}

// Start starts working jobs.
func (r *Runner) Start(ctx context.Context) error {
	if err := r.Client.Start(ctx); err != nil {
		return err
	}
	r.running.Store(true)
	go func() {
		<-r.Client.Stopped()
		r.running.Store(false)
	}()
	return nil
}

// Running reports whether the workers are working jobs (readiness).
func (r *Runner) Running() bool { return r.running.Load() }

// Stop stops gracefully.
func (r *Runner) Stop(ctx context.Context) error {
	r.running.Store(false)
	return r.Client.Stop(ctx)
}
