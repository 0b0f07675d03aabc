package admission

import (
	"context"
	"sync"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// Accounts serialises, within this process, the screenings of one sender account from the
// read of its history to the commit of its transaction. Without it, a burst of transfers from
// one account screened at the same moment would each read the history before any of the
// others is stored, and the rules that count an account's recent transactions (AML-003's
// 24-hour count and sum, AML-007's 60-minute count, velocity) would not see the burst they
// exist to catch. Screenings of different accounts never wait for each other; those of one
// account wait for its previous screening's commit (a few milliseconds each).
//
// The gate is per process. Across replicas the store refuses a record whose account history
// changed since it was read (screening.Store.Save answers screening.ErrHistoryChanged) and
// screening.Service.Screen runs it again (docs/guide/operations.md "One account's screenings
// across replicas").
//
// How long a screening waits for its turn depends on its Pace (Lock). The zero Accounts is
// ready to use, with a 1 s limit for a stream's wait and no shed counter (NewAccounts sets
// them).
type Accounts struct {
	// pacedWait bounds a stream's wait for its turn (0: 1s); onShed counts its refusals.
	pacedWait time.Duration
	onShed    func()

	mu   sync.Mutex
	held map[accountKey]*accountTurns // an entry while a screening of the account holds its turn
	seq  uint64                       // order of arrival of the waiters
	// waiting counts the screenings waiting for a turn, over every account (Waiting:
	// complyd_screening_account_wait_length).
	waiting int
}

// NewAccounts returns the gate. pacedWait bounds how long a stream's screening waits for its
// account's previous screenings before it is refused with SERVICE_UNAVAILABLE and Retry-After
// (COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT; 0 means 1 s); onShed, when set, is called for each
// such refusal (complyd_screening_account_shed_total).
func NewAccounts(pacedWait time.Duration, onShed func()) *Accounts {
	return &Accounts{pacedWait: pacedWait, onShed: onShed}
}

// Lock takes the account's turn for a screening of pace p at transaction timestamp at, and
// returns the function that hands it on (called once the screening is stored or has failed).
//
// A stream's screening (Streamed) waits at most the paced limit: a stream keeps up to
// StreamInFlight screenings in flight, and when they are more than the service screens (or many
// of them are one account's) they would otherwise wait here for seconds, unseen by the store's
// admission (docs/guide/screening.md "Overload"); past the limit the screening is refused at
// once, like one the store refuses. Any other waits as long as ctx allows: a unary screening's
// own deadline bounds its wait, and a batch's items wait for each other (a batch of one
// account's transfers is screened one after the other by design). A wait that ctx ends returns
// ctx's error.
func (g *Accounts) Lock(ctx context.Context, tenant tenancy.TenantID, account string, at time.Time, p Pace) (unlock func(), err error) {
	if p != Streamed {
		return g.lock(ctx, tenant, account, at)
	}
	limit := g.pacedWait
	if limit <= 0 {
		limit = time.Second
	}
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	unlock, err = g.lock(wctx, tenant, account, at)
	if err != nil && ctx.Err() == nil {
		if g.onShed != nil {
			g.onShed()
		}
		return nil, apperr.Overloaded()
	}
	return unlock, err
}

// Waiting is the number of screenings waiting for their account's previous screening to be
// stored, over every account (complyd_screening_account_wait_length). Under a burst of one
// account's transfers, or a stream offering more than the service screens, this is where they
// wait, before the store's queues can see them.
func (g *Accounts) Waiting() int { return g.waitingNow() }

// waitingNow is the number of screenings waiting for their account's turn.
func (g *Accounts) waitingNow() int {
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
func (g *Accounts) lock(ctx context.Context, tenant tenancy.TenantID, account string, at time.Time) (unlock func(), err error) {
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
func (g *Accounts) handOver(k accountKey) {
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
