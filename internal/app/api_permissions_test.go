package app

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// specPermissions pins the spec's permission table (part 5) and docs/design/design-choices.md §4 for the
// foundation's procedures; other capabilities add theirs in their own tests.
var specPermissions = map[string]auth.Roles{
	complydv1connect.AuthServiceMeProcedure:               {auth.RoleBankAdmin, auth.RoleComplianceOfficer, auth.RoleAnalyst, auth.RoleAuditor},
	complydv1connect.UserServiceListUsersProcedure:        {auth.RoleBankAdmin},
	complydv1connect.UserServiceCreateUserProcedure:       {auth.RoleBankAdmin},
	complydv1connect.UserServiceUpdateUserProcedure:       {auth.RoleBankAdmin},
	complydv1connect.UserServiceDeactivateUserProcedure:   {auth.RoleBankAdmin},
	complydv1connect.AuthServiceCreateApiKeyProcedure:     {auth.RoleBankAdmin},
	complydv1connect.AuthServiceListApiKeysProcedure:      {auth.RoleBankAdmin},
	complydv1connect.AuthServiceRevokeApiKeyProcedure:     {auth.RoleBankAdmin},
	complydv1connect.AuditServiceListAuditEventsProcedure: {auth.RoleBankAdmin, auth.RoleAuditor},
	complydv1connect.TenantServiceGetSecurityProcedure:    {auth.RoleBankAdmin},
	complydv1connect.TenantServiceUpdateSecurityProcedure: {auth.RoleBankAdmin},
}

var publicProcedures = []string{
	complydv1connect.AuthServiceLoginProcedure, complydv1connect.AuthServiceRefreshProcedure,
	complydv1connect.AuthServiceSetupMfaProcedure, complydv1connect.AuthServiceVerifyMfaProcedure,
}

// TestPermissionMatrix calls every procedure of the permission table as every role (and as
// nobody) and checks that the authentication middleware allows exactly the declared roles, before
// any decoding. The table itself is pinned to the spec for the foundation's procedures.
func TestPermissionMatrix(t *testing.T) {
	t.Parallel()
	perms := connectapi.Permissions()
	for proc, roles := range specPermissions {
		got, ok := perms[proc]
		require.True(t, ok, "%s missing from the permission table", proc)
		require.ElementsMatch(t, roles, got.Roles, proc)
		require.False(t, got.Public, proc)
	}
	for _, proc := range publicProcedures {
		require.True(t, perms[proc].Public, proc)
	}
	require.True(t, perms[complydv1connect.AuthServiceLogoutProcedure].Optional)

	s := newTestServer(t, nil)
	f, admin := s.tenant()
	tokens := map[auth.Role]string{auth.RoleBankAdmin: admin}
	for _, r := range []auth.Role{auth.RoleComplianceOfficer, auth.RoleAnalyst, auth.RoleAuditor} {
		_, tokens[r] = s.userWithRole(f.ID, r)
	}
	procs := make([]string, 0, len(perms))
	for p := range perms {
		procs = append(procs, p)
	}
	sort.Strings(procs)
	call := func(proc, token string) (int, string) {
		req, _ := http.NewRequest("POST", s.URL+proc, bytes.NewBufferString("{}"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var e struct {
			Code string `json:"code"`
		}
		_ = json.Unmarshal(b, &e)
		return res.StatusCode, e.Code
	}
	for _, proc := range procs {
		a := perms[proc]
		if strings.HasSuffix(proc, "/Logout") {
			continue // Logout revokes the caller's session: checked in TestLogoutRevokesFamily.
		}
		if !a.Public && !a.Optional {
			_, code := call(proc, "")
			require.Equal(t, "unauthenticated", code, "%s without credentials", proc)
		}
		for role, tok := range tokens {
			_, code := call(proc, tok)
			if a.Public {
				// Public procedures answer on their own terms (a bad refresh token is 401).
				require.NotEqual(t, "permission_denied", code, "%s as %s", proc, role)
			} else if a.Roles.Has(role) {
				require.NotContains(t, []string{"permission_denied", "unauthenticated"}, code, "%s as %s must be allowed", proc, role)
			} else {
				require.Equal(t, "permission_denied", code, "%s as %s must be refused", proc, role)
			}
		}
	}
}
