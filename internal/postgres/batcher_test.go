package postgres

import (
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
