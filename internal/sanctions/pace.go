package sanctions

import (
	"runtime"
	"time"
)

// An import gives way to the foreground.
//
// A 100,000-row import parses its document and builds the tenant's index: seconds of CPU on a
// machine whose other tenants are screening payments meanwhile, and a payment waiting is
// worse than an import a few seconds later (its budget is 30 s; its work about 5 s of CPU).
// Yielding the processor (yieldEvery) lets a queued goroutine run, but the import is runnable
// again at once and takes its share of the CPUs (and of the host's, which PostgreSQL and the
// screenings' other goroutines need) for as long as a screening is in flight. So the parse and
// the build run in slices of paceSlice of work; at the end of each slice, while foreground
// requests (screenings, searches) are in flight (Matcher.SetForeground), the import sleeps until
// they are done, at most paceMaxPause at a time, and in all at most paceRatio times the time it
// worked: under a load that never lets up the import still gets a third of its wall time and
// finishes (docs/guide/watchlists.md "Import at scale").
const (
	paceSlice    = time.Millisecond
	paceStep     = 100 * time.Microsecond
	paceMaxPause = 3 * time.Millisecond
	paceRatio    = 2
)

// pacer is one parse's or one build's pacing state (never shared between goroutines). A nil
// pacer, or one without a busy function, only yields.
type pacer struct {
	busy   func() bool
	from   time.Time     // the start of the current slice of work (zero: not started)
	worked time.Duration // work before the current slice
	waited time.Duration // all the pauses so far
	now    func() time.Time
	sleep  func(time.Duration)
}

// newPacer returns a pacer that gives way while busy reports foreground work (nil: never).
func newPacer(busy func() bool) *pacer {
	if busy == nil {
		return nil
	}
	return &pacer{busy: busy, now: time.Now, sleep: time.Sleep}
}

// every yields at every mask+1-th iteration i of a loop (as yieldEvery) and, there, ends the
// slice of work when it has lasted paceSlice (pause).
func (p *pacer) every(i, mask int) {
	if i&mask != mask {
		return
	}
	runtime.Gosched()
	if p != nil {
		p.pause()
	}
}

// pause ends the current slice when it has lasted paceSlice, and then waits while the
// foreground is busy, within paceMaxPause and the floor on progress (paceRatio).
func (p *pacer) pause() {
	now := p.now()
	if p.from.IsZero() {
		p.from = now
		return
	}
	ran := now.Sub(p.from)
	if ran < paceSlice {
		return
	}
	p.worked += ran
	start := now
	for p.waited+now.Sub(start) < paceRatio*p.worked && now.Sub(start) < paceMaxPause && p.busy() {
		p.sleep(paceStep)
		now = p.now()
	}
	p.waited += now.Sub(start)
	p.from = now
}
