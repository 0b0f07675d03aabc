package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
)

// TestServeEndToEnd runs `complyd serve` on 127.0.0.1:0 against the test database, creates a
// tenant the way `complyd tenant create` does, logs in over HTTP, scrapes /metrics, and shuts
// the server down cleanly.
func TestServeEndToEnd(t *testing.T) {
	t.Parallel()
	db, url := pgtest.Fresh(t)
	cfg := config{DatabaseURL: url, Addr: "127.0.0.1:0", JWTSecret: "e2e-secret-e2e-secret-e2e-secret-e2e", MailFrom: "x@y.z", BlobDir: t.TempDir(), LookupPrice: "100"}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	go func() { done <- serve(ctx, cfg, log, func(a string) { addr <- a }) }()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not start")
	}

	res, err := http.Get(base + "/health")
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode)
	res.Body.Close()

	// The operator's tenant create prints {"tenantId","adminUserId"}.
	svc := operatorAuth(db, log)
	var out bytes.Buffer
	slug := "e2e-" + time.Now().Format("150405.000000")[7:]
	require.NoError(t, createTenant(ctx, svc, &out, auth.CreateTenantParams{Name: "E2E Bank", Slug: slug,
		Admin: auth.NewUser{Email: "ops@" + slug + ".ng", Password: "longenough"}}))
	var created map[string]string
	require.NoError(t, json.Unmarshal(out.Bytes(), &created))
	require.NotEmpty(t, created["tenantId"])
	require.NotEmpty(t, created["adminUserId"])

	res, err = http.Post(base+"/api/v1/auth/login", "application/json",
		bytes.NewBufferString(`{"email":"ops@`+slug+`.ng","password":"longenough"}`))
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode)
	res.Body.Close()

	res, err = http.Get(base + "/metrics")
	require.NoError(t, err)
	body := readAll(t, res)
	require.Contains(t, body, `complyd_rpc_requests_total{code="ok",procedure="/complyd.v1.AuthService/Login",protocol="rest"}`)
	require.Contains(t, body, "complyd_db_pool_connections")

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}
