package app

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadiness: /ready is 200 only when the database answers, the sanctions lists are loaded and
// the job workers run; otherwise 503 naming what is missing. /health stays liveness.
func TestReadiness(t *testing.T) {
	t.Parallel()
	type answer struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	read := func(s *testServer) (int, answer) {
		env := s.rest("GET", "/ready", cred{}, nil)
		var a answer
		require.NoError(t, jsonUnmarshal(env.Data, &a), "%s", env.Raw)
		return env.Status, a
	}

	s := newTestServer(t, &serverOpts{Workers: true})
	st, a := read(s)
	require.Equal(t, 200, st)
	require.Equal(t, "ready", a.Status)
	// The harness loads OFAC but no UN list: freshness says so, and readiness still holds
	// (docs/guide/watchlists.md "Freshness": a stale or missing list never fails /ready).
	require.Equal(t, map[string]string{"database": "ok", "sanctions": "ok", "sanctionsFreshness": "missing", "workers": "ok", "identity": "sandbox"}, a.Checks)

	noLists := newTestServer(t, &serverOpts{Workers: true, NoGlobalLists: true})
	st, a = read(noLists)
	require.Equal(t, 503, st)
	require.Equal(t, "not_ready", a.Status)
	require.Equal(t, "empty", a.Checks["sanctions"])
	require.Equal(t, 200, noLists.rest("GET", "/health", cred{}, nil).Status, "liveness holds")

	noWorkers := newTestServer(t, &serverOpts{Config: func(c *config) { c.IdentitySandbox = false }})
	st, a = read(noWorkers)
	require.Equal(t, 503, st)
	require.Equal(t, "stopped", a.Checks["workers"])
	require.Equal(t, "none", a.Checks["identity"])
}
