package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
)

// TestBearerCacheRevocationAcrossReplicas: a bearer token is authenticated from memory (no
// database read per request), yet a logout on one replica refuses the token on another within a
// second (the revocation is announced on LISTEN/NOTIFY), and so does a user's deactivation
// (issue 15 point 3).
func TestBearerCacheRevocationAcrossReplicas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t)
	var out bytes.Buffer
	require.NoError(t, createTenant(ctx, operatorAuth(db, slog.New(slog.DiscardHandler)), &out, auth.CreateTenantParams{
		Name: "Cache Bank", Slug: "cache", Admin: auth.NewUser{Email: "ops@cache.ng", Password: "longenough"}}))
	a, b := "http://"+startServe(t, config{DatabaseURL: url}), "http://"+startServe(t, config{DatabaseURL: url})

	call := func(base, method, path, tok string, body any) (int, []byte) {
		var rd io.Reader
		if body != nil {
			j, _ := json.Marshal(body)
			rd = bytes.NewReader(j)
		}
		req, _ := http.NewRequest(method, base+path, rd)
		req.Header.Set("Content-Type", "application/json")
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		rb, _ := io.ReadAll(res.Body)
		return res.StatusCode, rb
	}
	login := func(email string) string {
		st, body := call(a, "POST", "/api/v1/auth/login", "", map[string]string{"email": email, "password": "longenough"})
		require.Equal(t, 200, st, "%s", body)
		var env struct {
			Data struct {
				AccessToken string `json:"accessToken"`
			} `json:"data"`
		}
		require.NoError(t, json.Unmarshal(body, &env))
		return env.Data.AccessToken
	}
	refusedWithin := func(base, tok string, d time.Duration) {
		deadline := time.Now().Add(d)
		for {
			st, _ := call(base, "GET", "/api/v1/auth/me", tok, nil)
			if st == http.StatusUnauthorized {
				return
			}
			require.True(t, time.Now().Before(deadline), "still accepted after %s", d)
			time.Sleep(20 * time.Millisecond)
		}
	}

	tok := login("ops@cache.ng")
	for range 3 { // cached on b
		st, body := call(b, "GET", "/api/v1/auth/me", tok, nil)
		require.Equal(t, 200, st, "%s", body)
	}
	st, body := call(a, "POST", "/api/v1/auth/logout", tok, map[string]any{})
	require.Less(t, st, 300, "%s", body)
	refusedWithin(b, tok, time.Second)

	// A deactivated user's token stops on the other replica too.
	admin := login("ops@cache.ng")
	st, body = call(a, "POST", "/api/v1/auth/users", admin, map[string]string{"email": "off@cache.ng", "password": "longenough",
		"firstName": "Off", "lastName": "Icer", "role": "COMPLIANCE_OFFICER"})
	require.Equal(t, 201, st, "%s", body)
	var u struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &u))
	officer := login("off@cache.ng")
	st, _ = call(b, "GET", "/api/v1/auth/me", officer, nil)
	require.Equal(t, 200, st)
	st, body = call(a, "PATCH", "/api/v1/auth/users/"+u.Data.ID, admin, map[string]any{"isActive": false})
	require.Equal(t, 200, st, "%s", body)
	refusedWithin(b, officer, time.Second)
}
