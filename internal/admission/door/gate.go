package door

import (
	"net/http"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// Gate bounds the unary screenings in progress in this process (POST
// /api/v1/transactions/screen, and ScreenTransaction over gRPC, gRPC-Web and Connect) to max;
// one more is answered at once, before its body is decoded, transcoded, validated or
// authenticated (net/http discards the small unread body, so the connection is kept), with 503
// SERVICE_UNAVAILABLE and Retry-After: 1 (gRPC and Connect: UNAVAILABLE), as the store's
// admission answers (docs/guide/screening.md "Overload").
//
// The store's admission bounds the screenings waiting for the database; the gate bounds
// everything before and after that, where an overloaded 2-core server spends its time: a
// request parsed, transcoded and authenticated only to be refused costs nearly as much CPU as a
// screening's own share, and when the machine is saturated every goroutine in flight slows down
// the others, so latency grows with the number in flight (Little's law) while the rate
// answered does not. With the number in flight bounded, the excess is refused for the cost of
// reading its headers, and after a stall only max screenings are left to drain.
//
// The batch RPC and the stream are not gated: a batch is one request of many screenings
// (admission.BatchParallelism), and a stream is paced by its own flow control
// (admission.StreamInFlight). The screenings in progress can be read (InFlight,
// complyd_screening_in_flight on /metrics: how close the door is to refusing).
type Gate struct {
	slots  chan struct{} // nil when the gate is disabled
	onShed func()
	write  Refusals
}

// Refusals write a refusal in the caller's protocol. The gate knows which requests it gates,
// not how a transport renders an error: restapi.Refusals gives the /api/v1 envelope and the
// Connect and gRPC error (through connectapi's mapping).
type Refusals struct {
	// REST writes e to a /api/v1 caller (the failure envelope; its Retry-After from e).
	REST func(w http.ResponseWriter, e *apperr.Error)
	// RPC writes e to a gRPC, gRPC-Web or Connect caller; the gate has set Retry-After.
	RPC func(w http.ResponseWriter, r *http.Request, e *apperr.Error)
}

// New returns a Gate for max screenings in progress (max <= 0 disables it); Wrap puts it
// in front of a handler. onShed, when set, is called for each refusal
// (complyd_screening_gate_shed_total); write renders the refusals.
func New(max int, onShed func(), write Refusals) *Gate {
	if write.REST == nil || write.RPC == nil {
		panic("door: New needs both refusal writers")
	}
	g := &Gate{onShed: onShed, write: write}
	if max > 0 {
		g.slots = make(chan struct{}, max)
	}
	return g
}

// InFlight is the number of unary screenings in progress behind the gate (0 when disabled:
// nothing is counted then).
func (g *Gate) InFlight() int { return len(g.slots) }

// Wrap returns next behind the gate (next itself when the gate is disabled).
func (g *Gate) Wrap(next http.Handler) http.Handler {
	if g.slots == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isUnaryScreening(r) {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case g.slots <- struct{}{}:
			defer func() { <-g.slots }()
			next.ServeHTTP(w, r)
		default:
			if g.onShed != nil {
				g.onShed()
			}
			e := apperr.Overloaded()
			if r.URL.Path == ScreenPath {
				g.write.REST(w, e)
				return
			}
			w.Header().Set("Retry-After", "1")
			g.write.RPC(w, r, e)
		}
	})
}

// ScreenPath is the /api/v1 route of a unary screening.
const ScreenPath = "/api/v1/transactions/screen"

func isUnaryScreening(r *http.Request) bool {
	return r.Method == http.MethodPost &&
		(r.URL.Path == ScreenPath || r.URL.Path == complydv1connect.TransactionServiceScreenTransactionProcedure)
}
