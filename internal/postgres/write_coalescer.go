package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// writeCoalescer writes concurrent small writes of the side-effect workers together: the
// webhook delivery records (webhook_attempts.go) and the officers' emails' marks (email_store.go).
// Each of those was a transaction of its own, and under a flood of automatic cases a hundred
// workers wrote at once: a commit, a WAL flush and, for the deliveries, a run of the rollup
// trigger on a few hot rows, per record. The first write to arrive while none is in flight
// starts a writer goroutine, which writes whatever has queued, again and again, until nothing
// has. Alone, a write goes at once, as before.
type writeCoalescer[T any] struct {
	// write stores one batch; key names the row an item changes.
	write func(ctx context.Context, batch []T) error
	key   func(T) string

	mu      sync.Mutex
	queue   []*pendingWrite[T]
	writing bool
}

// pendingWrite is one item waiting for its write.
type pendingWrite[T any] struct {
	v    T
	err  error
	done chan struct{}
}

// maxCoalescedBatch bounds one write (its statements' arrays).
const maxCoalescedBatch = 256

// coalescedWriteTimeout bounds one write, pool wait included (a job's own limit is 30 s).
const coalescedWriteTimeout = 20 * time.Second

// do queues v and waits for its write, or for ctx. The write does not depend on ctx: a worker
// that sent an email or made an attempt must record it even if its job is being cancelled, so a
// queued write is made whatever happens to its caller. Only the wait ends with ctx: a job that
// reaches its time limit while the database is slow returns then (and is retried, and finds
// what was written) instead of waiting for each of its writes' own limits in turn, past the
// time after which River takes a running job for a dead one and runs it again.
func (w *writeCoalescer[T]) do(ctx context.Context, v T) error {
	c := &pendingWrite[T]{v: v, done: make(chan struct{})}
	w.mu.Lock()
	w.queue = append(w.queue, c)
	if !w.writing {
		w.writing = true
		go w.run()
	}
	w.mu.Unlock()
	select {
	case <-c.done:
		return c.err
	case <-ctx.Done():
		return fmt.Errorf("waiting for the write: %w", ctx.Err())
	}
}

func (w *writeCoalescer[T]) run() {
	for {
		w.mu.Lock()
		batch := w.take()
		if len(batch) == 0 {
			w.writing = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		vs := make([]T, len(batch))
		for i, c := range batch {
			vs[i] = c.v
		}
		ctx, cancel := context.WithTimeout(context.Background(), coalescedWriteTimeout)
		err := w.write(ctx, vs)
		cancel()
		for _, c := range batch {
			c.err = err
			close(c.done)
		}
	}
}

// take removes up to maxCoalescedBatch items from the queue, at most one per key: a second
// write of the same row (a job run twice) waits for the next write, where the first's outcome
// decides it, as if the two had come one after the other. Called with mu held.
func (w *writeCoalescer[T]) take() []*pendingWrite[T] {
	var batch, rest []*pendingWrite[T]
	seen := map[string]bool{}
	for _, c := range w.queue {
		k := w.key(c.v)
		if seen[k] || len(batch) == maxCoalescedBatch {
			rest = append(rest, c)
			continue
		}
		seen[k] = true
		batch = append(batch, c)
	}
	w.queue = rest
	return batch
}

// tenantGroup is one tenant's items of a coalesced batch.
type tenantGroup[T any] struct {
	tenant tenancy.TenantID
	items  []T
}

// byTenant splits a coalesced batch into its tenants' groups, which the writers write one
// statement each, after the tenant's setting, in one round trip. Tenants come in order and each
// group's items by id, so that two writes of overlapping rows lock them in one order.
func byTenant[T any](batch []T, tenant func(T) tenancy.TenantID, id func(T) string) []tenantGroup[T] {
	var groups []tenantGroup[T]
	at := map[tenancy.TenantID]int{}
	for _, v := range batch {
		i, ok := at[tenant(v)]
		if !ok {
			i = len(groups)
			at[tenant(v)] = i
			groups = append(groups, tenantGroup[T]{tenant: tenant(v)})
		}
		groups[i].items = append(groups[i].items, v)
	}
	slices.SortFunc(groups, func(a, b tenantGroup[T]) int { return cmp.Compare(a.tenant, b.tenant) })
	for _, g := range groups {
		slices.SortFunc(g.items, func(a, b T) int { return cmp.Compare(id(a), id(b)) })
	}
	return groups
}
