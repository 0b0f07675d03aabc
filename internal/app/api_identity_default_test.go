package app

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIdentityServeDefaultHasNoProvider: `serve` without identity configuration (the sandbox not
// enabled, no BYOL provider) cannot produce a verified KYC result: verification answers 503
// PROVIDER_UNAVAILABLE saying that no identity provider is configured, nothing is charged, the
// application stays PENDING, and /health says there is no platform provider (issue 19.1).
func TestIdentityServeDefaultHasNoProvider(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.IdentitySandbox, c.ChargeSandbox = false, false }})
	f, admin := s.tenant()
	s.credit(f, "300", "PAY-1")
	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye"})

	for _, kind := range []string{"bvn", "nin"} {
		body := bvnBody(adebayo)
		if kind == "nin" {
			body = ninBody(adebayo)
		}
		env := s.verify(admin, a.ID, kind, body)
		requireRESTError(t, env, 503, "PROVIDER_UNAVAILABLE")
		require.Contains(t, string(env.Raw), "no identity provider is configured")
	}
	got := s.getKYC(admin, a.ID)
	require.Equal(t, "PENDING", got.Status)
	require.Empty(t, got.VerificationResults)
	var w struct{ Balance, Held string }
	s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w)
	require.Equal(t, "300.00", w.Balance)
	require.Equal(t, "0.00", w.Held)

	var h struct{ Checks map[string]string }
	s.rest("GET", "/health", cred{}, nil).decode(t, &h)
	require.Equal(t, "none", h.Checks["identity"])
}

// TestIdentitySandboxOutsideDevIsFree: an operator who enables the sandbox on `serve` (a test
// environment) gets answers named SANDBOX that are never charged (issue 19.1).
func TestIdentitySandboxOutsideDevIsFree(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.IdentitySandbox, c.ChargeSandbox = true, false }})
	f, admin := s.tenant()
	s.credit(f, "300", "PAY-1")
	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye"})
	var v verifyOut
	s.verify(admin, a.ID, "nin", ninBody(adebayo)).decode(t, &v)
	require.True(t, v.IsMatch)
	require.Equal(t, "SANDBOX", v.Provider)
	require.Equal(t, "0.00", v.Charged)
	require.Equal(t, "300.00", v.Balance)
	var w struct{ Balance, Held string }
	s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w)
	require.Equal(t, "300.00", w.Balance)
	require.Equal(t, "0.00", w.Held)
	var h struct{ Checks map[string]string }
	s.rest("GET", "/health", cred{}, nil).decode(t, &h)
	require.Equal(t, "sandbox", h.Checks["identity"])
}

// TestConfigServeSandboxOff: serve's configuration leaves the sandbox off unless the operator
// enables it; dev's enables and charges it.
func TestConfigServeSandboxOff(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://x")
	t.Setenv("COMPLYD_JWT_SECRET", "0123456789abcdef0123456789abcdef")
	c, err := loadConfig(false)
	require.NoError(t, err)
	require.False(t, c.IdentitySandbox)
	require.False(t, c.ChargeSandbox)
	t.Setenv("COMPLYD_IDENTITY_SANDBOX_ENABLED", "true")
	c, err = loadConfig(false)
	require.NoError(t, err)
	require.True(t, c.IdentitySandbox)
	require.False(t, c.ChargeSandbox)
	c, err = loadConfig(true)
	require.NoError(t, err)
	require.True(t, c.IdentitySandbox)
	require.True(t, c.ChargeSandbox)
}

// TestConfigPprofLoopbackOnly: COMPLYD_PPROF_ADDR must be a loopback address (issue 19.7).
func TestConfigPprofLoopbackOnly(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://x")
	t.Setenv("COMPLYD_JWT_SECRET", "0123456789abcdef0123456789abcdef")
	for _, ok := range []string{"127.0.0.1:6060", "localhost:6060", "[::1]:6060"} {
		t.Setenv("COMPLYD_PPROF_ADDR", ok)
		c, err := loadConfig(false)
		require.NoError(t, err, ok)
		require.Equal(t, ok, c.PprofAddr)
	}
	for _, bad := range []string{"0.0.0.0:6060", ":6060", "10.0.0.5:6060", "example.com:6060", "6060"} {
		t.Setenv("COMPLYD_PPROF_ADDR", bad)
		_, err := loadConfig(false)
		require.Error(t, err, bad)
	}
}
