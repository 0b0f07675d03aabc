package admission_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/apperr"
)

// TestPaceOf: a screening with a deadline is Budgeted and held to the short limit; one without
// is Unbudgeted; both it and a stream's are paced (the longer limit).
func TestPaceOf(t *testing.T) {
	ctx := context.Background()
	require.Equal(t, admission.Unbudgeted, admission.PaceOf(ctx))
	dl, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	require.Equal(t, admission.Budgeted, admission.PaceOf(dl))
	require.False(t, admission.Budgeted.Paced())
	require.True(t, admission.Unbudgeted.Paced())
	require.True(t, admission.Streamed.Paced())
	require.Equal(t, "streamed", admission.Streamed.String())
}

// TestBudget: the server's budget is given only to a context without a deadline; its expiry
// becomes SERVICE_UNAVAILABLE with Retry-After, a caller's own stays DEADLINE_EXCEEDED, and
// another error passes unchanged.
func TestBudget(t *testing.T) {
	ctx := context.Background()
	b := admission.Budget(20 * time.Millisecond)

	own, cancelOwn := context.WithTimeout(ctx, time.Hour)
	defer cancelOwn()
	got, cancel, ours := b.Apply(own)
	cancel()
	require.False(t, ours, "the caller's deadline is kept")
	require.Equal(t, own, got)

	got, cancel, ours = admission.Budget(0).Apply(ctx)
	cancel()
	require.False(t, ours, "0: no budget")
	_, has := got.Deadline()
	require.False(t, has)

	got, cancel, ours = b.Apply(ctx)
	defer cancel()
	require.True(t, ours)
	<-got.Done()
	err := admission.Over(got, ours, got.Err())
	require.Equal(t, apperr.Unavailable, apperr.CodeOf(err), "%v", err)
	var e *apperr.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, time.Second, e.RetryAfter)

	require.ErrorIs(t, admission.Over(got, false, got.Err()), context.DeadlineExceeded, "a caller's own deadline")
	other := errors.New("boom")
	require.Equal(t, other, admission.Over(got, ours, other))
}

// TestBatch: every index is screened once, never more than BatchParallelism at once.
func TestBatch(t *testing.T) {
	const n = 500
	var seen [n]atomic.Int32
	var now, peak atomic.Int32
	admission.Batch(n, func(i int) {
		c := now.Add(1)
		for {
			p := peak.Load()
			if c <= p || peak.CompareAndSwap(p, c) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		seen[i].Add(1)
		now.Add(-1)
	})
	for i := range seen {
		require.Equal(t, int32(1), seen[i].Load(), "index %d", i)
	}
	require.LessOrEqual(t, peak.Load(), int32(admission.BatchParallelism))
	require.Greater(t, peak.Load(), int32(1), "the items run concurrently")
	admission.Batch(0, func(int) { t.Fatal("nothing to screen") })
}

// TestShed: the store's admission asks the store's measure with the pace's limit, refuses with
// SERVICE_UNAVAILABLE and Retry-After while it holds, counts each refusal, and Busy asks at
// BusyWait; zero limits take the defaults.
func TestShed(t *testing.T) {
	var asked atomic.Int64
	backlog := 300 * time.Millisecond // how long a screening admitted now would wait
	var shed atomic.Int64
	s := admission.NewShed(100*time.Millisecond, time.Second, func(limit time.Duration) bool {
		asked.Store(int64(limit))
		return backlog > limit
	}, func() { shed.Add(1) })

	require.Equal(t, 100*time.Millisecond, s.Limit(admission.Budgeted))
	require.Equal(t, time.Second, s.Limit(admission.Unbudgeted))
	require.Equal(t, time.Second, s.Limit(admission.Streamed))

	err := s.Admit(admission.Budgeted)
	require.Equal(t, apperr.Unavailable, apperr.CodeOf(err), "%v", err)
	var e *apperr.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, time.Second, e.RetryAfter)
	require.Equal(t, int64(100*time.Millisecond), asked.Load())
	require.NoError(t, s.Admit(admission.Streamed), "a paced screening waits behind 300 ms")
	require.NoError(t, s.Admit(admission.Unbudgeted))
	require.Equal(t, int64(1), shed.Load())

	require.Error(t, s.Refuse())
	require.Equal(t, int64(2), shed.Load(), "a full queue's refusal is counted too")

	require.True(t, s.Busy())
	require.Equal(t, int64(admission.BusyWait), asked.Load())
	backlog = 0
	require.False(t, s.Busy())
	require.NoError(t, s.Admit(admission.Budgeted), "admission reopens once the queues drain")

	d := admission.NewShed(0, 0, func(time.Duration) bool { return false }, nil)
	require.Equal(t, admission.DefaultMaxQueueWait, d.Limit(admission.Budgeted))
	require.Equal(t, admission.DefaultPacedMaxQueueWait, d.Limit(admission.Streamed))
	require.Error(t, d.Refuse(), "no counter: still refused")
}
