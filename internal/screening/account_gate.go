package screening

import (
	"context"
	"sync"

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
// (docs/operations.md "One account's screenings across replicas").
type accountGate struct {
	mu   sync.Mutex
	held map[accountKey]chan struct{} // closed when the holder's screening is stored
}

type accountKey struct {
	tenant  tenancy.TenantID
	account string
}

// lock waits until no other screening of the account is in flight and takes its turn; unlock
// lets the next one go. It gives up with ctx's error when ctx ends first.
func (g *accountGate) lock(ctx context.Context, tenant tenancy.TenantID, account string) (unlock func(), err error) {
	k := accountKey{tenant, account}
	for {
		g.mu.Lock()
		if g.held == nil {
			g.held = map[accountKey]chan struct{}{}
		}
		busy, ok := g.held[k]
		if !ok {
			done := make(chan struct{})
			g.held[k] = done
			g.mu.Unlock()
			return func() {
				g.mu.Lock()
				delete(g.held, k)
				g.mu.Unlock()
				close(done)
			}, nil
		}
		g.mu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
