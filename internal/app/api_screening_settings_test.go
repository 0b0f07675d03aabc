package app

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
)

// TestScreeningCustomRules: CRUD of CEL rules (compiled at save), mandatory rules listed and
// immutable, and a custom rule firing in screenings with its author as createdBy.
func TestScreeningCustomRules(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)

	bad := s.rest("POST", "/api/v1/rules", cred{Bearer: admin}, map[string]any{"name": "bad", "expression": "tx.amount >",
		"score": 10, "outcome": "REVIEW"})
	requireRESTError(t, bad, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(bad.Raw), "expression")

	forbidden := s.rest("POST", "/api/v1/rules", cred{Bearer: analyst}, map[string]any{"name": "x", "expression": "true",
		"score": 10, "outcome": "REVIEW"})
	requireRESTError(t, forbidden, http.StatusForbidden, "FORBIDDEN")

	created := s.rest("POST", "/api/v1/rules", cred{Bearer: admin}, map[string]any{"name": "Large POS",
		"expression": `tx.type == "POS" && ctx.amountNgnKobo >= naira(100000)`, "score": 65, "outcome": "REVIEW"})
	require.Equal(t, http.StatusCreated, created.Status, "%s", created.Raw)
	var rule struct {
		ID        string `json:"id"`
		Enabled   bool   `json:"enabled"`
		CreatedBy string `json:"createdBy"`
	}
	created.decode(t, &rule)
	require.True(t, rule.Enabled)

	var list struct {
		Items []struct {
			ID        string `json:"id"`
			Mandatory bool   `json:"mandatory"`
		} `json:"items"`
		Total int `json:"total"`
	}
	s.rest("GET", "/api/v1/rules", cred{Bearer: analyst}, nil).decode(t, &list)
	require.Equal(t, 10, list.Total)
	require.Equal(t, "AML-001", list.Items[0].ID)
	require.True(t, list.Items[0].Mandatory)
	requireRESTError(t, s.rest("PATCH", "/api/v1/rules/AML-008", cred{Bearer: admin}, map[string]any{"enabled": false}),
		http.StatusConflict, "CONFLICT")
	requireRESTError(t, s.rest("DELETE", "/api/v1/rules/AML-001", cred{Bearer: admin}, nil), http.StatusConflict, "CONFLICT")

	pos := func(amount float64) screenOut {
		b := screenBody(ext("cel"), newAccount(), amount)
		b["type"], b["channel"] = "POS", "POS_TERMINAL"
		out, env := s.screen(admin, b)
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		return out
	}
	out := pos(150_000)
	require.True(t, out.rule("Large POS"))
	require.Equal(t, 65, out.RiskBreakdown[3].Score)
	for _, r := range out.TriggeredRules {
		if r.Name == "Large POS" {
			require.Equal(t, rule.CreatedBy, r.CreatedBy)
			require.Equal(t, "Custom Rules", r.Category)
		}
	}
	require.False(t, pos(99_999.99).rule("Large POS"))

	upd := s.rest("PATCH", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, map[string]any{"enabled": false})
	require.Equal(t, http.StatusOK, upd.Status, "%s", upd.Raw)
	require.False(t, pos(150_000).rule("Large POS"))
	requireRESTError(t, s.rest("PATCH", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, map[string]any{"expression": "1 + 1"}),
		http.StatusBadRequest, "VALIDATION_ERROR")
	del := s.rest("DELETE", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, nil)
	require.Equal(t, http.StatusOK, del.Status, "%s", del.Raw)
	requireRESTError(t, s.rest("GET", "/api/v1/rules/"+rule.ID, cred{Bearer: admin}, nil), http.StatusNotFound, "NOT_FOUND")

	// A rule that reads a metadata key compiles, but fails at runtime on a transaction without
	// that key: it does not trigger there, and the screening still answers.
	keyed := s.rest("POST", "/api/v1/rules", cred{Bearer: admin}, map[string]any{"name": "High channel risk",
		"expression": `tx.metadata.channelRisk == "high"`, "score": 55, "outcome": "REVIEW"})
	require.Equal(t, http.StatusCreated, keyed.Status, "%s", keyed.Raw)
	without := pos(1000)
	require.False(t, without.rule("High channel risk"))
	require.Equal(t, "APPROVE", without.Outcome)
	b := screenBody(ext("cel-meta"), newAccount(), 1000)
	b["metadata"] = map[string]any{"channelRisk": "high"}
	with, env := s.screen(admin, b)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.True(t, with.rule("High channel risk"), "%s", env.Raw)
}

