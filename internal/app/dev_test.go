package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
)

// TestDevBusyPort: `complyd dev` on a busy COMPLYD_ADDR stops within a second with the cause and
// the variable to set, before it starts PostgreSQL (no cluster directory is created) or
// migrates anything.
func TestDevBusyPort(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	dir := t.TempDir()
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))

	start := time.Now()
	err = runDev(context.Background(), log, devParams{Cfg: config{Addr: busy.Addr().String()}, Dir: dir, Out: &out})
	elapsed := time.Since(start)

	require.Error(t, err)
	require.Less(t, elapsed, time.Second)
	msg := err.Error()
	require.Contains(t, msg, "dev cannot listen on COMPLYD_ADDR "+busy.Addr().String())
	require.Contains(t, msg, "address already in use")
	require.Contains(t, msg, "COMPLYD_ADDR=127.0.0.1:")
	require.Contains(t, msg, "Nothing was started")
	_, statErr := os.Stat(filepath.Join(dir, "pg"))
	require.True(t, os.IsNotExist(statErr), "dev must not start PostgreSQL on a busy port")
	_, statErr = os.Stat(filepath.Join(dir, "env"))
	require.True(t, os.IsNotExist(statErr))
	require.Empty(t, out.String())
}

// TestDevWritesEnv: `complyd dev` writes DATABASE_URL and COMPLYD_URL to .complyd/env while it
// runs (the operator commands read it), prints them, and removes the file when it stops.
func TestDevWritesEnv(t *testing.T) {
	t.Parallel()
	_, url := pgtest.Fresh(t)
	dir := t.TempDir()
	out := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := config{DatabaseURL: url, Addr: "127.0.0.1:0", BlobDir: t.TempDir(), MailFrom: "x@y.z", LookupPrice: "100",
		IdentitySandbox: true, WebhookAllowPrivate: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runDev(ctx, log, devParams{Cfg: cfg, Dir: dir, Out: out, Empty: true, Ready: func(a string) { addr <- a }})
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-done:
		t.Fatalf("dev: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("dev did not start")
	}

	vars, err := readDevEnv(filepath.Join(dir, "env"))
	require.NoError(t, err)
	require.Equal(t, url, vars["DATABASE_URL"])
	require.Equal(t, base, vars["COMPLYD_URL"])
	require.Contains(t, out.String(), "DATABASE_URL="+url)

	res, err := http.Get(base + "/health")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	res, err = http.Post(base+"/api/v1/auth/login", "application/json",
		bytes.NewBufferString(`{"email":"`+demoEmail+`","password":"`+demoPassword+`"}`))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("dev did not stop")
	}
	_, statErr := os.Stat(filepath.Join(dir, "env"))
	require.True(t, os.IsNotExist(statErr), "the env file describes the running dev only")
}

// TestDevEnvRoundTrip: values with shell metacharacters survive writeDevEnv/readDevEnv.
func TestDevEnvRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "env")
	in := [][2]string{{"DATABASE_URL", "postgres://u:p'w@h:5/db?sslmode=disable&x=1"}, {"COMPLYD_URL", "http://127.0.0.1:1"}}
	require.NoError(t, writeDevEnv(path, in))
	got, err := readDevEnv(path)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"DATABASE_URL": in[0][1], "COMPLYD_URL": in[1][1]}, got)
	missing, err := readDevEnv(filepath.Join(t.TempDir(), "none"))
	require.NoError(t, err)
	require.Empty(t, missing)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// startDev runs runDev in the background on 127.0.0.1:0 against a fresh database and returns its
// base URL and a stop function that waits for it to end cleanly.
func startDev(t *testing.T, empty bool) (string, func()) {
	t.Helper()
	_, url := pgtest.Fresh(t)
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := config{DatabaseURL: url, Addr: "127.0.0.1:0", BlobDir: t.TempDir(), MailFrom: "x@y.z", LookupPrice: "100",
		IdentitySandbox: true, ChargeSandbox: true, WebhookAllowPrivate: true, RateLimitAPI: 100, RateLimitScreening: 5000}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runDev(ctx, log, devParams{Cfg: cfg, Dir: t.TempDir(), Out: io.Discard, Empty: empty, Ready: func(a string) { addr <- a }})
	}()
	select {
	case a := <-addr:
		return "http://" + a, func() {
			cancel()
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(30 * time.Second):
				t.Fatal("dev did not stop")
			}
		}
	case err := <-done:
		cancel()
		t.Fatalf("dev: %v", err)
	case <-time.After(120 * time.Second):
		cancel()
		t.Fatal("dev did not start")
	}
	return "", nil
}

func devGet(t *testing.T, base, token, path string, out any) {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
	require.True(t, env.Success, "%s: %s", path, env.Data)
	require.NoError(t, json.Unmarshal(env.Data, out))
}

