package app

import (
	"context"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/pgtest"
)

type auditPage struct {
	Items []struct {
		Action, ResourceID string
		Before, After      map[string]any
	}
	Total int
}

func (s *testServer) audits(tok, action string) auditPage {
	var page auditPage
	s.rest("GET", "/api/v1/audit-events?action="+action, cred{Bearer: tok}, nil).decode(s.t, &page)
	return page
}

// TestAdminRuleBacktest: a draft rule run over the tenant's stored transactions counts exactly
// the ones it would have triggered, over REST and gRPC; the row bound truncates; the period
// bounds; another tenant's transactions are not seen; validate answers as the draft is typed.
func TestAdminRuleBacktest(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	_, other := s.kycTenant()

	amounts := []float64{1000, 2000, 150000, 300000, 45000, 120000, 5000}
	for i, a := range amounts {
		_, env := s.screen(admin, screenBody(ext("bt"), "012345678"+string(rune('0'+i)), a))
		require.True(t, env.Success, "%s", env.Raw)
	}
	_, env := s.screen(other, screenBody(ext("bt-other"), "0123456789", 900000))
	require.True(t, env.Success, "%s", env.Raw)

	from, to := time.Now().Add(-time.Hour).UTC(), time.Now().Add(time.Hour).UTC()
	body := map[string]any{"expression": "ctx.amountNgnKobo >= naira(100000)", "from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339)}
	var res struct {
		Scanned, Matched, Errors int
		Truncated                bool
		Examples                 []struct{ TransactionID, ExternalID, Amount, Currency, Outcome string }
	}
	s.rest("POST", "/api/v1/rules/backtest", cred{Bearer: admin}, body).decode(t, &res)
	require.Equal(t, 7, res.Scanned)
	require.Equal(t, 3, res.Matched)
	require.Zero(t, res.Errors)
	require.False(t, res.Truncated)
	require.Len(t, res.Examples, 3)
	for _, e := range res.Examples {
		require.Contains(t, []string{"150000.00", "300000.00", "120000.00"}, e.Amount)
		require.Equal(t, "NGN", e.Currency)
	}

	// The same over gRPC, with a row bound below the period's rows: truncated.
	hc, opts := s.clientOpts("grpc", cred{Bearer: admin})
	rc := complydv1connect.NewRuleServiceClient(hc, s.URL, opts...)
	limit := int32(4)
	out, err := rc.BacktestRule(context.Background(), connect.NewRequest(&complydv1.BacktestRuleRequest{
		Expression: "tx.amountMinor < 1000000", From: timestamppb.New(from), To: timestamppb.New(to), MaxTransactions: &limit}))
	require.NoError(t, err)
	require.Equal(t, int32(4), out.Msg.Scanned)
	require.True(t, out.Msg.Truncated)
	require.NotNil(t, out.Msg.OldestScanned)

	// A period with nothing in it; and another tenant sees only its own transaction.
	body["to"] = from.Add(time.Minute).Format(time.RFC3339)
	s.rest("POST", "/api/v1/rules/backtest", cred{Bearer: admin}, body).decode(t, &res)
	require.Zero(t, res.Scanned)
	body["to"] = to.Format(time.RFC3339)
	s.rest("POST", "/api/v1/rules/backtest", cred{Bearer: other}, body).decode(t, &res)
	require.Equal(t, 1, res.Scanned)
	require.Equal(t, 1, res.Matched)

	// A draft that does not compile is a 400 for the backtest and an answer for validate.
	env = s.rest("POST", "/api/v1/rules/backtest", cred{Bearer: admin}, map[string]any{"expression": "tx.amount >", "from": body["from"], "to": body["to"]})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	var v struct {
		Valid   bool
		Message string
	}
	s.rest("POST", "/api/v1/rules/validate", cred{Bearer: admin}, map[string]any{"expression": "tx.nope == 1"}).decode(t, &v)
	require.False(t, v.Valid)
	require.Contains(t, v.Message, "nope")
	s.rest("POST", "/api/v1/rules/validate", cred{Bearer: admin}, map[string]any{"expression": "tx.amountMinor > 5"}).decode(t, &v)
	require.True(t, v.Valid)

	// Only a BANK_ADMIN back-tests.
	f, _ := s.tenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	requireRESTError(t, s.rest("POST", "/api/v1/rules/backtest", cred{Bearer: analyst}, body), http.StatusForbidden, "FORBIDDEN")
}

// TestAdminAccount: the own password change, MFA enrolment with a TOTP code, and a BANK_ADMIN's
// MFA reset of another user, each audited; an API key cannot change its creator's password.
func TestAdminAccount(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	u, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)

	env := s.rest("POST", "/api/v1/auth/me/password", cred{Bearer: officer}, map[string]any{"currentPassword": "wrong-password", "newPassword": "a-new-password-1"})
	requireRESTError(t, env, http.StatusUnauthorized, "INVALID_CREDENTIALS")
	env = s.rest("POST", "/api/v1/auth/me/password", cred{Bearer: officer}, map[string]any{"currentPassword": pgtest.Password, "newPassword": "a-new-password-1"})
	require.True(t, env.Success, "%s", env.Raw)
	officer = s.login(u.Email, "a-new-password-1")
	requireRESTError(t, s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": u.Email, "password": pgtest.Password}),
		http.StatusUnauthorized, "INVALID_CREDENTIALS")

	// Enrolment: a wrong code stores nothing; the right one enrols.
	var setup struct{ Secret, OtpauthURL string }
	s.rest("POST", "/api/v1/auth/me/mfa/setup", cred{Bearer: officer}, map[string]any{}).decode(t, &setup)
	require.Contains(t, setup.OtpauthURL, "otpauth://totp/")
	requireRESTError(t, s.rest("POST", "/api/v1/auth/me/mfa/confirm", cred{Bearer: officer}, map[string]any{"secret": setup.Secret, "code": "000000"}),
		http.StatusUnauthorized, "INVALID_CREDENTIALS")
	code, err := totp.GenerateCode(setup.Secret, time.Now())
	require.NoError(t, err)
	var me struct{ MfaEnabled bool }
	s.rest("POST", "/api/v1/auth/me/mfa/confirm", cred{Bearer: officer}, map[string]any{"secret": setup.Secret, "code": code}).decode(t, &me)
	require.True(t, me.MfaEnabled)
	requireRESTError(t, s.rest("POST", "/api/v1/auth/me/mfa/setup", cred{Bearer: officer}, map[string]any{}), http.StatusConflict, "CONFLICT")

	// Reset: not one's own, not by an officer; by the admin it clears the enrolment.
	var adminID string
	var meAdmin struct{ ID string }
	s.rest("GET", "/api/v1/auth/me", cred{Bearer: admin}, nil).decode(t, &meAdmin)
	adminID = meAdmin.ID
	requireRESTError(t, s.rest("POST", "/api/v1/auth/users/"+adminID+"/mfa/reset", cred{Bearer: admin}, map[string]any{}), http.StatusConflict, "CONFLICT")
	requireRESTError(t, s.rest("POST", "/api/v1/auth/users/"+adminID+"/mfa/reset", cred{Bearer: officer}, map[string]any{}), http.StatusForbidden, "FORBIDDEN")
	var reset struct{ MfaEnabled bool }
	env = s.rest("POST", "/api/v1/auth/users/"+u.ID+"/mfa/reset", cred{Bearer: admin}, map[string]any{})
	env.decode(t, &reset)
	require.False(t, reset.MfaEnabled)
	require.Contains(t, string(env.Raw), `"email"`)
	// Another tenant's user is not found.
	_, admin2 := s.tenant()
	requireRESTError(t, s.rest("POST", "/api/v1/auth/users/"+u.ID+"/mfa/reset", cred{Bearer: admin2}, map[string]any{}), http.StatusNotFound, "NOT_FOUND")

	require.Equal(t, 1, s.audits(admin, "auth.password_changed").Total)
	require.Equal(t, 1, s.audits(admin, "auth.mfa_enrolled").Total)
	p := s.audits(admin, "user.mfa_reset")
	require.Equal(t, 1, p.Total)
	require.Equal(t, u.ID, p.Items[0].ResourceID)
	require.Equal(t, true, p.Items[0].Before["mfaEnabled"])

	// An API key acts with its creator's role but is not the creator.
	var key struct{ Key string }
	s.rest("POST", "/api/v1/auth/api-keys", cred{Bearer: admin}, map[string]any{"name": "core"}).decode(t, &key)
	requireRESTError(t, s.rest("POST", "/api/v1/auth/me/password", cred{APIKey: key.Key}, map[string]any{"currentPassword": pgtest.Password, "newPassword": "another-password"}),
		http.StatusForbidden, "FORBIDDEN")
}

