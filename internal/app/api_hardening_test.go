package app

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestUnknownQueryParameter: a query parameter no route knows is a VALIDATION_ERROR naming it,
// not an INTERNAL error (issue 12 finding 7).
func TestUnknownQueryParameter(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.tenant()
	env := s.rest("GET", "/api/v1/cases?colour=blue", cred{Bearer: admin}, nil)
	requireRESTError(t, env, 400, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), `"field":"colour"`)
}

// TestAmountBounds: amounts follow the stored numeric(20,2): plain decimals of at most 18
// integer digits and 2 decimals; 1e308 or 30 digits are refused, never stored (issue 12 finding 7).
func TestAmountBounds(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	for _, amount := range []any{1e308, strings.Repeat("9", 30), "123456789012345678901", "1000000000000000000", 0.001} {
		b := screenBody(ext("amt"), "0123456789", 1)
		b["amount"] = amount
		env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, b)
		requireRESTError(t, env, 400, "VALIDATION_ERROR")
		require.Contains(t, string(env.Raw), `"field":"amount"`, "%v", amount)
	}
	b := screenBody(ext("amt-ok"), "0123456789", 1)
	b["amount"] = "123456789012.34"
	_, env := s.screen(admin, b)
	require.True(t, env.Success, "%s", env.Raw)
}

// TestUncleanPathsGetEnvelope: a /api/v1 path with `//` or `..` is answered with the JSON
// envelope, not net/http's HTML redirect (issue 12 finding 7).
func TestUncleanPathsGetEnvelope(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	for _, p := range []string{"/api/v1//auth/me", "/api/v1/cases/../auth/me", "/api/v1/./auth/me"} {
		c, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
		require.NoError(t, err)
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		_, _ = io.WriteString(c, "GET "+p+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		b, _ := io.ReadAll(c)
		c.Close()
		res := string(b)
		// The status line, not the whole answer: the X-Request-Id header is random hex, and
		// "307" is in about one in two hundred.
		status, _, _ := strings.Cut(res, "\r\n")
		require.Regexp(t, `^HTTP/1\.1 [45]\d\d `, status, p)
		require.NotContains(t, strings.ToLower(res), "\r\nlocation:", p)
		require.Contains(t, res, "application/json", p)
		require.Contains(t, res, `"success":false`, p)
	}
	_ = http.StatusOK
}
