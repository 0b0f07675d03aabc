package door

import (
	"net/http"
	"sync/atomic"

	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// Foreground counts the requests in flight that a payment or an analyst is waiting for: the
// screenings (unary and batch, over /api/v1 and every RPC protocol) and the sanctions
// searches. Background work gives way while any is in flight: a tenant's watchlist import
// parses and indexes in slices and pauses between them (sanctions.Matcher.SetForeground,
// docs/guide/watchlists.md "Import at scale"). A stream of screenings is not counted: it is
// open for as long as its client likes, and work pausing for it would pause for good.
type Foreground struct {
	n atomic.Int64
}

// Busy reports whether a foreground request is in flight.
func (f *Foreground) Busy() bool { return f.n.Load() > 0 }

// InFlight is the number of foreground requests in flight.
func (f *Foreground) InFlight() int { return int(f.n.Load()) }

// Wrap returns next counting the foreground requests it serves.
func (f *Foreground) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isForeground(r) {
			next.ServeHTTP(w, r)
			return
		}
		f.n.Add(1)
		defer f.n.Add(-1)
		next.ServeHTTP(w, r)
	})
}

// isForeground says whether r is a request Foreground counts.
func isForeground(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	switch r.URL.Path {
	case ScreenPath, "/api/v1/transactions/screen-batch", "/api/v1/sanctions/search",
		complydv1connect.TransactionServiceScreenTransactionProcedure,
		complydv1connect.TransactionServiceScreenTransactionsProcedure,
		complydv1connect.SanctionsServiceSearchProcedure:
		return true
	}
	return false
}