// TestAdminBranding: the setter validates (https URL, #RRGGBB), GET /auth/me shows the change,
// and the audit event has the values before and after.
func TestAdminBranding(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)

	for _, bad := range []map[string]any{{"logoUrl": "http://cdn.example.com/l.png"}, {"logoUrl": "javascript:alert(1)"}, {"primaryColor": "red"}, {"primaryColor": "#12345"}} {
		requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/branding", cred{Bearer: admin}, bad), http.StatusBadRequest, "VALIDATION_ERROR")
	}
	requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/branding", cred{Bearer: analyst}, map[string]any{"primaryColor": "#112233"}), http.StatusForbidden, "FORBIDDEN")
	var b struct {
		LogoURL      *string `json:"logoUrl"`
		PrimaryColor string  `json:"primaryColor"`
	}
	s.rest("PATCH", "/api/v1/tenants/me/branding", cred{Bearer: admin}, map[string]any{"logoUrl": "https://cdn.example.com/l.png", "primaryColor": "#112233"}).decode(t, &b)
	require.Equal(t, "https://cdn.example.com/l.png", *b.LogoURL)
	var me struct {
		Tenant struct {
			LogoURL      string `json:"logoUrl"`
			PrimaryColor string `json:"primaryColor"`
		} `json:"tenant"`
	}
	s.rest("GET", "/api/v1/auth/me", cred{Bearer: analyst}, nil).decode(t, &me)
	require.Equal(t, "https://cdn.example.com/l.png", me.Tenant.LogoURL)
	require.Equal(t, "#112233", me.Tenant.PrimaryColor)
	// Only the colour: the logo stays; "" removes the logo.
	s.rest("PATCH", "/api/v1/tenants/me/branding", cred{Bearer: admin}, map[string]any{"primaryColor": "#445566"}).decode(t, &b)
	require.NotNil(t, b.LogoURL)
	s.rest("PATCH", "/api/v1/tenants/me/branding", cred{Bearer: admin}, map[string]any{"logoUrl": ""}).decode(t, &b)
	require.Nil(t, b.LogoURL)
	require.Equal(t, "#445566", b.PrimaryColor)
	p := s.audits(admin, "tenant.branding_updated")
	require.Equal(t, 3, p.Total)
	require.Equal(t, "#112233", p.Items[2].After["primaryColor"], "newest first")
	require.Equal(t, "#112233", p.Items[1].Before["primaryColor"])
}

