package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

var acctSeq atomic.Int64

// newAccount returns a fresh 10-digit account number.
func newAccount() string { return fmt.Sprintf("9%09d", acctSeq.Add(1)%1_000_000_000) }

// history stores an earlier transaction of account at ts with an NGN amount.
func (s *testServer) history(tenantID tenancy.TenantID, account string, ts time.Time, amountNGN string) {
	s.t.Helper()
	_, err := s.admin().Exec(context.Background(), `insert into transactions (id, tenant_id, external_id, type, channel, amount,
		currency, amount_ngn, sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level,
		aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
		values (gen_random_uuid(), $1, 'hist-' || gen_random_uuid(), 'TRANSFER', 'API', $3::numeric, 'NGN', $3::numeric, $2,
		'Ada Obi', $4, 'vrd_hist', 'APPROVE', 'LOW', 0, '{}', '[]', 1, $4, $4)`, string(tenantID), account, amountNGN, ts)
	require.NoError(s.t, err)
}

// mandatory returns the AML rule ids in out's triggered rules.
func (o screenOut) aml() []string {
	var ids []string
	for _, r := range o.TriggeredRules {
		if strings.HasPrefix(r.Name, "AML-") {
			ids = append(ids, r.Name[:7])
		}
	}
	return ids
}

// TestScreeningAMLRuleBoundaries screens, against the real store, every mandatory rule at and
// around its boundary on NGN-equivalent amounts (docs/guide/screening.md), with the sender's history
// stored as earlier transactions.
func TestScreeningAMLRuleBoundaries(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.kycFixture(f.ID, "22212345678", "APPROVED", "TIER_3") // limit 5,000,000
	s.kycFixture(f.ID, "22211111111", "APPROVED", "TIER_1") // limit 50,000
	env := s.rest("PATCH", "/api/v1/tenants/me/fx-rates", cred{Bearer: admin},
		map[string]any{"rates": []map[string]string{{"currency": "USD", "rateToNgn": "1500"}}})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	now := time.Now().UTC()
	type tc struct {
		name    string
		mut     func(b map[string]any)
		setup   func(account string)
		want    []string // AML rules that must fire
		notWant []string // AML rules that must not
		actions []string // actions that must be present
		fx      bool     // the regulatory breakdown carries an fx object
	}
	cash := func(amount float64) func(map[string]any) {
		return func(b map[string]any) { b["type"], b["channel"], b["amount"] = "CASH_DEPOSIT", "BRANCH", amount }
	}
	transfer := func(amount float64) func(map[string]any) {
		return func(b map[string]any) { b["amount"] = amount }
	}
	tier1 := func(amount float64) func(map[string]any) {
		return func(b map[string]any) { b["amount"], b["senderBvn"] = amount, "22211111111" }
	}
	cases := []tc{
		{name: "AML-001 below", mut: cash(3_999_999.99), notWant: []string{"AML-001", "AML-003"}},
		{name: "AML-003 at 80% of cash", mut: cash(4_000_000), want: []string{"AML-003"}, notWant: []string{"AML-001"}},
		{name: "AML-001 just below", mut: cash(4_999_999.99), want: []string{"AML-003", "AML-009"}, notWant: []string{"AML-001", "AML-008"}},
		{name: "AML-001 at", mut: cash(5_000_000), want: []string{"AML-001", "AML-003", "AML-009"}, notWant: []string{"AML-008"},
			actions: []string{"GENERATE_CTR", "NOTIFY_OFFICER", "GENERATE_SAR", "CREATE_CASE"}},
		{name: "AML-008 above tier 3", mut: cash(5_000_000.01), want: []string{"AML-001", "AML-008"}, notWant: []string{"AML-009"},
			actions: []string{"PROMPT_TIER_UPGRADE"}},
		{name: "AML-002 below", mut: transfer(7_999_999.99), notWant: []string{"AML-002", "AML-003"}},
		{name: "AML-003 at 80% of transfer", mut: transfer(8_000_000), want: []string{"AML-003"}, notWant: []string{"AML-002"}},
		{name: "AML-002 just below", mut: transfer(9_999_999.99), notWant: []string{"AML-002"}},
		{name: "AML-002 at", mut: transfer(10_000_000), want: []string{"AML-002", "AML-003", "AML-008"}},
		{name: "AML-003 structuring: 3rd in 24h over threshold", mut: transfer(600_000), want: []string{"AML-003"},
			setup: func(a string) {
				s.history(f.ID, a, now.Add(-2*time.Hour), "4700000")
				s.history(f.ID, a, now.Add(-23*time.Hour), "4700000.01")
			}},
		{name: "AML-003 structuring: sum exactly at threshold", mut: transfer(600_000), notWant: []string{"AML-003"},
			setup: func(a string) {
				s.history(f.ID, a, now.Add(-2*time.Hour), "4700000")
				s.history(f.ID, a, now.Add(-23*time.Hour), "4700000")
			}},
		{name: "AML-003 structuring: older than 24h ignored", mut: transfer(600_000), notWant: []string{"AML-003"},
			setup: func(a string) {
				s.history(f.ID, a, now.Add(-2*time.Hour), "4700000")
				s.history(f.ID, a, now.Add(-25*time.Hour), "4700000")
			}},
		{name: "AML-005 receiver abroad", mut: func(b map[string]any) { b["receiverCountry"] = "GB" }, want: []string{"AML-005"},
			actions: []string{"GENERATE_FTR"}},
		{name: "AML-005 receiver NG", mut: func(b map[string]any) { b["receiverCountry"] = "NG" }, notWant: []string{"AML-005"}},
		{name: "AML-005 international type", mut: func(b map[string]any) { b["type"] = "INTERNATIONAL_TRANSFER" }, want: []string{"AML-005"}},
		{name: "AML-006 dormant 180 days", want: []string{"AML-006"},
			setup: func(a string) { s.history(f.ID, a, now.Add(-180*24*time.Hour-time.Minute), "1000") }},
		{name: "AML-006 179 days", notWant: []string{"AML-006"},
			setup: func(a string) { s.history(f.ID, a, now.Add(-179*24*time.Hour), "1000") }},
		{name: "AML-007 5th in 60 min", want: []string{"AML-007"}, setup: func(a string) {
			for i := range 4 {
				s.history(f.ID, a, now.Add(-time.Duration(10+i)*time.Minute), "1000")
			}
		}},
		{name: "AML-007 4th in 60 min", notWant: []string{"AML-007"}, setup: func(a string) {
			for i := range 3 {
				s.history(f.ID, a, now.Add(-time.Duration(10+i)*time.Minute), "1000")
			}
			s.history(f.ID, a, now.Add(-61*time.Minute), "1000")
		}},
		{name: "AML-009 tier 1 below 80%", mut: tier1(39_999.99), notWant: []string{"AML-008", "AML-009"}},
		{name: "AML-009 tier 1 at 80%", mut: tier1(40_000), want: []string{"AML-009"}, notWant: []string{"AML-008"}},
		{name: "AML-009 tier 1 at limit", mut: tier1(50_000), want: []string{"AML-009"}, notWant: []string{"AML-008"}},
		{name: "AML-008 tier 1 above limit", mut: tier1(50_000.01), want: []string{"AML-008"}, notWant: []string{"AML-009"}},
		{name: "FX: USD converted before thresholds", want: []string{"AML-001"}, fx: true,
			mut: func(b map[string]any) { cash(3_400)(b); b["currency"] = "USD" }}, // 5,100,000 NGN
		{name: "FX: USD below after conversion", notWant: []string{"AML-001", "AML-003"}, fx: true,
			mut: func(b map[string]any) { cash(2_000)(b); b["currency"] = "USD" }}, // 3,000,000 NGN
		{name: "FX: missing rate evaluates the raw amount", notWant: []string{"AML-001"}, actions: []string{"FX_RATE_MISSING"},
			mut: func(b map[string]any) { cash(4_000)(b); b["currency"] = "CHF" }},
		{name: "FX: missing rate, raw amount over threshold", want: []string{"AML-001"}, actions: []string{"FX_RATE_MISSING"},
			mut: func(b map[string]any) { cash(5_000_000)(b); b["currency"] = "EUR" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAccount()
			if c.setup != nil {
				c.setup(a)
			}
			b := screenBody(ext("aml"), a, 1000)
			b["timestamp"] = now.Format(time.RFC3339Nano)
			if c.mut != nil {
				c.mut(b)
			}
			out, env := s.screen(admin, b)
			require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
			got := out.aml()
			for _, w := range c.want {
				require.Contains(t, got, w, "%s", env.Raw)
			}
			for _, w := range c.notWant {
				require.NotContains(t, got, w, "%s", env.Raw)
			}
			for _, w := range c.actions {
				require.Contains(t, out.Actions, w)
			}
			require.Equal(t, screening.CategoryRegulatory, out.RiskBreakdown[1].Category)
			for _, e := range out.RiskBreakdown { // every entry of a non-NGN screening carries fx
				if c.fx {
					var fx map[string]any
					require.NoError(t, json.Unmarshal(e.Fx, &fx), "%s: %s", e.Category, env.Raw)
					require.Equal(t, "USD", fx["currency"])
					require.Equal(t, "1500", fx["rateToNgn"])
					require.NotEmpty(t, fx["amountNgn"])
					require.NotEmpty(t, fx["rateUpdatedAt"])
				} else {
					require.True(t, len(e.Fx) == 0 || string(e.Fx) == "null", "%s: %s", e.Category, e.Fx)
				}
			}
		})
	}

	t.Run("tenant tier limits apply after PATCH /tenants/me/limits", func(t *testing.T) {
		env := s.rest("PATCH", "/api/v1/tenants/me/limits", cred{Bearer: admin}, map[string]any{"tierLimits": map[string]string{"TIER_1": "100000"}})
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		var l struct {
			TierLimits map[string]string `json:"tierLimits"`
			ExpiryDays int               `json:"expiryDays"`
		}
		s.rest("GET", "/api/v1/tenants/me/limits", cred{Bearer: admin}, nil).decode(t, &l)
		require.Equal(t, "100000", l.TierLimits["TIER_1"])
		b := screenBody(ext("tier"), newAccount(), 60_000)
		b["senderBvn"] = "22211111111"
		out, _ := s.screen(admin, b)
		require.NotContains(t, out.aml(), "AML-008")
		require.NotContains(t, out.aml(), "AML-009")
	})
}

