package app

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

var goldenScrub = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`), "<jwt>"},
	{regexp.MustCompile(`\b(rt|ck|mfa)_[0-9a-f]{32}_[A-Za-z0-9_-]+`), "<$1-secret>"},
	{regexp.MustCompile(`"prefix":\s*"ck_[^"]*"`), `"prefix":"<prefix>"`},
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "<uuid>"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`), "<timestamp>"},
	{regexp.MustCompile(`req_[0-9a-f]{24}`), "<request-id>"},
	{regexp.MustCompile(`t-[0-9a-f]{12}`), "<slug>"},
	{regexp.MustCompile(`(admin|analyst|auditor|compliance_officer|bank_admin|golden)-[0-9a-f]{10}@`), "$1-<n>@"},
}

// golden compares an /api/v1 answer, scrubbed of ids, secrets and times and pretty-printed,
// with testdata/golden/<name>.json; `go test -run Golden -update` rewrites the files.
func golden(t *testing.T, name string, raw []byte) {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	pretty, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	for _, s := range goldenScrub {
		pretty = s.re.ReplaceAll(pretty, []byte(s.with))
	}
	pretty = append(pretty, '\n')
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		require.NoError(t, os.WriteFile(path, pretty, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./internal/app -run Golden -update")
	require.Equal(t, string(bytes.TrimSpace(want)), string(bytes.TrimSpace(pretty)), "golden %s", name)
}

// TestGoldenFoundation pins the /api/v1 envelopes and shapes of the foundation's routes.
func TestGoldenFoundation(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true}) // a user of a fixed email: a database of its own
	f, _ := s.tenant()
	login := s.rest("POST", "/api/v1/auth/login", cred{}, map[string]any{"email": f.AdminEmail, "password": "correct-horse-battery"})
	golden(t, "auth_login", login.Raw)
	var tok struct {
		AccessToken string `json:"accessToken"`
	}
	login.decode(t, &tok)
	c := cred{Bearer: tok.AccessToken}
	golden(t, "auth_me", s.rest("GET", "/api/v1/auth/me", c, nil).Raw)
	golden(t, "users_create", s.rest("POST", "/api/v1/auth/users", c, map[string]any{"email": "golden-0123456789@bank.ng",
		"password": "longenough", "firstName": "Chidi", "lastName": "Eze", "role": "AUDITOR"}).Raw)
	golden(t, "users_list", s.rest("GET", "/api/v1/auth/users?limit=1", c, nil).Raw)
	golden(t, "error_validation", s.rest("POST", "/api/v1/auth/users", c, map[string]any{"email": "x"}).Raw)
	golden(t, "error_conflict", s.rest("POST", "/api/v1/auth/users", c, map[string]any{"email": "golden-0123456789@bank.ng",
		"password": "longenough", "firstName": "Chidi", "lastName": "Eze", "role": "AUDITOR"}).Raw)
	golden(t, "error_unauthenticated", s.rest("GET", "/api/v1/auth/me", cred{}, nil).Raw)
	golden(t, "error_not_found", s.rest("GET", "/api/v1/nothing-here", c, nil).Raw)
	golden(t, "api_keys_create", s.rest("POST", "/api/v1/auth/api-keys", c, map[string]any{"name": "core"}).Raw)
	golden(t, "api_keys_list", s.rest("GET", "/api/v1/auth/api-keys", c, nil).Raw)
	golden(t, "audit_events", s.rest("GET", "/api/v1/audit-events?limit=2&action=user.created", c, nil).Raw)
	golden(t, "health", s.rest("GET", "/api/v1/health", cred{}, nil).Raw)
}