func devLogin(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Post(base+"/api/v1/auth/login", "application/json",
		bytes.NewBufferString(`{"email":"`+demoEmail+`","password":"`+demoPassword+`"}`))
	require.NoError(t, err)
	defer res.Body.Close()
	var env struct {
		Data struct {
			AccessToken string `json:"accessToken"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
	require.NotEmpty(t, env.Data.AccessToken)
	return env.Data.AccessToken
}

// TestDevSeedsDemoData: a new `complyd dev` shows KYC-verified customers, an approved KYB company,
// transactions over several days whose verdicts trigger every mandatory rule AML-001..AML-009,
// and open cases; `dev --empty` has the demo tenant and admin only.
func TestDevSeedsDemoData(t *testing.T) {
	t.Parallel()
	base, stop := startDev(t, false)
	defer stop()
	token := devLogin(t, base)

	type page struct {
		Items []map[string]any `json:"items"`
		Total int              `json:"total"`
	}
	var kyc page
	devGet(t, base, token, "/api/v1/kyc/applications?status=APPROVED&limit=100", &kyc)
	require.GreaterOrEqual(t, kyc.Total, 3)
	var kyb page
	devGet(t, base, token, "/api/v1/kyc/kyb/applications?status=APPROVED", &kyb)
	require.Equal(t, 1, kyb.Total)

	var txs page
	devGet(t, base, token, "/api/v1/transactions?limit=100", &txs)
	require.GreaterOrEqual(t, txs.Total, 15)
	rules := map[string]bool{}
	days := map[string]bool{}
	for _, it := range txs.Items {
		days[it["transactionTimestamp"].(string)[:10]] = true
		var detail struct {
			Verdict struct {
				EngineVerdicts []struct {
					RulesTriggered []string `json:"rulesTriggered"`
				} `json:"engineVerdicts"`
			} `json:"verdict"`
		}
		devGet(t, base, token, "/api/v1/transactions/"+it["id"].(string), &detail)
		for _, ev := range detail.Verdict.EngineVerdicts {
			for _, r := range ev.RulesTriggered {
				if len(r) >= 7 {
					rules[r[:7]] = true
				}
			}
		}
	}
	for i := 1; i <= 9; i++ {
		require.True(t, rules[fmt.Sprintf("AML-%03d", i)], "no seeded transaction triggers AML-%03d (triggered: %v)", i, rules)
	}
	require.GreaterOrEqual(t, len(days), 4, "transactions of a few days")

	var cases page
	devGet(t, base, token, "/api/v1/cases?status=OPEN&limit=100", &cases)
	require.GreaterOrEqual(t, cases.Total, 5)
	types := map[string]bool{}
	for _, c := range cases.Items {
		types[c["type"].(string)] = true
	}
	require.True(t, types["SANCTIONS_HIT"], "%v", types)
	require.True(t, types["SUSPICIOUS_TRANSACTION"], "%v", types)

	// Issue 48: the approved applicants and the company are customers, and the demo tenant
	// requires the evidence before an approval (its seeded approvals show as overrides).
	var customers page
	devGet(t, base, token, "/api/v1/customers?limit=100", &customers)
	require.GreaterOrEqual(t, customers.Total, kyc.Total+kyb.Total)
	var cfg struct {
		ApprovalEvidenceRequired bool `json:"approvalEvidenceRequired"`
	}
	devGet(t, base, token, "/api/v1/tenants/me/kyc-config", &cfg)
	require.True(t, cfg.ApprovalEvidenceRequired)
	// Four eyes on every case resolution (point 1), and each approved application is linked to
	// its customer and shows the override of its seeded approval with the reason given.
	var caseSet struct {
		FourEyesResolution bool `json:"fourEyesResolution"`
	}
	devGet(t, base, token, "/api/v1/tenants/me/case-settings", &caseSet)
	require.True(t, caseSet.FourEyesResolution)
	listed := map[string]bool{}
	for _, c := range customers.Items {
		listed[c["id"].(string)] = true
	}
	for path, items := range map[string][]map[string]any{"/api/v1/kyc/applications/": kyc.Items, "/api/v1/kyc/kyb/applications/": kyb.Items} {
		for _, it := range items {
			var a struct {
				CustomerID *string `json:"customerId"`
				OpenChecks []any   `json:"openChecks"`
				Overrides  []struct {
					Notes string `json:"notes"`
				} `json:"overrides"`
			}
			devGet(t, base, token, path+it["id"].(string), &a)
			require.NotNil(t, a.CustomerID, "%s%s", path, it["id"])
			require.True(t, listed[*a.CustomerID], "%s's customer is listed by GET /customers", it["id"])
			if len(a.OpenChecks) > 0 {
				require.Len(t, a.Overrides, 1, "%s%s", path, it["id"])
				require.Equal(t, demoOverrideNotes, a.Overrides[0].Notes)
			}
		}
	}
}

// TestDevEmpty: `dev --empty` creates the demo tenant and admin and nothing else.
func TestDevEmpty(t *testing.T) {
	t.Parallel()
	base, stop := startDev(t, true)
	defer stop()
	token := devLogin(t, base)
	var txs struct {
		Total int `json:"total"`
	}
	devGet(t, base, token, "/api/v1/transactions", &txs)
	require.Zero(t, txs.Total)
	var kyc struct {
		Total int `json:"total"`
	}
	devGet(t, base, token, "/api/v1/kyc/applications", &kyc)
	require.Zero(t, kyc.Total)
}