// TestScreeningAggregationWorkedExample pins docs/guide/screening.md's worked example: a 5,000,000
// NGN cash deposit, TIER_3 → score 60.00, ESCALATE, HIGH, an AML_ALERT case of priority HIGH.
func TestScreeningAggregationWorkedExample(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	b := screenBody(ext("agg"), newAccount(), 5_000_000)
	b["type"], b["channel"] = "CASH_DEPOSIT", "BRANCH"
	delete(b, "receiverName")
	out, env := s.screen(admin, b)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, 60.0, out.AggregateScore)
	require.Equal(t, "ESCALATE", out.Outcome)
	require.Equal(t, "HIGH", out.RiskLevel)
	require.Equal(t, []string{"GENERATE_CTR", "NOTIFY_OFFICER", "GENERATE_SAR", "CREATE_CASE"}, out.Actions)
	require.Equal(t, 75, out.RiskBreakdown[1].Score)
	require.NotNil(t, out.CaseID)
	var typ, prio, related string
	require.NoError(t, s.admin().QueryRow(context.Background(), `select type, priority, related_transaction_id from cases where id = $1`,
		*out.CaseID).Scan(&typ, &prio, &related))
	require.Equal(t, "AML_ALERT", typ)
	require.Equal(t, "HIGH", prio)
	require.Equal(t, out.TransactionID, related)
	for _, r := range out.TriggeredRules {
		require.Equal(t, "system", r.CreatedBy)
		require.Equal(t, screening.CategoryRegulatory, r.Category)
	}
}

