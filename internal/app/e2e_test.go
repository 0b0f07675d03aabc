package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"mime/multipart"
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
	cfg := config{DatabaseURL: url, Addr: "127.0.0.1:0", JWTSecret: "e2e-secret-e2e-secret-e2e-secret-e2e", MailFrom: "x@y.z", BlobDir: t.TempDir(), LookupPrice: "100",
		IdentitySandbox: true}
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
	var login struct{ Data struct{ AccessToken string } }
	require.NoError(t, json.Unmarshal([]byte(readAll(t, res)), &login))

	// serve cannot raise a tier from a label alone (issue 19 point 4): a verified BVN plus an
	// uploaded, unreviewed PASSPORT stays TIER_1.
	call := func(method, path string, body []byte, contentType string) map[string]any {
		req, err := http.NewRequest(method, base+"/api/v1"+path, bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+login.Data.AccessToken)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var env struct {
			Success bool
			Data    map[string]any
		}
		raw := readAll(t, res)
		require.NoError(t, json.Unmarshal([]byte(raw), &env), raw)
		require.True(t, env.Success, raw)
		return env.Data
	}
	out.Reset()
	require.NoError(t, creditWallet(ctx, db, &out, slug, "1000", "E2E-PAY", "", log))
	person := `"firstName":"Adebayo","lastName":"Ogunleye","dateOfBirth":"1985-03-14","bvn":"22234567801"`
	app := call("POST", "/kyc/applications", []byte(`{"entityType":"INDIVIDUAL",`+person+`}`), "application/json")
	id := app["id"].(string)
	v := call("POST", "/kyc/applications/"+id+"/verify-bvn", []byte(`{`+person+`}`), "application/json")
	require.Equal(t, true, v["isMatch"])
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	require.NoError(t, mw.WriteField("documentType", "PASSPORT"))
	fw, err := mw.CreateFormFile("file", "passport.png")
	require.NoError(t, err)
	_, _ = fw.Write(pngBytes)
	require.NoError(t, mw.Close())
	call("POST", "/kyc/applications/"+id+"/documents", form.Bytes(), mw.FormDataContentType())
	require.Equal(t, "TIER_1", call("GET", "/kyc/applications/"+id, nil, "")["tier"])

	res, err = http.Get(base + "/metrics")
	require.NoError(t, err)
	body := readAll(t, res)
	require.Contains(t, body, `complyd_rpc_requests_total{code="ok",procedure="/complyd.v1.AuthService/Login",protocol="rest"}`)
	require.Contains(t, body, "complyd_db_pool_connections")
	// Screening's overload protection, stage by stage: the door, the account's turn, the read
	// queue, the two commit lanes and what was refused (docs/guide/screening.md "Overload").
	for _, m := range []string{"complyd_screening_in_flight 0", "complyd_screening_queue_length 0",
		`complyd_screening_commit_queue_length{stage="commit"} 0`, `complyd_screening_commit_queue_length{stage="case"} 0`,
		"complyd_screening_shed_total 0", "complyd_screening_gate_shed_total 0",
		"complyd_screening_account_wait_length 0", "complyd_screening_account_shed_total 0"} {
		require.Contains(t, body, m+"\n")
	}

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}
