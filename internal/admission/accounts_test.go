package admission

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestAccountGate: one account's screenings take turns, other accounts and tenants do not wait,
// and a waiter whose context ends gives up with its error.
func TestAccountGate(t *testing.T) {
	var g Accounts
	ctx := context.Background()
	unlock, err := g.lock(ctx, "t1", "0123456789", time.Time{})
	require.NoError(t, err)
	for _, k := range [][2]string{{"t1", "0123456780"}, {"t2", "0123456789"}} {
		u, err := g.lock(ctx, tenancy.TenantID(k[0]), k[1], time.Time{})
		require.NoError(t, err, "%v must not wait", k)
		u()
	}
	require.Zero(t, g.waitingNow())
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	_, err = g.lock(short, "t1", "0123456789", time.Time{})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Zero(t, g.waitingNow(), "one that gave up waits no more")

	got := make(chan struct{})
	go func() {
		u, err := g.lock(ctx, "t1", "0123456789", time.Time{})
		if err == nil {
			u()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("the second screening of the account did not wait for the first")
	case <-time.After(20 * time.Millisecond):
	}
	require.Equal(t, 1, g.waitingNow(), "the waiting screening is counted")
	unlock()
	select {
	case <-got:
	case <-time.After(time.Second):
		t.Fatal("the waiting screening did not get its turn")
	}
	require.Empty(t, g.held)
	require.Zero(t, g.waitingNow(), "handed its turn: waiting no more")
}

// TestAccountGateTimestampOrder: the turn goes to the waiting screening with the earliest
// transaction timestamp (the first to come among equal ones), handed over rather than raced
// for; one that gives up while waiting leaves the order of the others intact. Before, every
// waiter woke at each unlock and the fastest took the turn: one account's screenings queued
// under load were stored in a random order.
func TestAccountGateTimestampOrder(t *testing.T) {
	var g Accounts
	ctx := context.Background()
	base := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	unlock, err := g.lock(ctx, "t1", "0123456789", base)
	require.NoError(t, err)

	// Eight screenings queue in this order; their timestamps are in another (two equal).
	offsets := []int{7, 3, 5, 1, 6, 3, 2, 4}
	order := make(chan int, len(offsets))
	var waiting sync.WaitGroup
	for i, off := range offsets {
		waiting.Add(1)
		go func() {
			defer waiting.Done()
			u, err := g.lock(ctx, "t1", "0123456789", base.Add(time.Duration(off)*time.Second))
			if err != nil {
				t.Error(err)
				return
			}
			order <- i
			u()
		}()
		require.Eventually(t, func() bool { // the next one queues after this one
			g.mu.Lock()
			defer g.mu.Unlock()
			return len(g.held[accountKey{"t1", "0123456789"}].waiting) == i+1
		}, time.Second, time.Millisecond)
	}
	// One more gives up while waiting.
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	_, err = g.lock(short, "t1", "0123456789", base)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	unlock()
	waiting.Wait()
	close(order)
	var got []int
	for i := range order {
		got = append(got, i)
	}
	// Timestamps 1, 2, 3 (index 1, which came before index 5), 3, 4, 5, 6, 7.
	require.Equal(t, []int{3, 6, 1, 5, 7, 2, 4, 0}, got)
	require.Empty(t, g.held)
}

// TestLockAccountPaced: a stream's screening (Streamed) waits for its account's turn at most
// the paced limit and is then refused at once with SERVICE_UNAVAILABLE and Retry-After; a
// unary screening waits as long as its own deadline allows, and gives up with its error; a
// batch's item without a deadline waits for its turn.
func TestLockAccountPaced(t *testing.T) {
	var shed atomic.Int64
	s := NewAccounts(50*time.Millisecond, func() { shed.Add(1) })
	ctx := context.Background()
	unlock, err := s.Lock(ctx, "t1", "0123456789", time.Time{}, Budgeted)
	require.NoError(t, err)
	defer func() { unlock() }() // the turn taken last

	stream, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	start := time.Now()
	_, err = s.Lock(stream, "t1", "0123456789", time.Time{}, Streamed)
	require.Equal(t, apperr.Unavailable, apperr.CodeOf(err), "%v", err)
	var e *apperr.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, time.Second, e.RetryAfter)
	require.Less(t, time.Since(start), time.Second, "refused after PacedAccountWait, not the stream's deadline")
	require.Equal(t, int64(1), shed.Load(), "the refusal is counted")
	require.Zero(t, s.Waiting())

	// A batch's item without a deadline (Unbudgeted: paced, not streamed) waits for its
	// account's turn past the paced limit: a batch of one account's transfers is screened one
	// after the other.
	batchItem := make(chan error, 1)
	go func() {
		u, err := s.Lock(ctx, "t1", "0123456789", time.Time{}, PaceOf(ctx))
		if err == nil {
			u()
		}
		batchItem <- err
	}()
	time.Sleep(150 * time.Millisecond)
	unlock()
	select {
	case err := <-batchItem:
		require.NoError(t, err, "a batch's item is not refused for the wait")
	case <-time.After(5 * time.Second):
		t.Fatal("the batch's item did not get its turn")
	}
	unlock, err = s.Lock(ctx, "t1", "0123456789", time.Time{}, Unbudgeted)
	require.NoError(t, err)

	unary, cancel2 := context.WithTimeout(ctx, 150*time.Millisecond)
	defer cancel2()
	start = time.Now()
	_, err = s.Lock(unary, "t1", "0123456789", time.Time{}, PaceOf(unary))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.GreaterOrEqual(t, time.Since(start), 140*time.Millisecond, "a unary screening waits for its own deadline")
	require.Equal(t, int64(1), shed.Load(), "a unary screening's own deadline is not a refusal")
}