// TestScreeningTrustModes covers STRICT, HYBRID and EXTERNAL for KYC, and business senders'
// KYB (no KYB record until the KYB capability is connected: NONE → 100 BLOCK).
func TestScreeningTrustModes(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	ref := s.kycFixture(f.ID, "22212345678", "APPROVED", "TIER_2")
	s.kycFixture(f.ID, "22299999999", "BVN_VERIFIED", "TIER_1")
	setMode := func(mode string) {
		env := s.rest("PATCH", "/api/v1/tenants/me/kyc-config", cred{Bearer: admin}, map[string]any{"kycTrustMode": mode})
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		var cfg map[string]any
		env.decode(t, &cfg)
		require.Equal(t, mode, cfg["kycTrustMode"])
	}
	identity := func(out screenOut) (int, string, *string, *string) {
		v := out.RiskBreakdown[2]
		require.Equal(t, screening.CategoryIdentity, v.Category)
		for _, r := range out.TriggeredRules {
			if r.Category == screening.CategoryIdentity {
				return v.Score, v.Outcome, r.KycSource, r.KycExternalRef
			}
		}
		return v.Score, v.Outcome, nil, nil
	}
	screen := func(mut func(map[string]any)) (screenOut, envelope) {
		b := screenBody(ext("trust"), newAccount(), 1000)
		mut(b)
		return s.screen(admin, b)
	}

	// STRICT (default): stored record only; the payload is ignored.
	out, _ := screen(func(b map[string]any) {})
	score, outcome, _, _ := identity(out)
	require.Equal(t, 0, score)
	require.Equal(t, "APPROVE", outcome)
	out, _ = screen(func(b map[string]any) {
		b["senderBvn"] = "22200000000"
		b["senderKycStatus"] = "VERIFIED"
		b["senderKycTier"] = "TIER_3"
	})
	score, outcome, src, _ := identity(out)
	require.Equal(t, 100, score)
	require.Equal(t, "BLOCK", outcome)
	require.Equal(t, "DATABASE", *src)
	out, _ = screen(func(b map[string]any) { b["senderBvn"] = "22299999999" })
	score, _, src, extRef := identity(out)
	require.Equal(t, 100, score)
	require.Equal(t, "DATABASE", *src)
	require.NotNil(t, extRef)
	require.True(t, out.rule("KYC Not Verified"))
	require.Contains(t, out.Actions, "VERIFY_KYC")

	// HYBRID: payload when present, else stored.
	setMode("HYBRID")
	out, _ = screen(func(b map[string]any) {
		b["senderBvn"] = "22200000000"
		b["senderKycStatus"] = "VERIFIED"
		b["senderKycTier"] = "TIER_1"
	})
	score, _, _, _ = identity(out)
	require.Equal(t, 0, score)
	out, _ = screen(func(b map[string]any) { b["senderKycStatus"] = "PENDING"; b["senderKycExternalRef"] = "BANK-KYC-1" })
	score, outcome, src, extRef = identity(out)
	require.Equal(t, 100, score)
	require.Equal(t, "BLOCK", outcome)
	require.Equal(t, "PAYLOAD", *src)
	require.Equal(t, "BANK-KYC-1", *extRef)
	out, _ = screen(func(b map[string]any) {}) // stored APPROVED
	score, _, _, _ = identity(out)
	require.Equal(t, 0, score)
	// HYBRID, payload status without tier: the stored tier applies (TIER_2 limit 200,000).
	out, _ = screen(func(b map[string]any) { b["senderKycStatus"] = "VERIFIED"; b["amount"] = 200_000.01 })
	require.Contains(t, out.aml(), "AML-008")
	_ = ref

	// Business transactions: KYB looked up by RC number; none → 100 BLOCK.
	out, env := screen(func(b map[string]any) {
		b["metadata"] = map[string]any{"entityType": "BUSINESS", "senderRcNumber": "RC123456"}
	})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.True(t, out.rule("KYB Not Verified"), "%s", env.Raw)
	require.Equal(t, "BLOCK", out.Outcome)
	require.Contains(t, out.Actions, "VERIFY_KYB")
	out, _ = screen(func(b map[string]any) {
		b["metadata"] = map[string]any{"entityType": "BUSINESS", "senderRcNumber": "RC123456"}
		b["senderKybStatus"] = "VERIFIED"
	})
	require.False(t, out.rule("KYB Not Verified"))
	_, env = screen(func(b map[string]any) { b["metadata"] = map[string]any{"entityType": "BUSINESS"} })
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), "senderRcNumber")

	// EXTERNAL: payload only; status and tier required, and KYB status for businesses.
	setMode("EXTERNAL")
	_, env = screen(func(b map[string]any) {})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), "senderKycStatus")
	require.Contains(t, string(env.Raw), "senderKycTier")
	out, env = screen(func(b map[string]any) { b["senderKycStatus"] = "VERIFIED"; b["senderKycTier"] = "TIER_2" })
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	score, _, _, _ = identity(out)
	require.Equal(t, 0, score)
	_, env = screen(func(b map[string]any) {
		b["senderKycStatus"], b["senderKycTier"] = "VERIFIED", "TIER_2"
		b["metadata"] = map[string]any{"entityType": "BUSINESS", "senderRcNumber": "RC1"}
	})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), "senderKybStatus")
}

