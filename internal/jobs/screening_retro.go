package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// RetroStore is what the retro-screening worker needs of the screening store.
type RetroStore interface {
	// Get returns the stored transaction. Errors: NOT_FOUND.
	Get(ctx context.Context, tenantID tenancy.TenantID, id string) (screening.Stored, error)
	// Prefetch reads the sender account's history and profile before the transaction; pace is
	// the queue-wait limit of the store's admission (admission.Pace).
	Prefetch(ctx context.Context, tx *screening.Transaction, withKYC bool, pace admission.Pace) (screening.Prefetch, error)
	// RecordRetro stores the re-run and opens the case when decision is non-nil and the
	// transaction has none yet; it returns the case id.
	RecordRetro(ctx context.Context, st screening.Stored, verdicts []screening.EngineVerdict, agg screening.Aggregate,
		decision *screening.CaseDecision, engines []string) (string, error)
}

// RetroScreeningWorker re-runs the engines that failed open during a screening (docs/reference/specification.md
// part 1: the partial screening is logged for retroactive review). When the re-run finds a hit
// the transaction gets a case (SANCTIONS_HIT, PEP_MATCH, FRAUD_ALERT, ...) with the usual email,
// dashboard notification and webhook. An engine that fails again fails the job, which River
// retries with backoff.
type RetroScreeningWorker struct {
	river.WorkerDefaults[screening.RetroArgs]
	Store    RetroStore
	Settings screening.SettingsSource
	// Engines are the fail-open engines (sanctions, behavioral) to re-run.
	Engines    []screening.Engine
	RunTimeout time.Duration
	Log        *slog.Logger
}

// Work re-runs args.Engines on the stored transaction.
func (w *RetroScreeningWorker) Work(ctx context.Context, job *river.Job[screening.RetroArgs]) error {
	a := job.Args
	st, err := w.Store.Get(ctx, a.TenantID, a.TransactionID)
	if err != nil {
		return err
	}
	set, err := w.Settings.Settings(ctx, a.TenantID)
	if err != nil {
		return err
	}
	// A job's context carries River's job timeout, so the re-run is held to the store's short
	// queue-wait limit (admission.Budgeted) and gives way to live screenings under a backlog.
	pre, err := w.Store.Prefetch(ctx, st.Tx, false, admission.PaceOf(ctx))
	if err != nil {
		return err
	}
	e := &screening.Enrichment{Config: set.Config, History: pre.History, Profile: pre.Profile, Rules: set.Rules, Countries: set.Countries, Engines: set.Engines}
	timeout := w.RunTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	verdicts, agg, err := screening.Rerun(rctx, w.Engines, a.Engines, st.Tx, e)
	if err != nil {
		return err
	}
	decision := screening.RetroCase(verdicts, agg)
	caseID, err := w.Store.RecordRetro(ctx, st, verdicts, agg, decision, a.Engines)
	if err != nil {
		return err
	}
	if w.Log != nil {
		w.Log.InfoContext(ctx, "retro-screening done", "tenant", a.TenantID, "transaction", a.TransactionID,
			"engines", a.Engines, "outcome", agg.Outcome, "case", caseID)
	}
	return nil
}
