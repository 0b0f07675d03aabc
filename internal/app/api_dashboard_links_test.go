package app

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTransactionListRiskAndRuleFilters: the Overview's risk and top-rule bars link to the
// transactions list filtered by riskLevel and ruleId (issue 50): each filter keeps exactly the
// screenings the Overview counted for that bar, the CSV export applies them too, and a bad risk
// level is a VALIDATION_ERROR.
func TestTransactionListRiskAndRuleFilters(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	risks := map[string]int{}
	bodies := []map[string]any{screenBody("lk-1", "0123460001", 1000), screenBody("lk-2", "0123460002", 2_000_000),
		screenBody("lk-3", "0123460003", 9_000_000), screenBody("lk-4", "0123460004", 5000)}
	bodies[3]["narration"] = "payment for arms and ammunition"
	for _, b := range bodies {
		out, env := s.screen(admin, b)
		require.Equal(t, http.StatusOK, env.Status, string(env.Raw))
		risks[out.RiskLevel]++
	}
	total := func(q string) int {
		env := s.rest("GET", "/api/v1/transactions?"+q, cred{Bearer: admin}, nil)
		require.Equal(t, http.StatusOK, env.Status, string(env.Raw))
		var page struct{ Total int }
		env.decode(t, &page)
		return page.Total
	}
	require.GreaterOrEqual(t, len(risks), 2, "the bodies give two risk levels at least: %v", risks)
	for _, level := range []string{"LOW", "MEDIUM", "HIGH", "CRITICAL"} {
		require.Equal(t, risks[level], total("riskLevel="+level), level)
	}

	now := time.Now().UTC()
	period := fmt.Sprintf("from=%s&to=%s", now.Add(-2*time.Hour).Format(time.RFC3339), now.Add(2*time.Hour).Format(time.RFC3339))
	var rules struct {
		Items []struct {
			RuleID string `json:"ruleId"`
			Hits   string `json:"hits"`
		} `json:"items"`
	}
	s.rest("GET", "/api/v1/dashboard/rules?limit=50&"+period, cred{Bearer: admin}, nil).decode(t, &rules)
	require.NotEmpty(t, rules.Items)
	for _, r := range rules.Items {
		hits, err := strconv.Atoi(r.Hits)
		require.NoError(t, err)
		require.Equal(t, hits, total("ruleId="+r.RuleID), r.RuleID)
	}
	require.Zero(t, total("ruleId=NO-SUCH-RULE"))
	first := rules.Items[0]
	res, body := s.download(t, "/api/v1/transactions/export.csv?ruleId="+first.RuleID, cred{Bearer: admin})
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	lines := 0
	for _, c := range body {
		if c == '\n' {
			lines++
		}
	}
	hits, _ := strconv.Atoi(first.Hits)
	require.Equal(t, 1+hits, lines, "header and one line per transaction")
	requireRESTError(t, s.rest("GET", "/api/v1/transactions?riskLevel=SEVERE", cred{Bearer: admin}, nil), http.StatusBadRequest, "VALIDATION_ERROR")
}

// TestTenantTimeZone: a tenant's time zone is Africa/Lagos until its admin sets another; the
// profile (GET /auth/me) carries it for the dashboard, an unknown zone is a VALIDATION_ERROR,
// and the change is audited with the zone before and after.
func TestTenantTimeZone(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.tenant()
	type me struct {
		Tenant struct {
			TimeZone string `json:"timeZone"`
		} `json:"tenant"`
	}
	var m me
	s.rest("GET", "/api/v1/auth/me", cred{Bearer: admin}, nil).decode(t, &m)
	require.Equal(t, "Africa/Lagos", m.Tenant.TimeZone)
	for _, bad := range []string{"Africa/Atlantis", "Local", ""} {
		requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/branding", cred{Bearer: admin}, map[string]any{"timeZone": bad}),
			http.StatusBadRequest, "VALIDATION_ERROR")
	}
	var b struct {
		TimeZone     string `json:"timeZone"`
		PrimaryColor string `json:"primaryColor"`
	}
	s.rest("PATCH", "/api/v1/tenants/me/branding", cred{Bearer: admin}, map[string]any{"timeZone": "Europe/London"}).decode(t, &b)
	require.Equal(t, "Europe/London", b.TimeZone)
	require.NotEmpty(t, b.PrimaryColor, "the colour is unchanged")
	s.rest("GET", "/api/v1/auth/me", cred{Bearer: admin}, nil).decode(t, &m)
	require.Equal(t, "Europe/London", m.Tenant.TimeZone)
	p := s.audits(admin, "tenant.branding_updated")
	require.Equal(t, 1, p.Total)
	require.Equal(t, "Africa/Lagos", p.Items[0].Before["timeZone"])
	require.Equal(t, "Europe/London", p.Items[0].After["timeZone"])
}
