package admission

import "context"

// Pace is how the caller of one screening waits for its answer; it picks the limits the
// screening is held to at every stage after the door (Accounts.Lock, the store's queue-delay
// admission). It is an explicit argument of screening.Service.Screen and of the store's
// Prefetch, decided once at the transport edge, never read from the context.
type Pace uint8

const (
	// Budgeted: a caller waits for this answer within a short budget, its own deadline or the
	// server's default (COMPLYD_SCREENING_DEADLINE): every unary screening, and a batch item
	// whose caller set a deadline. It is held to COMPLYD_SCREENING_MAX_QUEUE_WAIT at the store,
	// and waits for its account's turn as long as its deadline allows.
	Budgeted Pace = iota
	// Unbudgeted: a batch item whose caller set no deadline (and any other screening without
	// one): nothing waits on a short budget that a backlog could exceed, so the store holds it
	// to the longer COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT; it waits for its account's turn as
	// long as it takes (a batch of one account's transfers is screened one after the other).
	Unbudgeted
	// Streamed: a stream's message. The stream's own in-flight bound (StreamInFlight) paces its
	// screenings, and a stream's deadline, when its client sets one, is the whole stream's
	// (minutes), not a budget for one screening; so it is held to the longer
	// COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT at the store and at its account's turn.
	Streamed
)

// PaceOf is the pace of a screening that is not a stream's: Budgeted when ctx has a deadline,
// Unbudgeted when it has none. The transport calls it once, after the default deadline of a
// unary screening is applied (Budget.Apply).
func PaceOf(ctx context.Context) Pace {
	if _, ok := ctx.Deadline(); ok {
		return Budgeted
	}
	return Unbudgeted
}

// Paced reports whether the screening is held to the longer queue-wait limit: a stream's, or
// one without a deadline.
func (p Pace) Paced() bool { return p != Budgeted }

// String names the pace (logs, test messages).
func (p Pace) String() string {
	switch p {
	case Budgeted:
		return "budgeted"
	case Unbudgeted:
		return "unbudgeted"
	case Streamed:
		return "streamed"
	}
	return "pace(?)"
}
