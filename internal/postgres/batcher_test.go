package postgres

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBatcherLingersOnlyUnderLoad: with a linger set, a lone item after small batches goes at
// once; after a batch of lingerFrom or more the worker waits for company.
func TestBatcherLingersOnlyUnderLoad(t *testing.T) {
	t.Parallel()
	type call struct {
		n  int
		at time.Time
	}
	calls := make(chan call, 16)
	gate := make(chan struct{})
	b := newBatcher(1, 64, 64, 300*time.Millisecond, nil, func() (func([]int), func()) {
		return func(batch []int) {
			if batch[0] < 0 { // hold the worker while items queue up
				<-gate
			}
			calls <- call{len(batch), time.Now()}
		}, nil
	})
	defer b.close()

	sent := time.Now()
	b.ch <- 1
	c := <-calls
	require.Equal(t, 1, c.n)
	require.Less(t, c.at.Sub(sent), 250*time.Millisecond, "no linger at low load")

	b.ch <- -1
	time.Sleep(50 * time.Millisecond) // the worker is now held inside fn
	for i := range 6 {
		b.ch <- i
	}
	close(gate)
	require.Equal(t, 1, (<-calls).n)
	c = <-calls
	require.Equal(t, 6, c.n, "the queued items form one batch")

	sent = time.Now()
	b.ch <- 42
	c = <-calls
	require.Equal(t, 1, c.n)
	require.GreaterOrEqual(t, c.at.Sub(sent), 250*time.Millisecond, "lingers after a batch of %d", lingerFrom)
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
