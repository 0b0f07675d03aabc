package flight_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/flight"
)

// TestDoSharesOneFetch: callers of one key at the same time get one fetch's value (and its
// error), a caller that gives up gets its own ctx's error at once while the others still get the
// value, and a later call fetches again.
func TestDoSharesOneFetch(t *testing.T) {
	var g flight.Group[int]
	var calls atomic.Int64
	started, release := make(chan struct{}), make(chan struct{})
	fetch := func(ctx context.Context) (int, error) {
		if calls.Add(1) == 1 {
			close(started)
		}
		select {
		case <-release:
			return 7, nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	first, cancel := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() { _, err := g.Do(first, "k", fetch); firstErr <- err }()
	<-started

	const n = 8
	var ready, done sync.WaitGroup
	got := make([]int, n)
	for i := range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			got[i], _ = g.Do(context.Background(), "k", fetch)
		}()
	}
	ready.Wait()
	time.Sleep(20 * time.Millisecond) // the callers reach Do while the fetch is held
	cancel()
	require.ErrorIs(t, <-firstErr, context.Canceled, "the first caller gives up at once")
	close(release)
	done.Wait()
	for _, v := range got {
		require.Equal(t, 7, v, "the fetch outlived its first caller")
	}
	require.EqualValues(t, 1, calls.Load())

	boom := errors.New("boom")
	_, err := g.Do(context.Background(), "k", func(context.Context) (int, error) { return 0, boom })
	require.ErrorIs(t, err, boom)
	v, err := g.Do(context.Background(), "k", func(context.Context) (int, error) { return 9, nil })
	require.NoError(t, err)
	require.Equal(t, 9, v, "a call after the shared one fetches again")
}
