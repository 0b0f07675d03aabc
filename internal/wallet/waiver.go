package wallet

import (
	"context"
	"sync/atomic"
)

// A waiver lets the provider that answers a paid call declare that its answer is not charged:
// the embedded sandbox outside `complyd dev`, whose registry is fictitious (docs/identity-
// providers.md). Paid puts one in the call's context; which provider answers is known only after
// the call (a chain may fall back from one provider to another), so the decision is the
// answering provider's and is read once the call has returned.
type waiver struct{ waived atomic.Bool }

type waiverKey struct{}

// Waive marks the paid call running in ctx as free: Paid releases its hold instead of settling it,
// and the caller stores its result with a zero Hold. Outside a paid call it does nothing.
func Waive(ctx context.Context) {
	if w, ok := ctx.Value(waiverKey{}).(*waiver); ok {
		w.waived.Store(true)
	}
}

func withWaiver(ctx context.Context) (context.Context, *waiver) {
	w := &waiver{}
	return context.WithValue(ctx, waiverKey{}, w), w
}
