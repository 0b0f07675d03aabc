package screenstore

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBatcherLingersOnlyUnderLoad: with a linger set, a lone item after a quiet spell goes at
// once; the worker waits for company after a batch of lingerFrom or more, and after lone items
// arriving faster than one per linger (moderate load: before, only the batch size counted, and
// at 1,000 screenings/s nearly every prefetch went alone).
func TestBatcherLingersOnlyUnderLoad(t *testing.T) {
	t.Parallel()
	const linger = 150 * time.Millisecond
	type call struct {
		n  int
		at time.Time
	}
	calls := make(chan call, 16)
	gate := make(chan struct{})
	b := newBatcher(1, 64, 64, linger, nil, func() (func([]int), func()) {
		return func(batch []int) {
			if batch[0] < 0 { // hold the worker while items queue up
				<-gate
			}
			calls <- call{len(batch), time.Now()}
		}, nil
	})
	defer b.close()
	quiet := func() { time.Sleep(2*linger + 50*time.Millisecond) } // longer than last × linger

	sent := time.Now()
	b.ch <- 1
	c := <-calls
	require.Equal(t, 1, c.n)
	require.Less(t, c.at.Sub(sent), linger/2, "no linger for the first item")

	quiet()
	sent = time.Now()
	b.ch <- 2
	c = <-calls
	require.Equal(t, 1, c.n)
	require.Less(t, c.at.Sub(sent), linger/2, "no linger after a quiet spell")

	// The next item comes right after the previous one: one item within linger is a rate
	// worth waiting for.
	sent = time.Now()
	b.ch <- 3
	c = <-calls
	require.Equal(t, 1, c.n)
	require.GreaterOrEqual(t, c.at.Sub(sent), linger*8/10, "lingers when lone items come faster than one per linger")

	quiet()
	b.ch <- -1
	time.Sleep(50 * time.Millisecond) // the worker is now held inside fn
	for i := range 6 {
		b.ch <- i
	}
	close(gate)
	require.Equal(t, 1, (<-calls).n)
	c = <-calls
	require.Equal(t, 6, c.n, "the queued items form one batch")

	quiet()
	sent = time.Now()
	b.ch <- 42
	c = <-calls
	require.Equal(t, 1, c.n)
	require.GreaterOrEqual(t, c.at.Sub(sent), linger*8/10, "lingers after a batch of %d", lingerFrom)
}

// TestBatcherLingerCountsFromQueueing: the linger counts from when the batch's first item was
// queued, not from when a worker got to it. Items that waited behind a slow batch for longer
// than the linger go at once, although the previous batch was large (before, the worker waited
// a whole linger more, adding it to every item of the batch under load).
func TestBatcherLingerCountsFromQueueing(t *testing.T) {
	t.Parallel()
	const linger = 150 * time.Millisecond
	type item struct {
		v      int
		queued time.Time
	}
	type call struct {
		n  int
		at time.Time
	}
	calls := make(chan call, 16)
	gate := make(chan struct{})
	b := newBatcher(1, 64, 64, linger, nil, func() (func([]item), func()) {
		return func(batch []item) {
			if batch[0].v < 0 { // hold the worker while items queue up
				<-gate
			}
			calls <- call{len(batch), time.Now()}
		}, nil
	})
	b.queuedAt = func(it item) time.Time { return it.queued }
	defer b.close()
	send := func(v int) { b.ch <- item{v, time.Now()} }

	send(1)
	require.Equal(t, 1, (<-calls).n, "the first item goes alone")
	// A batch of lingerFrom or more, held in fn: the worker lingers for the items after -1.
	send(-1)
	for i := range lingerFrom + 1 {
		send(10 + i)
	}
	time.Sleep(linger + 50*time.Millisecond) // the batch is taken and held inside fn
	for i := range 3 {
		send(20 + i)
	}
	time.Sleep(linger + 50*time.Millisecond) // the three have waited longer than linger
	released := time.Now()
	close(gate)
	require.Equal(t, lingerFrom+2, (<-calls).n)
	c := <-calls
	require.Equal(t, 3, c.n)
	require.Less(t, c.at.Sub(released), linger/2, "no linger for items that waited longer than it")

	// lingerLeft itself: the rest of the linger after the first item's queueing.
	at := time.Unix(1_800_000_000, 0)
	require.Equal(t, linger-40*time.Millisecond, b.lingerLeft(item{0, at}, at.Add(40*time.Millisecond)))
	require.LessOrEqual(t, b.lingerLeft(item{0, at}, at.Add(linger)), time.Duration(0))
}

// TestLingerNow: the rule itself, without timers.
func TestLingerNow(t *testing.T) {
	t.Parallel()
	at := time.Unix(1_800_000_000, 0)
	ms := time.Millisecond
	require.False(t, lingerNow(0, 10, at, at.Add(ms)), "no linger configured")
	require.False(t, lingerNow(ms, 0, time.Time{}, at), "the first batch")
	require.True(t, lingerNow(ms, lingerFrom, at, at.Add(time.Hour)), "a large previous batch")
	require.True(t, lingerNow(ms, 1, at, at.Add(900*time.Microsecond)), "1 item in 0.9 ms: over 1,000/s")
	require.False(t, lingerNow(ms, 1, at, at.Add(2*ms)), "1 item in 2 ms: 500/s, less than one per linger")
	require.True(t, lingerNow(ms, 3, at, at.Add(2500*time.Microsecond)), "3 items in 2.5 ms")
	require.False(t, lingerNow(ms, 3, at, at.Add(4*ms)), "3 items in 4 ms")
}

// TestBatcherCloseWhileSending: senders still running when the store closes (a screening stream
// in flight at shutdown) get errClosed, never a panic. Before, send and offer were plain channel
// sends and close closed the channel under them: "send on closed channel" crashed the process
// (seen in TestScreeningStream's shutdown in CI).
func TestBatcherCloseWhileSending(t *testing.T) {
	t.Parallel()
	var handled atomic.Int64
	b := newBatcher(2, 8, 4, 0, nil, func() (func([]int), func()) {
		return func(batch []int) { handled.Add(int64(len(batch))) }, nil
	})
	var wg sync.WaitGroup
	var sent, refused atomic.Int64
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				var err error
				if g%2 == 0 {
					err = b.send(context.Background(), i)
				} else {
					var ok bool
					if ok, err = b.offer(i); err == nil && !ok {
						continue
					}
				}
				if err != nil {
					require.ErrorIs(t, err, errClosed)
					refused.Add(1)
					return
				}
				sent.Add(1)
			}
		}()
	}
	time.Sleep(time.Millisecond)
	b.close()
	wg.Wait()
	require.Equal(t, sent.Load(), handled.Load(), "every item queued before close is handed to a worker")
	ok, err := b.offer(1)
	require.False(t, ok)
	require.ErrorIs(t, err, errClosed)
	require.ErrorIs(t, b.send(context.Background(), 1), errClosed)
}