// TestScreeningSettingsInvalidationAcrossReplicas: two servers over one database; an FX rate
// set through one is used by the other's next screenings (LISTEN/NOTIFY), without a restart.
func TestScreeningSettingsInvalidationAcrossReplicas(t *testing.T) {
	t.Parallel()
	a := newTestServer(t, nil)
	b := newTestServer(t, nil) // same package database as a
	_, admin := a.kycTenant()
	body := func() map[string]any {
		m := screenBody(ext("fx"), newAccount(), 100)
		m["currency"] = "GBP"
		return m
	}
	out, env := b.screen(admin, body()) // b caches the tenant's settings: no GBP rate
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Contains(t, out.Actions, "FX_RATE_MISSING")

	// Only a currency a screening accepts can have a rate (XYZ is not ISO 4217); nothing of a
	// rejected request is stored.
	for _, cur := range []string{"XYZ", "NGN"} {
		bad := a.rest("PATCH", "/api/v1/tenants/me/fx-rates", cred{Bearer: admin},
			map[string]any{"rates": []map[string]string{{"currency": "GBP", "rateToNgn": "1"}, {"currency": cur, "rateToNgn": "10"}}})
		requireRESTError(t, bad, http.StatusBadRequest, "VALIDATION_ERROR")
		require.Contains(t, string(bad.Raw), "rates[1].currency")
	}
	env = a.rest("PATCH", "/api/v1/tenants/me/fx-rates", cred{Bearer: admin},
		map[string]any{"rates": []map[string]string{{"currency": "GBP", "rateToNgn": "2000.5"}}})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var rates struct {
		Rates []struct{ Currency, RateToNgn string } `json:"rates"`
	}
	a.rest("GET", "/api/v1/tenants/me/fx-rates", cred{Bearer: admin}, nil).decode(t, &rates)
	require.Equal(t, "GBP", rates.Rates[0].Currency)
	require.Equal(t, "2000.5", rates.Rates[0].RateToNgn)

	require.Eventually(t, func() bool {
		out, _ := b.screen(admin, body())
		if len(out.RiskBreakdown) < 2 {
			return false
		}
		var fx map[string]any
		_ = json.Unmarshal(out.RiskBreakdown[1].Fx, &fx)
		return fx["amountNgn"] == "200050.00"
	}, 5*time.Second, 50*time.Millisecond)
}

// TestTierLimitsConcurrentUpdatesKeepOrder: two PATCHes, each valid alone (TIER_1 up to 150,000
// under TIER_2 200,000; TIER_2 down to 100,000 over TIER_1 50,000) but invalid together, sent at
// once: the order TIER_1 ≤ TIER_2 ≤ TIER_3 is checked in the transaction that writes, so one of
// them is refused and the stored limits keep the order (issue 19.7: the check was in the handler,
// before the write).
func TestTierLimitsConcurrentUpdatesKeepOrder(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	for i := range 10 {
		_, admin := s.tenant()
		var wg sync.WaitGroup
		codes := make([]int, 2)
		for j, body := range []map[string]string{{"TIER_1": "150000"}, {"TIER_2": "100000"}} {
			wg.Go(func() {
				codes[j] = s.rest("PATCH", "/api/v1/tenants/me/limits", cred{Bearer: admin}, map[string]any{"tierLimits": body}).Status
			})
		}
		wg.Wait()
		var l struct {
			TierLimits map[string]string `json:"tierLimits"`
		}
		s.rest("GET", "/api/v1/tenants/me/limits", cred{Bearer: admin}, nil).decode(t, &l)
		t1, _ := decimal.NewFromString(l.TierLimits["TIER_1"])
		t2, _ := decimal.NewFromString(l.TierLimits["TIER_2"])
		require.True(t, t1.LessThanOrEqual(t2), "round %d: %v stored %v", i, codes, l.TierLimits)
		require.Contains(t, codes, http.StatusBadRequest, "round %d: one of the two must be refused", i)
	}
}
