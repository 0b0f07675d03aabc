package app

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
)

// TestLoginThrottleSharedAcrossReplicas: two `complyd serve` processes on one database spend one
// email's login attempts from the same bucket (10 a minute, not 10 each), and a third started
// afterwards (a restart) still refuses: the throttle lives in PostgreSQL (issue 12 finding 7).
func TestLoginThrottleSharedAcrossReplicas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t)
	var out bytes.Buffer
	require.NoError(t, createTenant(ctx, operatorAuth(db, slog.New(slog.DiscardHandler)), &out, auth.CreateTenantParams{
		Name: "Throttle Bank", Slug: "throttle", Admin: auth.NewUser{Email: "ops@throttle.ng", Password: "longenough"}}))
	replicas := []string{startServe(t, config{DatabaseURL: url}), startServe(t, config{DatabaseURL: url})}
	login := func(addr string) int {
		res, err := http.Post("http://"+addr+"/api/v1/auth/login", "application/json",
			bytes.NewBufferString(`{"email":"ops@throttle.ng","password":"wrong-password"}`))
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	refused := 0
	for i := range 20 {
		switch st := login(replicas[i%2]); st {
		case http.StatusUnauthorized:
		case http.StatusTooManyRequests:
			refused++
		default:
			t.Fatalf("unexpected status %d", st)
		}
	}
	// 10 allowed a minute across both (one more if a token refilled during the loop).
	require.GreaterOrEqual(t, refused, 9)
	require.LessOrEqual(t, refused, 10)

	restarted := startServe(t, config{DatabaseURL: url})
	require.Equal(t, http.StatusTooManyRequests, login(restarted), "a restart does not reset the throttle")
}

// TestLoginThrottleBuckets: the shared throttle refills evenly and names the wait.
func TestLoginThrottleBuckets(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.Fresh(t)
	clock := &testClock{}
	a, b := postgres.NewLoginThrottle(db, clock.Now), postgres.NewLoginThrottle(db, clock.Now)
	ctx := context.Background()
	for i := range auth.LoginAttemptsPerEmail {
		th := a
		if i%2 == 1 {
			th = b
		}
		ok, _, err := th.Allow(ctx, "x@y.ng", "")
		require.NoError(t, err)
		require.True(t, ok, "attempt %d", i+1)
	}
	ok, wait, err := b.Allow(ctx, "X@y.ng", "")
	require.NoError(t, err)
	require.False(t, ok)
	// One token comes back every 6 s (10 a minute); the test clock also runs in real time.
	require.Greater(t, wait, time.Duration(0))
	require.LessOrEqual(t, wait, 6*time.Second)
	clock.Advance(wait)
	ok, _, err = a.Allow(ctx, "x@y.ng", "")
	require.NoError(t, err)
	require.True(t, ok)
	// The IP bucket is separate and larger.
	ok, _, err = a.Allow(ctx, "other@y.ng", "10.0.0.1")
	require.NoError(t, err)
	require.True(t, ok)
}
