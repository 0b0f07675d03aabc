package admission

import (
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// The store's admission defaults (COMPLYD_SCREENING_MAX_QUEUE, COMPLYD_SCREENING_MAX_QUEUE_WAIT,
// COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT).
const (
	// DefaultMaxQueue bounds the screenings waiting for their batched read: about a third of a
	// second at 3,000/s.
	DefaultMaxQueue = 1024
	// DefaultMaxQueueWait is the queue delay past which a Budgeted screening is refused.
	DefaultMaxQueueWait = 100 * time.Millisecond
	// DefaultPacedMaxQueueWait is the queue delay past which a paced screening (Pace.Paced) is
	// refused.
	DefaultPacedMaxQueueWait = time.Second
	// BusyWait is how long screenings may wait behind a backlog before Shed.Busy says so: a
	// quarter of the 100 ms at which admission starts refusing, and the p99 a bank expects of
	// the whole screening.
	BusyWait = 25 * time.Millisecond
)

// Shed is the store's admission: the last stage before a screening joins the database's
// queues. A screening that finds the read queue full is refused at once (Refuse) rather than
// queued behind work it would time out waiting for; and while the queues are not draining (the
// oldest screening of the last batch taken waited longer than the pace's limit, with screenings
// still waiting) a new one is refused at once the same way (Admit). A count alone cannot tell
// a queue of 1,000 that drains in a third of a second from one that takes ten (a slow
// database, a lane of case-opening screenings): the wait can. As soon as a batch is taken whose
// oldest screening waited less, admission resumes.
//
// Shed owns the policy (which limit for which pace, counting, the answer); the store owns the
// measure (Draining: its queues' lengths and the waits its batchers record), since only it sees
// its queues.
type Shed struct {
	maxWait, pacedWait time.Duration
	draining           func(limit time.Duration) bool
	onShed             func()
}

// NewShed returns the store's admission. maxWait is the limit of a Budgeted screening and
// pacedWait of a paced one (0: DefaultMaxQueueWait, DefaultPacedMaxQueueWait); draining reports
// whether a screening admitted now would wait behind a backlog longer than limit; onShed, when
// set, is called for each refusal (complyd_screening_shed_total).
func NewShed(maxWait, pacedWait time.Duration, draining func(limit time.Duration) bool, onShed func()) *Shed {
	if draining == nil {
		panic("admission: NewShed needs the store's draining measure")
	}
	if maxWait <= 0 {
		maxWait = DefaultMaxQueueWait
	}
	if pacedWait <= 0 {
		pacedWait = DefaultPacedMaxQueueWait
	}
	return &Shed{maxWait: maxWait, pacedWait: pacedWait, draining: draining, onShed: onShed}
}

// Limit is the queue delay a screening of pace p may wait behind. The short limit protects an
// answer its caller waits for with a short budget (every unary screening has one: its own
// deadline or COMPLYD_SCREENING_DEADLINE). A stream's screening, or one without a deadline, is
// paced by its stream's in-flight bound: it is refused only past the longer limit, so a stream
// whose 512 screenings finish at once is not refused its next messages while their commits
// drain, and a stream offered more than the service can screen is still answered at once
// instead of seconds late.
func (s *Shed) Limit(p Pace) time.Duration {
	if p.Paced() {
		return s.pacedWait
	}
	return s.maxWait
}

// Admit answers nil when a screening of pace p may join the queues, and SERVICE_UNAVAILABLE
// with Retry-After (counted) while they are not draining within its limit.
func (s *Shed) Admit(p Pace) error {
	if s.draining(s.Limit(p)) {
		return s.Refuse()
	}
	return nil
}

// Refuse counts and answers a screening refused at admission (also one that found the read
// queue full).
func (s *Shed) Refuse() error {
	if s.onShed != nil {
		s.onShed()
	}
	return apperr.Overloaded()
}

// Busy reports whether screenings are waiting behind a backlog for longer than BusyWait: the
// signal on which side-effect jobs give way (jobs.Yield).
func (s *Shed) Busy() bool { return s.draining(BusyWait) }
