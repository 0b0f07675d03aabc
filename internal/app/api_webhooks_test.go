package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/postgres/webhookstore"
	"github.com/complyd/complyd/internal/webhook"
)

// fastBackoff makes the 5-attempt schedule take milliseconds.
func fastBackoff(int) time.Duration { return 5 * time.Millisecond }

// receiver is a real HTTP receiver started by the test. fail decides, per request, the status
// to answer (0 = 204).
type receiver struct {
	*httptest.Server
	secret string
	mu     sync.Mutex
	got    []received
	calls  atomic.Int64
	fail   func(n int64) int
}

type received struct {
	Header  http.Header
	Body    []byte
	Payload webhook.Payload
	At      time.Time
	Status  int
}

func newReceiver(t testing.TB, secret string, fail func(n int64) int) *receiver {
	r := &receiver{secret: secret, fail: fail}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		n := r.calls.Add(1)
		body, _ := io.ReadAll(req.Body)
		st := http.StatusNoContent
		if r.fail != nil {
			if s := r.fail(n); s != 0 {
				st = s
			}
		}
		var p webhook.Payload
		_ = json.Unmarshal(body, &p)
		r.mu.Lock()
		r.got = append(r.got, received{Header: req.Header.Clone(), Body: body, Payload: p, At: time.Now(), Status: st})
		r.mu.Unlock()
		w.WriteHeader(st)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) received() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// delivered returns the requests answered 2xx.
func (r *receiver) delivered() []received {
	var out []received
	for _, g := range r.received() {
		if g.Status < 300 {
			out = append(out, g)
		}
	}
	return out
}

