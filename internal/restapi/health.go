package restapi

import (
	"context"
	"net/http"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// HealthChecks are probed by /health: the database must answer; the sanctions check reports
// "ok", "empty" or "error" (docs/design/design-choices.md §10).
type HealthChecks struct {
	Database  func(ctx context.Context) error
	Sanctions func(ctx context.Context) string
	// Identity names the platform's identity provider: "sandbox" when the fictitious sandbox is
	// enabled, "none" when only tenants' own (BYOL) providers can verify, as `serve` runs by
	// default; a tenant without one gets PROVIDER_UNAVAILABLE.
	Identity string
	// SanctionsLists, when set, describes each global list's version in force and its age
	// (reported as data.sanctionsLists; nil leaves it out).
	SanctionsLists func(ctx context.Context) any
	// SanctionsFreshness reports "ok", "stale" (a list past its maximum age), "missing" (an
	// expected list is not loaded) or "unknown" as checks.sanctionsFreshness; anything but "ok"
	// makes the status "degraded". Nil leaves it out.
	SanctionsFreshness func(ctx context.Context) string
	// SanctionsMissing names the expected lists not loaded (data.sanctionsMissing).
	SanctionsMissing func(ctx context.Context) []string
	// ReadReplica, when set, reports the read replica (docs/guide/read-replica.md) as
	// checks.readReplica and data.readReplica. It never fails the probe nor degrades the
	// status: the reads it serves fall back to the primary.
	ReadReplica func() ReplicaCheck
}

// ReplicaCheck is the read replica's state as /health and /ready report it.
type ReplicaCheck struct {
	// Status is "ok", "lagging" or "down"; "none" (no replica configured) is left out.
	Status string `json:"status"`
	// LagSeconds is how far its data is behind the primary's; MaxLagSeconds the lag above which
	// the reads go to the primary.
	LagSeconds    float64 `json:"lagSeconds"`
	MaxLagSeconds float64 `json:"maxLagSeconds"`
	// Error says why it is down.
	Error string `json:"error,omitempty"`
}

// addReplica reports the replica in checks and data (nothing without one).
func addReplica(f func() ReplicaCheck, checks map[string]string, data map[string]any) {
	if f == nil {
		return
	}
	rc := f()
	if rc.Status == "" || rc.Status == "none" {
		return
	}
	checks["readReplica"] = rc.Status
	data["readReplica"] = rc
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
		if c.SanctionsFreshness != nil {
			checks["sanctionsFreshness"] = c.SanctionsFreshness(ctx)
		}
		st := "ok"
		if checks["sanctions"] != "ok" || c.SanctionsFreshness != nil && checks["sanctionsFreshness"] != "ok" {
			st = "degraded"
		}
		data := map[string]any{"status": st, "checks": checks}
		addReplica(c.ReadReplica, checks, data)
		if c.SanctionsMissing != nil {
			if m := c.SanctionsMissing(ctx); len(m) > 0 {
				data["sanctionsMissing"] = m
			}
		}
		if c.SanctionsLists != nil {
			if ls := c.SanctionsLists(ctx); ls != nil {
				data["sanctionsLists"] = ls
			}
		}
		WriteSuccess(w, http.StatusOK, data)
	})
}

// ReadyChecks are probed by the readiness endpoint: whether this replica should be sent traffic.
type ReadyChecks struct {
	Database func(ctx context.Context) error
	// Sanctions reports "ok", "empty" or "error" as for /health: a replica without lists would
	// screen no name, so it is not ready.
	Sanctions func(ctx context.Context) string
	// Workers reports whether the job workers (webhooks, mail, retro-screening) are running.
	Workers func() bool
	// Identity names the platform identity provider ("sandbox" or "none"); reported, never
	// failing: tenants may bring their own.
	Identity string
	// SanctionsFreshness is reported as checks.sanctionsFreshness and never fails readiness: a
	// stale or missing list is a warning for the compliance team, while taking the replica out
	// of service would stop all screening, against the lists that are loaded too
	// (docs/guide/watchlists.md "Freshness").
	SanctionsFreshness func(ctx context.Context) string
	// ReadReplica is reported as for /health and never fails readiness: the reads it serves
	// fall back to the primary.
	ReadReplica func() ReplicaCheck
}

// Ready serves GET /ready (and /api/v1/ready): 200 {"status":"ready", "checks"} when the database
// answers, the sanctions lists are loaded and the job workers run; otherwise 503 with
// {"status":"not_ready", "checks"} naming what is missing, so that an orchestrator holds traffic
// back. /health stays the liveness probe: it fails only when the process cannot reach its
// database.
func Ready(c ReadyChecks) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		checks := map[string]string{"database": "ok", "sanctions": "empty", "workers": "stopped", "identity": c.Identity}
		if c.Sanctions != nil {
			checks["sanctions"] = c.Sanctions(ctx)
		}
		if c.SanctionsFreshness != nil {
			checks["sanctionsFreshness"] = c.SanctionsFreshness(ctx)
		}
		if c.Workers != nil && c.Workers() {
			checks["workers"] = "ok"
		}
		if err := c.Database(ctx); err != nil {
			checks["database"] = "error"
		}
		ready := checks["database"] == "ok" && checks["sanctions"] == "ok" && checks["workers"] == "ok"
		data := map[string]any{"status": "ready", "checks": checks}
		addReplica(c.ReadReplica, checks, data)
		if !ready {
			data["status"] = "not_ready"
			w.Header().Set("Retry-After", "5")
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"success": false, "data": data,
				"error": map[string]string{"code": string(apperr.Unavailable), "message": "not ready: see data.checks"}})
			return
		}
		WriteSuccess(w, http.StatusOK, data)
	})
}
