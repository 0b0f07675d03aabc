package screening

import "context"

type streamedKey struct{}

// WithStream marks ctx as a stream's screening. A stream's own in-flight bound (512) paces its
// screenings, and a stream's deadline, when its client sets one, is the whole stream's
// (minutes), not a budget for one screening; so overload protection holds them to the longer
// COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT (docs/guide/screening.md "Overload").
func WithStream(ctx context.Context) context.Context {
	return context.WithValue(ctx, streamedKey{}, true)
}

// Streamed reports whether ctx is a stream's screening (WithStream).
func Streamed(ctx context.Context) bool {
	s, _ := ctx.Value(streamedKey{}).(bool)
	return s
}

// Paced reports whether ctx is a stream's screening or has no deadline at all (a batch whose
// caller set none): nothing waits on a short budget that a backlog could exceed, so the store's
// queue-delay admission holds it to the longer limit.
func Paced(ctx context.Context) bool {
	if Streamed(ctx) {
		return true
	}
	_, hasDeadline := ctx.Deadline()
	return !hasDeadline
}