// TestScreeningValidationEveryField sends one bad value per field rule and checks the
// VALIDATION_ERROR names the field.
func TestScreeningValidationEveryField(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.tenant()
	cases := []struct {
		field string
		mut   func(b map[string]any)
	}{
		{"externalId", func(b map[string]any) { b["externalId"] = "" }},
		{"type", func(b map[string]any) { b["type"] = "WIRE" }},
		{"type", func(b map[string]any) { delete(b, "type") }},
		{"channel", func(b map[string]any) { b["channel"] = "FAX" }},
		{"amount", func(b map[string]any) { b["amount"] = 0 }},
		{"amount", func(b map[string]any) { b["amount"] = -5 }},
		{"currency", func(b map[string]any) { b["currency"] = "ABC" }},
		{"currency", func(b map[string]any) { b["currency"] = "usd" }},
		{"senderAccountNumber", func(b map[string]any) { b["senderAccountNumber"] = "012345678" }},
		{"senderAccountNumber", func(b map[string]any) { b["senderAccountNumber"] = "01234567890" }},
		{"senderAccountNumber", func(b map[string]any) { b["senderAccountNumber"] = "01234x6789" }},
		{"senderBvn", func(b map[string]any) { b["senderBvn"] = "2221234567" }},
		{"senderKycStatus", func(b map[string]any) { b["senderKycStatus"] = "APPROVED" }},
		{"senderKycTier", func(b map[string]any) { b["senderKycTier"] = "TIER_4" }},
		{"senderKybStatus", func(b map[string]any) { b["senderKybStatus"] = "OK" }},
		{"senderKycVerifiedAt", func(b map[string]any) { b["senderKycVerifiedAt"] = "last week" }},
		{"senderName", func(b map[string]any) { b["senderName"] = "" }},
		{"receiverAccountNumber", func(b map[string]any) { b["receiverAccountNumber"] = "GB29 NWBK 6016" }},
		{"receiverAccountNumber", func(b map[string]any) { b["receiverAccountNumber"] = strings.Repeat("1", 35) }},
		{"receiverBvn", func(b map[string]any) { b["receiverBvn"] = "1" }},
		{"receiverKycStatus", func(b map[string]any) { b["receiverKycStatus"] = "X" }},
		{"receiverCountry", func(b map[string]any) { b["receiverCountry"] = "XX" }},
		{"receiverCountry", func(b map[string]any) { b["receiverCountry"] = "NGA" }},
		{"ipAddress", func(b map[string]any) { b["ipAddress"] = "999.1.1.1" }},
		{"latitude", func(b map[string]any) { b["latitude"] = 91 }},
		{"longitude", func(b map[string]any) { b["longitude"] = -181 }},
		{"timestamp", func(b map[string]any) { b["timestamp"] = "yesterday" }},
		{"timestamp", func(b map[string]any) { b["timestamp"] = "2026-13-01T00:00:00Z" }},
		{"timestamp", func(b map[string]any) { delete(b, "timestamp") }},
		{"metadata", func(b map[string]any) { b["metadata"] = map[string]any{"entityType": "TRUST"} }},
		{"metadata", func(b map[string]any) { b["metadata"] = map[string]any{"entityType": "BUSINESS"} }},
	}
	for _, c := range cases {
		b := screenBody(ext("bad"), newAccount(), 1000)
		c.mut(b)
		env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, b)
		requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
		var fields []string
		for _, d := range env.Error.Details {
			var fe struct{ Field, Message string }
			require.NoError(t, json.Unmarshal(d, &fe))
			fields = append(fields, fe.Field)
		}
		require.Contains(t, fields, c.field, "%s: %s", c.field, env.Raw)
	}
	// Nothing was stored.
	list := s.rest("GET", "/api/v1/transactions", cred{Bearer: admin}, nil)
	var page struct{ Total int }
	list.decode(t, &page)
	require.Equal(t, 0, page.Total)

	// ISO 8601 date-times in their other extended forms are accepted, all read as the same
	// instant.
	for i, ts := range []string{"2026-01-01T10:00Z", "2026-01-01T11:00:00.000+0100", "2026-01-01T11:00+01",
		"2026-01-01T10:00:00,0Z", "2026-01-01T10:00:00Z"} {
		b := screenBody(ext(fmt.Sprintf("iso-%d", i)), newAccount(), 1000)
		b["timestamp"] = ts
		env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, b)
		require.Equal(t, http.StatusOK, env.Status, "%s: %s", ts, env.Raw)
	}
	dated := s.rest("GET", "/api/v1/transactions?from=2026-01-01T10:00:00Z&to=2026-01-01T10:00:00Z", cred{Bearer: admin}, nil)
	var same struct{ Total int }
	dated.decode(t, &same)
	require.Equal(t, 5, same.Total)

	// A foreign receiver's account is not a NUBAN: an IBAN is accepted.
	b := screenBody(ext("iban"), newAccount(), 1000)
	b["type"], b["receiverCountry"], b["receiverAccountNumber"] = "INTERNATIONAL_TRANSFER", "GB", "GB29NWBK60161331926819"
	env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, b)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
}

