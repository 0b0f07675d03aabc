package restapi

import (
	"context"
	"net/http"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// HealthChecks are probed by /health: the database must answer; the sanctions check reports
// "ok", "empty" or "error" (decisions.md §10).
type HealthChecks struct {
	Database  func(ctx context.Context) error
	Sanctions func(ctx context.Context) string
	// Identity names the platform's identity provider: "sandbox" when the fictitious sandbox is
	// enabled, "none" when only tenants' own (BYOL) providers can verify, as `serve` runs by
	// default; a tenant without one gets PROVIDER_UNAVAILABLE.
	Identity string
}

// Health serves GET /health and GET /api/v1/health without authentication.
func Health(c HealthChecks) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		checks := map[string]string{"database": "ok", "sanctions": "empty", "identity": c.Identity}
		if c.Sanctions != nil {
			checks["sanctions"] = c.Sanctions(ctx)
		}
		if err := c.Database(ctx); err != nil {
			e := apperr.New(apperr.Unavailable, "database unreachable")
			e.Data = map[string]any{"status": "down", "checks": map[string]any{"database": "error", "sanctions": checks["sanctions"], "identity": c.Identity}}
			WriteFailure(w, e)
			return
		}
		st := "ok"
		if checks["sanctions"] != "ok" {
			st = "degraded"
		}
		WriteSuccess(w, http.StatusOK, map[string]any{"status": st, "checks": checks})
	})
}
