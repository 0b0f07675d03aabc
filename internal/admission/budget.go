package admission

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// Budget is the deadline of a unary screening whose caller set none (a REST call, or a gRPC or
// Connect call without grpc-timeout / Connect-Timeout-Ms): COMPLYD_SCREENING_DEADLINE, default
// 2 s; 0: none. A screening that has not finished within it is answered SERVICE_UNAVAILABLE
// with Retry-After (nothing stored unless it was committed, in which case it is answered
// normally), so that a backlog is dropped instead of served to callers that have given up.
type Budget time.Duration

// Apply gives ctx the budget when it has no deadline of its own; ours reports whether it did
// (Over needs it). The cancel function must be called.
func (b Budget) Apply(ctx context.Context) (_ context.Context, cancel context.CancelFunc, ours bool) {
	if _, ok := ctx.Deadline(); ok || b <= 0 {
		return ctx, func() {}, false
	}
	ctx, cancel = context.WithTimeout(ctx, time.Duration(b))
	return ctx, cancel, true
}

// Over turns the expiry of the server's own budget (ours, from Apply) into SERVICE_UNAVAILABLE
// with Retry-After; a caller's own deadline stays DEADLINE_EXCEEDED, as gRPC defines.
func Over(ctx context.Context, ours bool, err error) error {
	if ours && errors.Is(err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		e := apperr.New(apperr.Unavailable, "screening did not complete within the server's deadline; retry shortly")
		e.RetryAfter = time.Second
		return e
	}
	return err
}

// BatchParallelism bounds the screenings of one batch (ScreenTransactions, a payment message)
// in flight at once; they share group commits, so a batch of 500 costs a handful of database
// transactions.
const BatchParallelism = 64

// StreamInFlight bounds the screenings of one stream in flight at once. When they are all
// taken the stream's handler stops reading, so HTTP/2 flow control holds the sender back
// (backpressure). 512 is enough to keep the group commits full at thousands of screenings per
// second (latency × rate) without letting one stream queue unbounded work.
const StreamInFlight = 512

// Batch calls screen(i) for every i in [0, n), at most BatchParallelism at once, each in its
// own goroutine, and returns when all have returned.
func Batch(n int, screen func(i int)) {
	sem := make(chan struct{}, BatchParallelism)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			screen(i)
		}()
	}
	wg.Wait()
}
