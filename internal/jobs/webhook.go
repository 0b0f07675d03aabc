package jobs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// WebhookOutbox is what the delivery worker reads and writes (webhookstore.WebhookStore).
type WebhookOutbox interface {
	// Load returns the delivery and the tenant's current secret. Errors: NOT_FOUND.
	Load(ctx context.Context, tenantID tenancy.TenantID, id string) (webhook.Delivery, string, error)
	// LoadMany returns the deliveries of ids that still exist, in their order, and the secret.
	LoadMany(ctx context.Context, tenantID tenancy.TenantID, ids []string) ([]webhook.Delivery, string, error)
	// Requeue enqueues the first attempt of each delivery of ids as a job of its own.
	Requeue(ctx context.Context, tenantID tenancy.TenantID, ids []string) error
	// RecordAttempt writes the attempt and the delivery's new state if it still has
	// prevAttempts attempts, and enqueues the next attempt when d is FAILED, in one transaction.
	RecordAttempt(ctx context.Context, d webhook.Delivery, prevAttempts int, a webhook.Attempt) (bool, error)
	// PurgeDead deletes DEAD deliveries that died before cutoff.
	PurgeDead(ctx context.Context, cutoff time.Time) (int, error)
}

// WebhookSender makes one HTTP attempt (webhookhttp.Sender).
type WebhookSender interface {
	Send(ctx context.Context, rawURL, secret string, m webhook.Message) (int, error)
}

// Backoff returns the wait after attempt (1-based) failed.
type Backoff func(attempt int) time.Duration

// DefaultBackoff is docs/design/design-choices.md §7's schedule (about 10 s, 1 min, 5 min, 30 min) spread by
// ±20 % jitter.
func DefaultBackoff(attempt int) time.Duration { return webhook.NextAttemptDelay(attempt, jitter{}) }

type jitter struct{}

func (jitter) Float64() float64 { return rand.Float64() } //nolint:gosec // jitter, not a secret

// maxInlineWait is the longest wait the worker sleeps through itself rather than snoozing the
// job back to River; only test backoffs are that short.
const maxInlineWait = time.Second

// DeliverWebhookWorker makes one attempt of a webhook delivery per job, or the first attempts
// of several (DeliverArgs.DeliveryIDs). The delivery row is the source of truth: the job's
// Attempt must equal the row's attempt count, so a job run twice never makes an extra attempt,
// and after each failure RecordAttempt enqueues the next job in the same transaction (at the
// backoff time), so the schedule survives a restart. Exactly webhook.MaxAttempts attempts are
// made before DEAD.
type DeliverWebhookWorker struct {
	river.WorkerDefaults[webhook.DeliverArgs]
	Outbox WebhookOutbox
	Sender WebhookSender
	// NowFunc is the clock; time.Now when nil.
	NowFunc func() time.Time
	// BackoffFunc is the retry schedule; DefaultBackoff when nil (tests inject milliseconds).
	BackoffFunc Backoff
	// ManyBudget is how long a job of several first attempts starts new ones; the rest are
	// requeued as jobs of their own, so that a slow receiver (10 s an attempt at most) cannot
	// hold a job past its time limit. Zero means DefaultManyBudget.
	ManyBudget time.Duration
}

// DefaultManyBudget leaves a job of several attempts room for one more attempt of the
// sender's 10 s, and its record, inside the job's 30 s, after up to 5 s held back before it
// started (Yield.MaxWait).
const DefaultManyBudget = 10 * time.Second

func (w *DeliverWebhookWorker) now() time.Time {
	if w.NowFunc != nil {
		return w.NowFunc()
	}
	return time.Now()
}

// Timeout bounds one job: the sender's own 10 s attempt timeout plus bookkeeping, or a job of
// several attempts' wait before it started, its ManyBudget and one more attempt.
func (w *DeliverWebhookWorker) Timeout(*river.Job[webhook.DeliverArgs]) time.Duration {
	return 30 * time.Second
}

