package screenstore

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// batcher runs batches of the items sent to it on `workers` goroutines, each with a function of
// its own from newWorker (which may hold per-worker state, such as a connection): a worker
// takes the first waiting item, adds whatever else is already queued (up to max), and calls fn.
// Under load the batches grow by themselves while the previous ones are in flight; when idle an
// item goes alone at once. With linger set, a worker waits for more, until linger after the
// first item was queued, when company is likely (lingerNow, lingerLeft): under load, fewer and
// larger batches cost the database less per item; at low load nobody waits for company that is
// not coming. The screening store uses it to share one database round trip between concurrent
// screenings (docs/guide/screening.md "Performance").
type batcher[T any] struct {
	ch     chan T
	max    int
	linger time.Duration
	start  func() (fn func([]T), done func())
	// observe, when set, is told each batch's size and how long fn took.
	observe func(n int, d time.Duration)
	wg      sync.WaitGroup
	once    sync.Once
	// mu guards ch against close: senders hold it for reading while they send, close takes it
	// for writing before closing ch, so a screening still in flight when the store shuts down
	// gets errClosed instead of a panic (send on closed channel).
	mu     sync.RWMutex
	closed bool
	// busy holds, per worker, when its batch in hand started (unix ns, 0 when idle); waited how
	// long the oldest item of the last batch taken had waited (ns), when queuedAt is set.
	busy     []atomic.Int64
	waited   atomic.Int64
	queuedAt func(T) time.Time
}

// errClosed answers an item sent after close: the process is shutting down.
var errClosed = apperr.New(apperr.Unavailable, "the service is shutting down; retry")

// send queues item, waiting for room until ctx ends. Errors: errClosed, ctx's error.
func (b *batcher[T]) send(ctx context.Context, item T) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return errClosed
	}
	// The workers keep draining ch while close waits for the lock, so a sender blocked on a
	// full queue still gets through.
	select {
	case b.ch <- item:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// offer queues item only if there is room now; it reports whether it did. Errors: errClosed.
func (b *batcher[T]) offer(item T) (bool, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return false, errClosed
	}
	select {
	case b.ch <- item:
		return true, nil
	default:
		return false, nil
	}
}

func newBatcher[T any](workers, max, queue int, linger time.Duration, observe func(int, time.Duration),
	newWorker func() (fn func([]T), done func())) *batcher[T] {
	b := &batcher[T]{ch: make(chan T, queue), max: max, linger: linger, start: newWorker, observe: observe,
		busy: make([]atomic.Int64, workers)}
	for i := range workers {
		b.wg.Add(1)
		go b.run(&b.busy[i])
	}
	return b
}

// behind reports whether the batcher is not draining within d: items are waiting and either
// the oldest item of the last batch taken had waited longer than d (queuedAt set), or every
// worker has been on its batch in hand for longer than d (a stalled database: no batch is
// taken, so no wait is measured, while the queue grows).
func (b *batcher[T]) behind(d time.Duration) bool {
	if len(b.ch) == 0 {
		return false
	}
	if time.Duration(b.waited.Load()) > d {
		return true
	}
	now := time.Now().UnixNano()
	for i := range b.busy {
		if s := b.busy[i].Load(); s == 0 || time.Duration(now-s) <= d {
			return false
		}
	}
	return true
}

// close stops the workers once every queued item has been handed to fn.
func (b *batcher[T]) close() {
	b.once.Do(func() {
		b.mu.Lock()
		b.closed = true
		close(b.ch)
		b.mu.Unlock()
	})
	b.wg.Wait()
}

// lingerLeft is how long a worker that took first at taken may still linger: linger counts
// from when first was queued (queuedAt set), not from when a worker got to it. Under load the
// first item has often waited already, behind the previous batch, for longer than linger: the
// items that came meanwhile are in the batch, and waiting more would only add latency to all of
// them (docs/guide/screening.md "Linger under load").
func (b *batcher[T]) lingerLeft(first T, taken time.Time) time.Duration {
	if b.queuedAt == nil {
		return b.linger
	}
	return b.linger - taken.Sub(b.queuedAt(first))
}

// lingerFrom is the size of the previous batch from which a worker lingers.
const lingerFrom = 4

// lingerNow reports whether a worker that has just taken the first item of a batch at now
// should linger: its previous batch, taken at prev, had last items. Either that batch was large
// (lingerFrom or more: the load is high), or the arrival rate since prev (last items over
// now − prev) brings at least one more item within linger on average. The second case is the
// batched read at moderate load: at 1,000 screenings/s a read round trip is shorter than the
// gap between arrivals, so without it nearly every prefetch went alone, and a prefetch costs
// PostgreSQL about the same for one screening as for several (docs/guide/screening.md "Linger under
// load"). An idle worker (prev zero, or a gap longer than last × linger) never waits.
func lingerNow(linger time.Duration, last int, prev, now time.Time) bool {
	if linger <= 0 || last == 0 {
		return false
	}
	return last >= lingerFrom || now.Sub(prev) <= time.Duration(last)*linger
}

func (b *batcher[T]) run(busy *atomic.Int64) {
	defer b.wg.Done()
	fn, done := b.start()
	if done != nil {
		defer done()
	}
	last := 0
	var prev time.Time // when the previous batch's first item was taken
	for first := range b.ch {
		batch := []T{first}
		taken := time.Now()
		var timer *time.Timer
		var expired <-chan time.Time // nil without linger: the default case ends the batch
		if lingerNow(b.linger, last, prev, taken) {
			if d := b.lingerLeft(first, taken); d > 0 {
				timer = time.NewTimer(d)
				expired = timer.C
			}
		}
	fill:
		for len(batch) < b.max {
			if expired == nil {
				select {
				case r, ok := <-b.ch:
					if !ok {
						break fill
					}
					batch = append(batch, r)
				default:
					break fill
				}
				continue
			}
			select {
			case r, ok := <-b.ch:
				if !ok {
					break fill
				}
				batch = append(batch, r)
			case <-expired:
				break fill
			}
		}
		if timer != nil {
			timer.Stop()
		}
		last, prev = len(batch), taken
		t0 := time.Now()
		if b.queuedAt != nil {
			b.waited.Store(int64(t0.Sub(b.queuedAt(batch[0]))))
		}
		busy.Store(t0.UnixNano())
		fn(batch)
		busy.Store(0)
		if b.observe != nil {
			b.observe(len(batch), time.Since(t0))
		}
	}
}