// TestAdminWebhookReplay: a delivered event is replayed to a receiver the test runs (same event
// id, a new signed request), its attempts are listed with the receiver's status codes, and the
// replay is audited; another tenant's delivery is not found.
func TestAdminWebhookReplay(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Workers: true, WebhookBackoff: fastBackoff})
	_, admin := s.tenant()
	rc := newReceiver(t, "whsec-replay", nil)
	s.setWebhook(admin, rc.URL+"/hooks", rc.secret)
	s.resolveCase(admin)
	var ds []deliveryJSON
	waitFor(t, 20*time.Second, "delivery recorded", func() bool { ds = s.deliveries(admin, "?status=DELIVERED"); return len(ds) == 1 })

	// A replay of a delivery in its round is refused; this one is finished.
	var d deliveryJSON
	s.rest("POST", "/api/v1/webhooks/deliveries/"+ds[0].ID+"/replay", cred{Bearer: admin}, map[string]any{}).decode(t, &d)
	require.Equal(t, "PENDING", d.Status)
	waitFor(t, 20*time.Second, "replayed delivery", func() bool { return len(rc.delivered()) == 2 })
	got := rc.delivered()
	require.Equal(t, got[0].Payload.ID, got[1].Payload.ID, "a replay repeats the event id")
	waitFor(t, 10*time.Second, "replay recorded", func() bool { ds = s.deliveries(admin, "?status=DELIVERED"); return len(ds) == 1 })

	var atts struct {
		Items []struct {
			Attempt    int
			StatusCode *int
			Error      string
		}
	}
	s.rest("GET", "/api/v1/webhooks/deliveries/"+ds[0].ID+"/attempts", cred{Bearer: admin}, nil).decode(t, &atts)
	require.Len(t, atts.Items, 2)
	for _, a := range atts.Items {
		require.Equal(t, 1, a.Attempt)
		require.NotNil(t, a.StatusCode)
		require.Equal(t, http.StatusNoContent, *a.StatusCode)
	}
	// The same log over Connect.
	hc, opts := s.clientOpts("connect", cred{Bearer: admin})
	wc := complydv1connect.NewWebhookServiceClient(hc, s.URL, opts...)
	la, err := wc.ListWebhookAttempts(context.Background(), connect.NewRequest(&complydv1.ListWebhookAttemptsRequest{Id: ds[0].ID}))
	require.NoError(t, err)
	require.Len(t, la.Msg.Items, 2)
	require.Equal(t, int32(http.StatusNoContent), la.Msg.Items[1].StatusCode.GetValue())
	_, err = wc.ReplayWebhookDelivery(context.Background(), connect.NewRequest(&complydv1.ReplayWebhookDeliveryRequest{Id: "whd_missing"}))
	code, info := errorInfo(t, err)
	require.Equal(t, connect.CodeNotFound, code)
	require.Equal(t, "NOT_FOUND", info.Code)

	p := s.audits(admin, "webhook.delivery_replayed")
	require.Equal(t, 1, p.Total)
	require.Equal(t, "DELIVERED", p.Items[0].Before["status"])

	_, admin2 := s.tenant()
	requireRESTError(t, s.rest("POST", "/api/v1/webhooks/deliveries/"+ds[0].ID+"/replay", cred{Bearer: admin2}, map[string]any{}), http.StatusNotFound, "NOT_FOUND")
	requireRESTError(t, s.rest("GET", "/api/v1/webhooks/deliveries/"+ds[0].ID+"/attempts", cred{Bearer: admin2}, nil), http.StatusNotFound, "NOT_FOUND")
}
