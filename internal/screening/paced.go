package screening

import "context"

type pacedKey struct{}

// WithPaced marks ctx as a stream's: the stream's own in-flight bound paces its screenings, so
// the store's queue-delay admission (docs/screening.md "Overload") does not refuse them; they
// wait their turn, bounded by the queue's size. A stream's deadline, when its client sets one,
// is the whole stream's (minutes), not a budget for one screening.
func WithPaced(ctx context.Context) context.Context { return context.WithValue(ctx, pacedKey{}, true) }

// Paced reports whether ctx is a stream's (WithPaced) or has no deadline at all (a batch whose
// caller set none): nothing is waiting on a budget that a backlog could exceed.
func Paced(ctx context.Context) bool {
	if p, _ := ctx.Value(pacedKey{}).(bool); p {
		return true
	}
	_, hasDeadline := ctx.Deadline()
	return !hasDeadline
}