// TestScreeningAutomaticCaseEffects: a BLOCK opens a case in the screening's transaction with
// the compliance officers' email and dashboard notification and the webhooks queued, and the
// case detail shows the transaction with its verdict.
func TestScreeningAutomaticCaseEffects(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	officer, _ := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	env := s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: admin},
		map[string]any{"webhookUrl": "http://127.0.0.1:9/hook", "webhookSecret": "s3cret-s3cret"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	b := screenBody(ext("case"), newAccount(), 1000) // no KYC record: STRICT → KYC NONE → BLOCK
	out, env := s.screen(admin, b)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "BLOCK", out.Outcome)
	require.Equal(t, "CRITICAL", out.RiskLevel)
	require.NotNil(t, out.CaseID)

	db := s.admin()
	ctx := context.Background()
	var typ, prio string
	require.NoError(t, db.QueryRow(ctx, `select type, priority from cases where id = $1 and related_transaction_id = $2`,
		*out.CaseID, out.TransactionID).Scan(&typ, &prio))
	require.Equal(t, "SUSPICIOUS_TRANSACTION", typ)
	require.Equal(t, "CRITICAL", prio)
	var mails, notes int
	require.NoError(t, db.QueryRow(ctx, `select count(*) from emails where tenant_id = $1 and to_address = $2`, string(f.ID),
		officer.Email).Scan(&mails))
	require.Equal(t, 1, mails)
	require.NoError(t, db.QueryRow(ctx, `select count(*) from notifications where tenant_id = $1 and user_id = $2 and case_id = $3`,
		string(f.ID), officer.ID, *out.CaseID).Scan(&notes))
	require.Equal(t, 1, notes)
	rows, err := db.Query(ctx, `select event from webhook_deliveries where tenant_id = $1 order by event`, string(f.ID))
	require.NoError(t, err)
	var events []string
	for rows.Next() {
		var e string
		require.NoError(t, rows.Scan(&e))
		events = append(events, e)
	}
	require.Equal(t, []string{"case.created", "transaction.screened"}, events)

	var detail struct {
		RelatedTransaction struct {
			ID         string `json:"id"`
			ExternalID string `json:"externalId"`
			Amount     string `json:"amount"`
			Verdict    struct {
				Outcome   string `json:"outcome"`
				RiskLevel string `json:"riskLevel"`
			} `json:"verdict"`
		} `json:"relatedTransaction"`
	}
	s.rest("GET", "/api/v1/cases/"+*out.CaseID, cred{Bearer: admin}, nil).decode(t, &detail)
	require.Equal(t, out.TransactionID, detail.RelatedTransaction.ID)
	require.Equal(t, "BLOCK", detail.RelatedTransaction.Verdict.Outcome)
	require.Equal(t, "1000", detail.RelatedTransaction.Amount)

	// An APPROVE opens no case and sends no transaction.screened webhook.
	s.kycFixture(f.ID, "22212345678", "APPROVED", "TIER_3")
	out, _ = s.screen(admin, screenBody(ext("ok"), newAccount(), 1000))
	require.Equal(t, "APPROVE", out.Outcome)
	require.Nil(t, out.CaseID)
	var n int
	require.NoError(t, db.QueryRow(ctx, `select count(*) from webhook_deliveries where tenant_id = $1`, string(f.ID)).Scan(&n))
	require.Equal(t, 2, n)
}

