package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Side effects give way to screening.
//
// Every River job (an officer's email, a webhook delivery, a retro-screening) runs on the same
// CPUs and the same database as the screenings that queued it, and a burst of case-opening
// screenings queues several jobs each: two officers and a webhook endpoint make four. Measured
// on a 2-core host (the measurement log of docs/performance.md#history, seventh session, "A bank's tenant"), the 20 workers on
// that backlog took the CPU the screenings needed: the service answered 358 of 400 screenings a
// second offered and 277 of 1,000, p99 0.5 and 1.3 s. A screening is a payment waiting; an email
// a few seconds late is not. So while the screening store reports that screenings are waiting
// behind a backlog (Busy), a job waits before it starts, a Step at a time, up to MaxWait, then
// runs whatever the load: delivery is delayed, never dropped (the job stays in River, and a
// crash meanwhile leaves it to the rescuer like any running job).

// Yield holds back jobs while screening is busy.
type Yield struct {
	// Busy reports whether screenings are waiting behind a backlog now (the screening store's
	// Busy). Nil: never.
	Busy func() bool
	// Step is how long a job sleeps between looks (default 20 ms).
	Step time.Duration
	// MaxWait bounds one job's wait (default 5 s), so that a load that never lets up delays
	// side effects without stopping them.
	MaxWait time.Duration
	// MaxAgain bounds what a job of several side effects waits after it started, all its
	// waits together (yieldAgain; default MaxYieldAgain).
	MaxAgain time.Duration
	// Waited, when set, is told how long each held-back job waited.
	Waited func(time.Duration)
}

// Middleware is y as River worker middleware (Config.Middleware).
func (y Yield) Middleware() rivertype.Middleware {
	return river.WorkerMiddlewareFunc(func(ctx context.Context, _ *rivertype.JobRow, doInner func(context.Context) error) error {
		if _, err := y.wait(ctx, 0); err != nil {
			return err
		}
		// The job's Yield rides in ctx as a value (nothing in ctx is mutable): a job of several
		// side effects takes its own allowance from it (againFrom) and spends it locally.
		return doInner(context.WithValue(ctx, yieldKey{}, y))
	})
}

// MaxYieldAgain bounds what yieldAgain waits over one job, all its waits together: with the
// wait before the job started (MaxWait, 5 s) a job of several side effects waits at most 10 s
// of its 30 s (JobTimeout), which leaves its work the rest. Past it the job runs on, as a job
// whose single wait reached MaxWait does.
const MaxYieldAgain = 5 * time.Second

type yieldKey struct{}

// yieldAgain is one job's allowance for giving way again after it started (againFrom).
type yieldAgain struct {
	y    Yield
	left time.Duration
	on   bool // false outside the middleware: wait returns at once
}

// againFrom is for a job of several side effects (the officers' emails of a batch of cases, the
// first attempts of its webhook deliveries): the job takes it once, when it starts, and calls
// its wait before each side effect after the first, which waits as the middleware waited before
// the job started, so that a job of eight gives way to screening eight times, not once, up to
// MaxAgain (MaxYieldAgain) in all. Outside the middleware (no Yield in ctx) wait returns at
// once. The allowance is the job's own value, used from one goroutine; ctx only carries the
// Yield it is made from.
func againFrom(ctx context.Context) *yieldAgain {
	y, ok := ctx.Value(yieldKey{}).(Yield)
	if !ok {
		return &yieldAgain{}
	}
	left := y.MaxAgain
	if left <= 0 {
		left = MaxYieldAgain
	}
	return &yieldAgain{y: y, left: left, on: true}
}

// wait gives way to busy screening within what is left of the job's allowance.
func (a *yieldAgain) wait(ctx context.Context) error {
	if !a.on || a.left <= 0 {
		return nil
	}
	waited, err := a.y.wait(ctx, a.left)
	a.left -= waited
	return err
}

// wait returns once screening is not busy or MaxWait (or bound, when it is shorter and not
// zero) has passed, with how long it waited; ctx's error if it ends first (the job is then retried
// like any interrupted one).
func (y Yield) wait(ctx context.Context, bound time.Duration) (time.Duration, error) {
	if y.Busy == nil || !y.Busy() {
		return 0, nil
	}
	step, limit := y.Step, y.MaxWait
	if step <= 0 {
		step = 20 * time.Millisecond
	}
	if limit <= 0 {
		limit = 5 * time.Second
	}
	if bound > 0 && bound < limit {
		limit = bound
	}
	start := time.Now()
	t := time.NewTimer(step)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return time.Since(start), ctx.Err()
		case <-t.C:
		}
		if waited := time.Since(start); !y.Busy() || waited >= limit {
			if y.Waited != nil {
				y.Waited(waited)
			}
			return waited, nil
		}
		t.Reset(step)
	}
}
