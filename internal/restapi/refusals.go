package restapi

import (
	"log/slog"
	"net/http"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/admission/door"
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/connectapi"
)

// Refusals render the screening door's refusals (door.Gate) in the caller's protocol: the
// /api/v1 failure envelope (503 SERVICE_UNAVAILABLE, Retry-After from the error), and for gRPC,
// gRPC-Web and Connect the error connectapi maps it to (UNAVAILABLE with its ErrorInfo).
func Refusals(log *slog.Logger) door.Refusals {
	rpc := connect.NewErrorWriter()
	return door.Refusals{
		REST: WriteFailure,
		RPC: func(w http.ResponseWriter, r *http.Request, e *apperr.Error) {
			_ = rpc.Write(w, r, connectapi.ToConnect(r.Context(), log, e))
		},
	}
}