// flakyScreener fails until healed, then reports a sanctions hit on every name.
type flakyScreener struct {
	mu     sync.Mutex
	healed bool
}

func (f *flakyScreener) heal() { f.mu.Lock(); f.healed = true; f.mu.Unlock() }

func (f *flakyScreener) Screen(_ context.Context, _ tenancy.TenantID, q screening.NameQuery) ([]screening.NameHit, error) {
	name := q.Name
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.healed {
		return nil, errors.New("sanctions upstream unavailable")
	}
	return []screening.NameHit{{List: "OFAC SDN", ListType: screening.ListSanctions, EntryID: "ofac:1", Name: name,
		MatchedName: name, Score: 0.97}}, nil
}

// TestScreeningFailOpenRetro: the sanctions engine errors, the screening still answers with the
// engine skipped and RETROACTIVE_REVIEW, and a retro-screening job is queued; once the engine is
// back the job re-runs it, finds the hit and opens a SANCTIONS_HIT case.
func TestScreeningFailOpenRetro(t *testing.T) {
	t.Parallel()
	fs := &flakyScreener{}
	s := newTestServer(t, &serverOpts{Workers: true, Screener: fs})
	_, admin := s.kycTenant()
	out, env := s.screen(admin, screenBody(ext("retro"), newAccount(), 1000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "APPROVE", out.Outcome)
	sv := out.RiskBreakdown[0]
	require.Equal(t, screening.CategorySanctions, sv.Category)
	require.True(t, sv.Skipped)
	require.Contains(t, *sv.SkipReason, "sanctions upstream unavailable")
	require.Contains(t, out.Actions, "RETROACTIVE_REVIEW")
	require.Nil(t, out.CaseID)

	db := s.admin()
	ctx := context.Background()
	var args []byte
	require.NoError(t, db.QueryRow(ctx, `select args from river_job where kind = 'screening_retro'`).Scan(&args))
	require.Contains(t, string(args), out.TransactionID)

	fs.heal()
	_, err := db.Exec(ctx, `update river_job set scheduled_at = now() where kind = 'screening_retro'`)
	require.NoError(t, err)
	var caseID, typ string
	require.Eventually(t, func() bool {
		return db.QueryRow(ctx, `select id, type from cases where related_transaction_id = $1`, out.TransactionID).Scan(&caseID, &typ) == nil
	}, 20*time.Second, 100*time.Millisecond)
	require.Equal(t, "SANCTIONS_HIT", typ)
	var retroCase string
	require.NoError(t, db.QueryRow(ctx, `select case_id from retro_screenings where transaction_id = $1`, out.TransactionID).Scan(&retroCase))
	require.Equal(t, caseID, retroCase)
	// The stored transaction itself never changes.
	got := s.rest("GET", "/api/v1/transactions/"+out.TransactionID, cred{Bearer: admin}, nil)
	var detail struct {
		Verdict struct {
			Outcome string  `json:"outcome"`
			CaseID  *string `json:"caseId"`
		} `json:"verdict"`
	}
	got.decode(t, &detail)
	require.Equal(t, "APPROVE", detail.Verdict.Outcome)
}

// TestScreeningImmutableTransactions: the application role can neither update nor delete a
// stored transaction (docs/reference/specification.md 4.3 rule 2).
func TestScreeningImmutableTransactions(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	out, _ := s.screen(admin, screenBody(ext("imm"), newAccount(), 1000))
	ctx := context.Background()
	db := s.admin()
	tx, err := db.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx)
	_, err = tx.Exec(ctx, "set local role complyd_app")
	require.NoError(t, err)
	_, err = tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(f.ID))
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `update transactions set outcome = 'BLOCK' where id = $1`, out.TransactionID)
	require.ErrorContains(t, err, "permission denied")
}