func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type deliveryJSON struct {
	ID             string  `json:"id"`
	EventID        string  `json:"eventId"`
	Event          string  `json:"event"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	LastStatusCode *int    `json:"lastStatusCode"`
	LastError      *string `json:"lastError"`
	DeadAt         *string `json:"deadAt"`
}

func (s *testServer) deliveries(tok, query string) []deliveryJSON {
	var page struct {
		Items []deliveryJSON `json:"items"`
	}
	s.rest("GET", "/api/v1/webhooks/deliveries"+query, cred{Bearer: tok}, nil).decode(s.t, &page)
	return page.Items
}

// resolveCase creates a case and resolves it through /api/v1 (case.resolved) as a false
// positive: a true positive would also draft its STR/SAR and queue report.created
// (docs/guide/reports.md), one more delivery than these tests count.
func (s *testServer) resolveCase(tok string) caseJSON {
	var c caseJSON
	s.rest("POST", "/api/v1/cases", cred{Bearer: tok}, newCaseBody).decode(s.t, &c)
	s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: tok}, map[string]any{"status": "ESCALATED"}).decode(s.t, &c)
	s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: tok}, map[string]any{"status": "RESOLVED_FALSE_POSITIVE", "resolutionNote": "confirmed"}).decode(s.t, &c)
	return c
}

func (s *testServer) setWebhook(tok, url, secret string) {
	env := s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: tok}, map[string]any{"webhookUrl": url, "webhookSecret": secret})
	require.True(s.t, env.Success, "%s", env.Raw)
}

// TestWebhookConfig: GET never returns the secret; URL validation; no URL means nothing queued.
func TestWebhookConfig(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.WebhookAllowPrivate = false }})
	_, admin := s.tenant()

	var cfg struct {
		WebhookURL string `json:"webhookUrl"`
		SecretSet  bool   `json:"secretSet"`
	}
	s.rest("GET", "/api/v1/tenants/me/webhooks", cred{Bearer: admin}, nil).decode(t, &cfg)
	require.Empty(t, cfg.WebhookURL)
	require.False(t, cfg.SecretSet)

	s.resolveCase(admin)
	require.Empty(t, s.deliveries(admin, ""), "no URL configured: nothing is recorded")

	for _, bad := range []string{"http://bank.example/hooks", "https://127.0.0.1/h", "https://localhost/h", "https://169.254.169.254/latest",
		"https://user:pw@bank.example/h", "not a url"} {
		env := s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: admin}, map[string]any{"webhookUrl": bad})
		requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
		require.Contains(t, string(env.Raw), "webhookUrl", bad)
	}
	env := s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: admin}, map[string]any{"webhookUrl": "https://bank.example/hooks", "webhookSecret": "s3cret"})
	env.decode(t, &cfg)
	require.Equal(t, "https://bank.example/hooks", cfg.WebhookURL)
	require.True(t, cfg.SecretSet)
	require.NotContains(t, string(env.Raw), "s3cret")
	env = s.rest("GET", "/api/v1/tenants/me/webhooks", cred{Bearer: admin}, nil)
	require.NotContains(t, string(env.Raw), "s3cret")
	// PATCH of the URL alone keeps the secret.
	s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: admin}, map[string]any{"webhookUrl": "https://bank.example/v2"}).decode(t, &cfg)
	require.True(t, cfg.SecretSet)
	// The signing secret is sealed at rest.
	var stored string
	require.NoError(t, s.admin().QueryRow(context.Background(), "select secret from webhook_endpoints where url = 'https://bank.example/v2'").Scan(&stored))
	require.True(t, strings.HasPrefix(stored, "sealed:v1:"), stored)
}

// TestWebhookSignedDelivery: a resolved case arrives once, signed as the spec says and with the
// timestamped V2 signature, with the documented payload.
func TestWebhookSignedDelivery(t *testing.T) {
	t.Parallel() // servers with workers get a database of their own (serverOpts.OwnDB)
	s := newTestServer(t, &serverOpts{Workers: true, WebhookBackoff: fastBackoff})
	_, admin := s.tenant()
	rc := newReceiver(t, "whsec-test", nil)
	s.setWebhook(admin, rc.URL+"/hooks", rc.secret)

	c := s.resolveCase(admin)
	waitFor(t, 20*time.Second, "delivery", func() bool { return len(rc.delivered()) == 1 })
	got := rc.delivered()[0]
	require.NoError(t, webhook.Verify(rc.secret, got.Header, got.Body, time.Minute))
	require.NoError(t, webhook.VerifyBody(rc.secret, got.Body, got.Header.Get("X-Svc-Signature")))
	require.Equal(t, got.Header.Get("X-Svc-Signature"), got.Header.Get("X-Signature"))
	require.Error(t, webhook.Verify("wrong-secret", got.Header, got.Body, time.Minute))
	require.Equal(t, "case.resolved", got.Header.Get("X-Svc-Event"))
	require.Equal(t, "case.resolved", got.Payload.Event)
	data := got.Payload.Data.(map[string]any)
	require.Equal(t, c.ID, data["caseId"])
	require.Equal(t, "RESOLVED_FALSE_POSITIVE", data["status"])
	require.Equal(t, "ESCALATED", data["previousStatus"])
	require.Equal(t, "confirmed", data["resolutionNote"])

	// The receiver answers before the worker records the attempt.
	var ds []deliveryJSON
	waitFor(t, 10*time.Second, "delivery recorded", func() bool { ds = s.deliveries(admin, "?status=DELIVERED"); return len(ds) == 1 })
	require.Equal(t, got.Header.Get("X-Svc-Delivery"), ds[0].ID)
	require.Equal(t, got.Payload.ID, ds[0].EventID)
	require.Equal(t, 1, ds[0].Attempts)
}

// TestWebhookRetriesThenSucceeds: a receiver failing twice then succeeding gets the event once
// (as a success), after three recorded attempts with the same event id.
func TestWebhookRetriesThenSucceeds(t *testing.T) {
	t.Parallel() // servers with workers get a database of their own (serverOpts.OwnDB)
	s := newTestServer(t, &serverOpts{Workers: true, WebhookBackoff: fastBackoff})
	f, admin := s.tenant()
	rc := newReceiver(t, "k", func(n int64) int {
		if n <= 2 {
			return http.StatusServiceUnavailable
		}
		return 0
	})
	s.setWebhook(admin, rc.URL, rc.secret)
	s.resolveCase(admin)
	waitFor(t, 20*time.Second, "delivery", func() bool { return len(rc.delivered()) == 1 })
	time.Sleep(100 * time.Millisecond) // nothing more may arrive
	all := rc.received()
	require.Len(t, all, 3)
	for _, r := range all {
		require.Equal(t, all[0].Payload.ID, r.Payload.ID, "the event id repeats on retries")
		require.Equal(t, all[0].Header.Get("X-Svc-Delivery"), r.Header.Get("X-Svc-Delivery"))
	}
	var ds []deliveryJSON
	waitFor(t, 10*time.Second, "delivery recorded", func() bool { ds = s.deliveries(admin, "?status=DELIVERED"); return len(ds) == 1 })
	require.Equal(t, 3, ds[0].Attempts)
	attempts, err := webhookstore.NewWebhookStore(s.DB).Attempts(context.Background(), f.ID, ds[0].ID)
	require.NoError(t, err)
	require.Len(t, attempts, 3)
	require.Equal(t, []int{503, 503, 204}, []int{attempts[0].StatusCode, attempts[1].StatusCode, attempts[2].StatusCode})
	require.Contains(t, attempts[0].Error, "503")
}

// TestWebhookDeadThenRetry: a receiver that always fails gets exactly 5 attempts, the delivery
// is DEAD; the retry endpoint re-sends it (same event id) once the receiver is back; retrying a
// delivery that is not DEAD is 409; dead letters older than 7 days are purged.
func TestWebhookDeadThenRetry(t *testing.T) {
	t.Parallel() // servers with workers get a database of their own (serverOpts.OwnDB)
	s := newTestServer(t, &serverOpts{Workers: true, WebhookBackoff: fastBackoff})
	f, admin := s.tenant()
	var down atomic.Bool
	down.Store(true)
	rc := newReceiver(t, "k", func(int64) int {
		if down.Load() {
			return http.StatusInternalServerError
		}
		return 0
	})
	s.setWebhook(admin, rc.URL, rc.secret)
	s.resolveCase(admin)
	waitFor(t, 30*time.Second, "dead letter", func() bool {
		ds := s.deliveries(admin, "?status=DEAD")
		return len(ds) == 1
	})
	time.Sleep(100 * time.Millisecond)
	require.Len(t, rc.received(), 5)
	d := s.deliveries(admin, "")[0]
	require.Equal(t, 5, d.Attempts)
	require.Equal(t, 500, *d.LastStatusCode)
	require.NotNil(t, d.DeadAt)

	down.Store(false)
	env := s.rest("POST", "/api/v1/webhooks/deliveries/"+d.ID+"/retry", cred{Bearer: admin}, map[string]any{})
	var retried deliveryJSON
	env.decode(t, &retried)
	require.Equal(t, "PENDING", retried.Status)
	waitFor(t, 20*time.Second, "re-sent delivery", func() bool { return len(rc.delivered()) == 1 })
	require.Equal(t, rc.received()[0].Payload.ID, rc.delivered()[0].Payload.ID)
	waitFor(t, 5*time.Second, "DELIVERED", func() bool { return s.deliveries(admin, "")[0].Status == "DELIVERED" })
	requireRESTError(t, s.rest("POST", "/api/v1/webhooks/deliveries/"+d.ID+"/retry", cred{Bearer: admin}, map[string]any{}),
		http.StatusConflict, "INVALID_STATUS_TRANSITION")
	requireRESTError(t, s.rest("POST", "/api/v1/webhooks/deliveries/whd_nope/retry", cred{Bearer: admin}, map[string]any{}),
		http.StatusNotFound, "NOT_FOUND")

	// Purge: a fresh dead letter survives, one dead for more than 7 days goes.
	down.Store(true)
	s.resolveCase(admin)
	waitFor(t, 30*time.Second, "second dead letter", func() bool { return len(s.deliveries(admin, "?status=DEAD")) == 1 })
	store := webhookstore.NewWebhookStore(s.DB)
	n, err := store.PurgeDead(context.Background(), time.Now().Add(-webhook.DeadLetterRetention))
	require.NoError(t, err)
	require.Zero(t, n)
	n, err = store.PurgeDead(context.Background(), time.Now().Add(time.Minute))
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 1)
	require.Empty(t, s.deliveries(admin, "?status=DEAD"))
	_ = f
}

// TestWebhookSSRFRefused: without COMPLYD_WEBHOOK_ALLOW_PRIVATE, a URL that names a loopback
// host is refused at configuration, and one that slipped in (here written straight to the
// database; in real life DNS rebinding) is refused at dial time, after DNS resolution: the
// receiver is never reached and the delivery dies with the address error.
func TestWebhookSSRFRefused(t *testing.T) {
	t.Parallel() // servers with workers get a database of their own (serverOpts.OwnDB)
	s := newTestServer(t, &serverOpts{Workers: true, WebhookBackoff: fastBackoff, Config: func(c *config) { c.WebhookAllowPrivate = false }})
	f, admin := s.tenant()
	rc := newReceiver(t, "", nil)
	requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: admin}, map[string]any{"webhookUrl": rc.URL}),
		http.StatusBadRequest, "VALIDATION_ERROR")

	_, port, _ := splitHostPort(rc.URL)
	// Stored behind the API's back (the API refuses it), to show that the sender's own guard
	// refuses the address at dial time.
	_, err := s.admin().Exec(context.Background(), `insert into webhook_endpoints (tenant_id, url, secret, updated_at)
		values ($1, $2, '', now()) on conflict (tenant_id) do update set url = excluded.url, updated_at = now()`,
		string(f.ID), "http://localhost:"+port+"/hooks")
	require.NoError(t, err)
	s.resolveCase(admin)
	waitFor(t, 30*time.Second, "dead letter", func() bool { return len(s.deliveries(admin, "?status=DEAD")) == 1 })
	require.Empty(t, rc.received())
	d := s.deliveries(admin, "")[0]
	require.Nil(t, d.LastStatusCode)
	require.Contains(t, *d.LastError, "not allowed")
}

func splitHostPort(raw string) (string, string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", err
	}
	return u.Hostname(), u.Port(), nil
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestWebhookSurvivesRestart: the service is stopped in the middle of retries and a new
// instance over the same database finishes them: no event is lost and none is delivered twice.
func TestWebhookSurvivesRestart(t *testing.T) {
	t.Parallel() // servers with workers get a database of their own (serverOpts.OwnDB)
	slow := func(int) time.Duration { return 300 * time.Millisecond }
	s := newTestServer(t, &serverOpts{WebhookBackoff: slow, OwnDB: true})
	_, admin := s.tenant()
	var down atomic.Bool
	down.Store(true)
	rc := newReceiver(t, "k", func(int64) int {
		if down.Load() {
			return http.StatusBadGateway
		}
		return 0
	})
	s.setWebhook(admin, rc.URL, rc.secret)
	const events = 5
	for range events {
		s.resolveCase(admin)
	}

	ctx := context.Background()
	require.NoError(t, s.App.Runner.Start(ctx))
	waitFor(t, 20*time.Second, "first attempts", func() bool { return len(rc.received()) >= events })
	stopCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	require.NoError(t, s.App.Runner.Stop(stopCtx))
	cancel()
	for _, d := range s.deliveries(admin, "") {
		require.Contains(t, []string{"FAILED", "PENDING"}, d.Status)
	}
	down.Store(false)

	// A new process: a fresh app over the same database.
	a2, err := buildApp(ctx, config{JWTSecret: "test-secret-test-secret-test-secret!", WebhookAllowPrivate: true, MailFrom: "x@test.local",
		LookupPrice: "100", BlobDir: t.TempDir()},
		s.DB, discardLogger(), appOptions{Now: s.Clock.Now, WebhookBackoff: slow})
	require.NoError(t, err)
	require.NoError(t, a2.Runner.Start(ctx))
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = a2.Runner.Stop(c)
	})
	waitFor(t, 30*time.Second, "all delivered", func() bool { return len(rc.delivered()) == events })
	time.Sleep(200 * time.Millisecond)
	ids := map[string]int{}
	for _, r := range rc.delivered() {
		ids[r.Payload.ID]++
	}
	require.Len(t, ids, events)
	for id, n := range ids {
		require.Equal(t, 1, n, "event %s delivered once", id)
	}
	for _, d := range s.deliveries(admin, "") {
		require.Equal(t, "DELIVERED", d.Status)
		require.LessOrEqual(t, d.Attempts, webhook.MaxAttempts)
	}
}

// TestInterdictionWebhook: an interdiction from a case is on the timeline and sent to the bank
// as interdiction.requested; the bank confirms it.
func TestInterdictionWebhook(t *testing.T) {
	t.Parallel() // servers with workers get a database of their own (serverOpts.OwnDB)
	s := newTestServer(t, &serverOpts{Workers: true, WebhookBackoff: fastBackoff})
	f, admin := s.tenant()
	_, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	rc := newReceiver(t, "k", nil)
	s.setWebhook(admin, rc.URL, rc.secret)
	var c caseJSON
	s.rest("POST", "/api/v1/cases", cred{Bearer: officerTok}, newCaseBody).decode(t, &c)

	requireRESTError(t, s.rest("POST", "/api/v1/cases/"+c.ID+"/interdictions", cred{Bearer: officerTok},
		map[string]any{"action": "FREEZE", "accountNumber": "12345", "reason": "r"}), http.StatusBadRequest, "VALIDATION_ERROR")
	env := s.rest("POST", "/api/v1/cases/"+c.ID+"/interdictions", cred{Bearer: officerTok},
		map[string]any{"action": "POST_NO_DEBIT", "accountNumber": "0123456789", "reason": "mule account"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	var in struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	env.decode(t, &in)
	require.Equal(t, "REQUESTED", in.Status)

	waitFor(t, 20*time.Second, "interdiction webhook", func() bool { return len(rc.delivered()) == 1 })
	got := rc.delivered()[0]
	require.Equal(t, "interdiction.requested", got.Payload.Event)
	data := got.Payload.Data.(map[string]any)
	require.Equal(t, in.ID, data["interdictionId"])
	require.Equal(t, "0123456789", data["accountNumber"])
	require.Equal(t, "POST_NO_DEBIT", data["action"])

	s.rest("POST", "/api/v1/interdictions/"+in.ID+"/confirm", cred{Bearer: admin}, map[string]any{"reference": "CBS-778"}).decode(t, &in)
	require.Equal(t, "CONFIRMED", in.Status)
	requireRESTError(t, s.rest("POST", "/api/v1/interdictions/"+in.ID+"/confirm", cred{Bearer: admin}, map[string]any{}),
		http.StatusConflict, "CONFLICT")
	var d caseJSON
	s.rest("GET", "/api/v1/cases/"+c.ID, cred{Bearer: admin}, nil).decode(t, &d)
	var types []string
	for _, e := range d.Timeline {
		types = append(types, e.EventType)
	}
	require.Equal(t, []string{"CASE_CREATED", "INTERDICTION_REQUESTED", "INTERDICTION_CONFIRMED"}, types)
}
