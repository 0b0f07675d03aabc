package screening

import (
	"context"
	"sync"
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// accountGate serialises, within this process, the screenings of one sender account from the
// read of its history to the commit of its transaction. Without it, a burst of transfers from
// one account screened at the same moment would each read the history before any of the
// others is stored, and the rules that count an account's recent transactions (AML-003's
// 24-hour count and sum, AML-007's 60-minute count, velocity) would not see the burst they
// exist to catch. Screenings of different accounts never wait for each other; those of one
// account wait for its previous screening's commit (a few milliseconds each).
//
// The gate is per process. Across replicas the store refuses a record whose account history
// changed since it was read (Store.Save answers ErrHistoryChanged) and Screen runs it again
// (docs/guide/operations.md "One account's screenings across replicas").
type accountGate struct {
	mu   sync.Mutex
	held map[accountKey]*accountTurns // an entry while a screening of the account holds its turn
	seq  uint64                       // order of arrival of the waiters
	// waiting counts the screenings waiting for a turn, over every account (Service.AccountWaiting:
	// complyd_screening_account_wait_length).
	waiting int
}

// waitingNow is the number of screenings waiting for their account's turn.
func (g *accountGate) waitingNow() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting
}

type accountKey struct {
	tenant  tenancy.TenantID
	account string
}

// accountTurns are the screenings of one account waiting for the turn held by another.
type accountTurns struct {
	waiting []*gateWaiter
}

// gateWaiter is one waiting screening: its transaction's timestamp, the order it came in, and
// the channel closed when the turn is handed to it.
type gateWaiter struct {
	at    time.Time
	seq   uint64
	ready chan struct{}
}

// lock waits until no other screening of the account is in flight and takes its turn; unlock
// hands the turn to the waiting screening with the earliest transaction timestamp (at; the one
// that came first among equal timestamps). It gives up with ctx's error when ctx ends first.
//
// The turn is handed over, not raced for: when every waiter woke and raced for it (as before),
// one account's screenings queued under load were stored in a random order, each was then
// often no longer its account's latest transaction, and its history was read from the raw
// rows of its minute instead of the minute's bucket (the measurement log of docs/performance.md#history "Why the stream falls
// back at 3,000/s"). In timestamp order each screening's history is the transactions before
// it, as if they had been sent one by one.
func (g *accountGate) lock(ctx context.Context, tenant tenancy.TenantID, account string, at time.Time) (unlock func(), err error) {
	k := accountKey{tenant, account}
	g.mu.Lock()
	if g.held == nil {
		g.held = map[accountKey]*accountTurns{}
	}
	turns, busy := g.held[k]
	if !busy {
		g.held[k] = &accountTurns{}
		g.mu.Unlock()
		return func() { g.handOver(k) }, nil
	}
	g.seq++
	w := &gateWaiter{at: at, seq: g.seq, ready: make(chan struct{})}
	turns.waiting = append(turns.waiting, w)
	g.waiting++
	g.mu.Unlock()
	select {
	case <-w.ready:
		return func() { g.handOver(k) }, nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	for i, o := range turns.waiting {
		if o == w {
			turns.waiting = append(turns.waiting[:i], turns.waiting[i+1:]...)
			g.waiting--
			g.mu.Unlock()
			return nil, ctx.Err()
		}
	}
	g.mu.Unlock()
	// The turn was handed to w as ctx ended: pass it on.
	g.handOver(k)
	return nil, ctx.Err()
}

// handOver ends the current turn of k: the earliest waiter gets it, or the account is free.
func (g *accountGate) handOver(k accountKey) {
	g.mu.Lock()
	turns := g.held[k]
	if len(turns.waiting) == 0 {
		delete(g.held, k)
		g.mu.Unlock()
		return
	}
	next := 0
	for i, w := range turns.waiting {
		if n := turns.waiting[next]; w.at.Before(n.at) || w.at.Equal(n.at) && w.seq < n.seq {
			next = i
		}
	}
	w := turns.waiting[next]
	turns.waiting = append(turns.waiting[:next], turns.waiting[next+1:]...)
	g.waiting--
	g.mu.Unlock()
	close(w.ready)
}