// Work makes the attempts the job stands for, those still due.
func (w *DeliverWebhookWorker) Work(ctx context.Context, job *river.Job[webhook.DeliverArgs]) error {
	args := job.Args
	if len(args.DeliveryIDs) > 0 {
		return w.workMany(ctx, args)
	}
	d, secret, err := w.Outbox.Load(ctx, args.TenantID, args.DeliveryID)
	if apperr.CodeOf(err) == apperr.NotFound {
		return nil // purged
	}
	if err != nil {
		return fmt.Errorf("load webhook delivery: %w", err)
	}
	if !owned(d, args.Attempt) {
		return nil // a stale or duplicate job: another job owns the next attempt
	}
	if d.NextAttemptAt != nil {
		if wait := d.NextAttemptAt.Sub(w.now()); wait > 0 {
			if wait > maxInlineWait {
				return river.JobSnooze(wait)
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return w.attempt(ctx, d, secret)
}

// owned reports whether a job scheduled at attempt still owns the delivery's next attempt.
func owned(d webhook.Delivery, attempt int) bool {
	return d.Attempts == attempt && (d.Status == webhook.StatusPending || d.Status == webhook.StatusFailed)
}

// workMany makes the first attempts of a job of several deliveries, one after the other, each
// recorded as it is made (so a crash re-sends as little as it can), giving way to busy
// screening before each after the first (againFrom). A delivery that is no longer
// at its first attempt belongs to another job (a manual retry, or this job's earlier run). When
// ManyBudget has passed, the deliveries not yet attempted are requeued as jobs of their own.
func (w *DeliverWebhookWorker) workMany(ctx context.Context, args webhook.DeliverArgs) error {
	ds, secret, err := w.Outbox.LoadMany(ctx, args.TenantID, args.IDs())
	if err != nil {
		return fmt.Errorf("load webhook deliveries: %w", err)
	}
	budget := w.ManyBudget
	if budget <= 0 {
		budget = DefaultManyBudget
	}
	start := time.Now()
	attempted := 0
	again := againFrom(ctx)
	for i, d := range ds {
		if !owned(d, 0) {
			continue
		}
		if attempted > 0 {
			if err := again.wait(ctx); err != nil {
				return err
			}
		}
		if time.Since(start) >= budget {
			var rest []string
			for _, o := range ds[i:] {
				if owned(o, 0) {
					rest = append(rest, o.ID)
				}
			}
			if err := w.Outbox.Requeue(ctx, args.TenantID, rest); err != nil {
				return fmt.Errorf("requeue webhook deliveries: %w", err)
			}
			return nil
		}
		if err := w.attempt(ctx, d, secret); err != nil {
			return err
		}
		attempted++
	}
	return nil
}

// attempt sends d once and records the outcome (and the next attempt's job when one is due).
func (w *DeliverWebhookWorker) attempt(ctx context.Context, d webhook.Delivery, secret string) error {
	start := time.Now()
	code, sendErr := w.Sender.Send(ctx, d.URL, secret, d.Message())
	at := w.now()
	prev := d.Attempts
	a := webhook.Attempt{Number: prev + 1, StatusCode: code, Duration: time.Since(start), At: at}
	if sendErr == nil {
		d.RecordSuccess(code, at)
	} else {
		a.Error = sendErr.Error()
		if d.RecordFailure(code, sendErr, at, jitter{}) && w.BackoffFunc != nil {
			next := at.Add(w.BackoffFunc(d.Attempts))
			d.NextAttemptAt = &next
		}
	}
	// The record is written even if ctx ends (webhookstore.WebhookStore.RecordAttempt); only the wait
	// for it ends with ctx, so a job at its time limit returns and its retry finds the attempt.
	if _, err := w.Outbox.RecordAttempt(ctx, d, prev, a); err != nil {
		return fmt.Errorf("record webhook attempt: %w", err)
	}
	return nil
}

// PurgeDeadWebhooksArgs is the periodic job that deletes dead letters older than
// webhook.DeadLetterRetention (7 days).
type PurgeDeadWebhooksArgs struct{}

// Kind names the job.
func (PurgeDeadWebhooksArgs) Kind() string { return "webhook_purge_dead" }

// PurgeDeadWebhooksWorker runs PurgeDeadWebhooksArgs.
type PurgeDeadWebhooksWorker struct {
	river.WorkerDefaults[PurgeDeadWebhooksArgs]
	Outbox  WebhookOutbox
	NowFunc func() time.Time
}

// Work deletes the expired dead letters of every tenant.
func (w *PurgeDeadWebhooksWorker) Work(ctx context.Context, _ *river.Job[PurgeDeadWebhooksArgs]) error {
	now := time.Now()
	if w.NowFunc != nil {
		now = w.NowFunc()
	}
	_, err := w.Outbox.PurgeDead(ctx, now.Add(-webhook.DeadLetterRetention))
	return err
}

// PurgeDeadWebhooksJob is the hourly periodic job of PurgeDeadWebhooksWorker, also run at start.
func PurgeDeadWebhooksJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(time.Hour), func() (river.JobArgs, *river.InsertOpts) {
		return PurgeDeadWebhooksArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
