package app

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestScreeningWithoutListsNeverClean: with no sanctions list loaded (a fresh `serve`), the
// sanctions engine is recorded as skipped with the reason, the screening carries
// RETROACTIVE_REVIEW and is queued for retro-screening, and /health is degraded; a hit on the
// tenant's own list still blocks (issue 19.2). Before, the engine returned a clean score 0.
func TestScreeningWithoutListsNeverClean(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{NoGlobalLists: true, OwnDB: true})
	_, admin := s.kycTenant()

	out, env := s.screen(admin, screenBody(ext("nolist"), "0123456789", 5_000))
	require.True(t, env.Success, "%s", env.Raw)
	sanc := out.RiskBreakdown[0]
	require.Equal(t, "Global Sanctions Screening", sanc.Category)
	require.True(t, sanc.Skipped, "%s", env.Raw)
	require.NotNil(t, sanc.SkipReason)
	require.Equal(t, "no sanctions list loaded", *sanc.SkipReason)
	require.Contains(t, out.Actions, "RETROACTIVE_REVIEW")
	var queued int
	require.NoError(t, s.admin().QueryRow(context.Background(),
		"select count(*) from river_job where kind = 'screening_retro' and args->>'transactionId' = $1", out.TransactionID).Scan(&queued))
	require.Equal(t, 1, queued, "the skipped screening is queued for retro-screening")

	var h struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	s.rest("GET", "/health", cred{}, nil).decode(t, &h)
	require.Equal(t, "degraded", h.Status)
	require.Equal(t, "empty", h.Checks["sanctions"])

	// A tenant can choose to block instead while lists are missing (GET/PATCH screening-policy).
	var pol struct {
		SanctionsListsMissing string `json:"sanctionsListsMissing"`
	}
	s.rest("GET", "/api/v1/tenants/me/screening-policy", cred{Bearer: admin}, nil).decode(t, &pol)
	require.Equal(t, "SKIP", pol.SanctionsListsMissing)
	requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/screening-policy", cred{Bearer: admin},
		map[string]any{"sanctionsListsMissing": "MAYBE"}), 400, "VALIDATION_ERROR")
	s.rest("PATCH", "/api/v1/tenants/me/screening-policy", cred{Bearer: admin}, map[string]any{"sanctionsListsMissing": "BLOCK"}).decode(t, &pol)
	require.Equal(t, "BLOCK", pol.SanctionsListsMissing)
	out, env = s.screen(admin, screenBody(ext("nolist-block"), "0123456789", 5_000))
	require.True(t, env.Success, "%s", env.Raw)
	require.Equal(t, "BLOCK", out.Outcome)
	require.False(t, out.RiskBreakdown[0].Skipped)
	require.True(t, out.rule("Sanctions Lists Unavailable"), "%s", env.Raw)
	s.rest("PATCH", "/api/v1/tenants/me/screening-policy", cred{Bearer: admin}, map[string]any{"sanctionsListsMissing": "SKIP"}).decode(t, &pol)

	// The tenant's own list is still screened: a hit on it blocks.
	var wl struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", cred{Bearer: admin}, map[string]any{"name": "Local blacklist", "type": "SANCTIONS"}).decode(t, &wl)
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: admin}, map[string]any{"name": "Ada Obi",
		"entityType": "INDIVIDUAL", "reference": "LB-1"}).decode(t, &struct{}{})
	out, env = s.screen(admin, screenBody(ext("nolist-hit"), "0123456789", 5_000))
	require.True(t, env.Success, "%s", env.Raw)
	require.False(t, out.RiskBreakdown[0].Skipped)
	require.Equal(t, "BLOCK", out.Outcome)
}