// TestScreeningCaseBatchEffects screens 40 case-opening transactions at once, so that the case
// lane (one committer) stores them in shared batches, which the test checks: every case gets its own gap-free
// number, timeline event and audit record, and every compliance officer an email and a
// notification per case; every screening queues its case.created and transaction.screened
// webhooks; and the River jobs of the emails (several emails to a job) and the webhooks are all
// enqueued.
func TestScreeningCaseBatchEffects(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true})
	f, admin := s.tenant()
	o1, _ := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	o2, _ := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	env := s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: admin},
		map[string]any{"webhookUrl": "http://127.0.0.1:9/hook", "webhookSecret": "s3cret-s3cret"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	const n = 40
	var txs []map[string]any
	for range n {
		txs = append(txs, screenBody(ext("batch-case"), newAccount(), 1000)) // no KYC: STRICT → BLOCK
	}
	env = s.rest("POST", "/api/v1/transactions/screen-batch", cred{Bearer: admin}, map[string]any{"transactions": txs})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var out struct {
		Items []struct {
			ExternalID string     `json:"externalId"`
			Result     *screenOut `json:"result"`
		} `json:"items"`
	}
	env.decode(t, &out)
	require.Len(t, out.Items, n)
	caseIDs := map[string]bool{}
	for _, it := range out.Items {
		require.NotNil(t, it.Result, it.ExternalID)
		require.Equal(t, "BLOCK", it.Result.Outcome)
		require.NotNil(t, it.Result.CaseID)
		caseIDs[*it.Result.CaseID] = true
	}
	require.Len(t, caseIDs, n)

	db := s.admin()
	ctx := context.Background()
	q := func(sql string, args ...any) int {
		t.Helper()
		var v int
		require.NoError(t, db.QueryRow(ctx, sql, args...).Scan(&v))
		return v
	}
	tenant := string(f.ID)
	var batches int
	require.NoError(t, db.QueryRow(ctx, `select count(distinct xmin::text) from cases where tenant_id = $1`, tenant).Scan(&batches))
	require.Less(t, batches, n, "the cases were stored in shared batches")
	var minSeq, maxSeq, distinct int
	require.NoError(t, db.QueryRow(ctx, `select min(split_part(case_number, '-', 3)::int), max(split_part(case_number, '-', 3)::int),
		count(distinct case_number) from cases where tenant_id = $1`, tenant).Scan(&minSeq, &maxSeq, &distinct))
	require.Equal(t, [3]int{1, n, n}, [3]int{minSeq, maxSeq, distinct}, "gap-free numbers")
	require.Equal(t, n, q(`select count(*) from case_events where tenant_id = $1 and event_type = 'CASE_CREATED'`, tenant))
	require.Equal(t, n, q(`select count(*) from audit_events where tenant_id = $1 and action = 'case.case_created'`, tenant))
	for _, o := range []string{o1.ID, o2.ID} {
		require.Equal(t, n, q(`select count(distinct case_id) from notifications where tenant_id = $1 and user_id = $2`, tenant, o))
	}
	require.Equal(t, n, q(`select count(*) from emails where tenant_id = $1 and to_address = $2`, tenant, o1.Email))
	require.Equal(t, n, q(`select count(*) from emails where tenant_id = $1 and to_address = $2`, tenant, o2.Email))
	require.Equal(t, n, q(`select count(*) from webhook_deliveries where tenant_id = $1 and event = 'case.created'`, tenant))
	require.Equal(t, n, q(`select count(*) from webhook_deliveries where tenant_id = $1 and event = 'transaction.screened'`, tenant))
	// Every email in exactly one send_email job, eight to a job at most (postgres.mergeJobs), and
	// every delivery's first attempt in exactly one webhook_deliver job, eight to a job at most.
	require.Equal(t, 2*n, q(`select count(*) from river_job, jsonb_array_elements_text(args->'emailIds') e where kind = 'send_email'`))
	require.Equal(t, 2*n, q(`select count(distinct e) from river_job, jsonb_array_elements_text(args->'emailIds') e where kind = 'send_email'`))
	require.Less(t, q(`select count(*) from river_job where kind = 'send_email'`), 2*n)
	require.Equal(t, 2*n, q(`select count(*) from river_job, jsonb_array_elements_text(args->'deliveryIds') e where kind = 'webhook_deliver'`))
	require.Equal(t, 2*n, q(`select count(distinct e) from river_job, jsonb_array_elements_text(args->'deliveryIds') e where kind = 'webhook_deliver'`))
	require.Less(t, q(`select count(*) from river_job where kind = 'webhook_deliver'`), 2*n)
	require.Zero(t, q(`select count(*) from river_job, jsonb_array_length(args->'deliveryIds') l where kind = 'webhook_deliver' and l > 8`))
}

