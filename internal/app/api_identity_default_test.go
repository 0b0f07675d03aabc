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

// TestKYCVerifyBindsToApplicant: a BVN whose registry record is another person's does not verify
// this application even when the request carries that person's name and date of birth; the
// result names the mismatching fields, the status stays and the tier does not rise (issue 19.3).
func TestKYCVerifyBindsToApplicant(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.credit(f, "1000", "PAY-1")
	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Chioma", "lastName": "Nwosu",
		"dateOfBirth": "1992-07-01"})
	var v verifyOut
	// Adebayo's number, name and date of birth: the registry matches the request, not the applicant.
	s.verify(admin, a.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
	require.True(t, v.Found)
	require.False(t, v.IsMatch)
	require.Equal(t, "PENDING", v.NewStatus)
	got := s.getKYC(admin, a.ID)
	require.Equal(t, "PENDING", got.Status)
	require.Equal(t, "TIER_1", got.Tier)
	require.False(t, got.BvnVerified)
	require.Len(t, got.VerificationResults, 1)
	require.NotNil(t, got.VerificationResults[0].ErrorMessage)
	require.Equal(t, "MISMATCH: firstName, lastName, dateOfBirth do not match the registry", *got.VerificationResults[0].ErrorMessage)

	// A failed NIN check on top does not raise the tier either.
	s.verify(admin, a.ID, "nin", ninBody(adebayo)).decode(t, &v)
	require.False(t, v.IsMatch)
	require.Equal(t, "TIER_1", s.getKYC(admin, a.ID).Tier)

	// The applicant's own record verifies.
	b := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye"})
	s.verify(admin, b.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
	require.True(t, v.IsMatch)
	require.Equal(t, "BVN_VERIFIED", v.NewStatus)
}
