package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgcluster"
	"github.com/complyd/complyd/internal/postgres"
)

// TestDatabaseOutageIs503: with PostgreSQL down, login and screening answer 503
// SERVICE_UNAVAILABLE with Retry-After (never 500 INTERNAL), and once it is back they succeed
// within seconds (issue 12 finding 4). The test runs a cluster of its own that it stops and
// restarts; the shared server is never touched.
func TestDatabaseOutageIs503(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "complyd-outage-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cl, err := pgcluster.Start(ctx, dir+"/pg")
	if err != nil {
		t.Skipf("no PostgreSQL binaries for a private cluster: %v", err)
	}
	t.Cleanup(func() { _ = cl.Stop() })

	addr := startServe(t, config{DatabaseURL: cl.URL()})
	base := "http://" + addr
	db, err := postgres.Open(ctx, cl.URL(), postgres.Options{MaxConns: 2, Logger: slog.New(slog.DiscardHandler), CredentialsKey: make([]byte, 32)})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, createTenant(ctx, operatorAuth(db, slog.New(slog.DiscardHandler)), &out, auth.CreateTenantParams{
		Name: "Outage Bank", Slug: "outage", Admin: auth.NewUser{Email: "ops@outage.ng", Password: "longenough"}}))
	db.Close()

	login := func() (*http.Response, string) {
		res, err := http.Post(base+"/api/v1/auth/login", "application/json",
			bytes.NewBufferString(`{"email":"ops@outage.ng","password":"longenough"}`))
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}
	res, body := login()
	require.Equal(t, 200, res.StatusCode, body)
	var tok struct {
		Data struct {
			AccessToken string `json:"accessToken"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &tok))

	screen := func(ext string) (*http.Response, string) {
		b, _ := json.Marshal(screenBody(ext, "0123456789", 5_000))
		req, _ := http.NewRequest("POST", base+"/api/v1/transactions/screen", bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+tok.Data.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		rb, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(rb)
	}

	require.NoError(t, cl.Stop())
	start := time.Now()
	res, body = login()
	require.Equal(t, 503, res.StatusCode, body)
	require.Contains(t, body, `"code":"SERVICE_UNAVAILABLE"`)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	res, body = screen("outage-1")
	require.Equal(t, 503, res.StatusCode, body)
	require.Contains(t, body, `"code":"SERVICE_UNAVAILABLE"`)
	require.Less(t, time.Since(start), 10*time.Second, "the outage is answered at once")

	require.NoError(t, cl.Restart(ctx))
	back := time.Now()
	for {
		res, body = screen("outage-2-" + time.Now().Format("150405.000000"))
		if res.StatusCode == 200 {
			break
		}
		require.Less(t, time.Since(back), 5*time.Second, "screening did not recover: %d %s", res.StatusCode, body)
		time.Sleep(100 * time.Millisecond)
	}
	res, body = login()
	require.Equal(t, 200, res.StatusCode, body)
}