// TestScreeningConcurrentTenantsStoreApart screens two tenants' transactions at once, so that
// the readers and committers switch tenants on their held connections within and between
// batches: each tenant reads back exactly its own transactions, with its own history.
func TestScreeningConcurrentTenantsStoreApart(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.ScreeningLinger = 20 * time.Millisecond }})
	type side struct {
		id    tenancy.TenantID
		token string
		exts  map[string]bool
	}
	var sides []*side
	for range 2 {
		f, admin := s.kycTenant()
		sides = append(sides, &side{id: f.ID, token: admin, exts: map[string]bool{}})
	}
	// The same 30 account numbers at both tenants, each used once per tenant (more screenings of
	// one account within minutes would trip the velocity rules).
	accounts := make([]string, 30)
	for i := range accounts {
		accounts[i] = newAccount()
	}
	var wg sync.WaitGroup
	for round := range 3 {
		for _, sd := range sides {
			var txs []map[string]any
			for j := range 10 {
				e := ext(fmt.Sprintf("tenant-apart-%d", round))
				sd.exts[e] = true
				txs = append(txs, screenBody(e, accounts[round*10+j], 1000))
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				env := s.rest("POST", "/api/v1/transactions/screen-batch", cred{Bearer: sd.token}, map[string]any{"transactions": txs})
				assert.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
			}()
		}
		wg.Wait()
	}
	for _, sd := range sides {
		var page struct {
			Items []struct {
				ExternalID string `json:"externalId"`
				Verdict    struct {
					Outcome string `json:"outcome"`
				} `json:"verdict"`
			} `json:"items"`
			Total int `json:"total"`
		}
		s.rest("GET", "/api/v1/transactions?limit=100", cred{Bearer: sd.token}, nil).decode(t, &page)
		require.Equal(t, 30, page.Total)
		for _, it := range page.Items {
			require.True(t, sd.exts[it.ExternalID], "%s belongs to this tenant", it.ExternalID)
			require.Equal(t, "APPROVE", it.Verdict.Outcome)
		}
	}
}
