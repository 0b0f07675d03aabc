package app

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/reports"
)

// TestReportsFIUSchemaConfigured: the deployment's FIU schema (COMPLYD_GOAML_SCHEMA, a file)
// replaces the public 5.0.1 one, and a tenant that names another of the deployment's schemas
// (COMPLYD_GOAML_SCHEMAS, schemaName) is validated against that one. The FIU's file here
// allows a branch of 5 characters, so "Head office" is refused by element path on approval
// over /api/v1 and Connect, and on filing over Connect; under the public schema it passes.
func TestReportsFIUSchemaConfigured(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	at := bytes.Index(reports.PublicSchema, []byte(`name="rentity_branch"`))
	require.Positive(t, at)
	limit := bytes.Index(reports.PublicSchema[at:], []byte(`maxLength value="255"`))
	require.Positive(t, limit)
	fiu := slices.Concat(reports.PublicSchema[:at+limit], []byte(`maxLength value="5"`), reports.PublicSchema[at+limit+len(`maxLength value="255"`):])
	fiuPath, publicPath := filepath.Join(dir, "fiu.xsd"), filepath.Join(dir, "public.xsd")
	require.NoError(t, os.WriteFile(fiuPath, fiu, 0o600))
	require.NoError(t, os.WriteFile(publicPath, reports.PublicSchema, 0o600))
	s := newTestServer(t, &serverOpts{Config: func(c *config) {
		c.GoamlSchema, c.GoamlSchemas = fiuPath, "public-5.0.1="+publicPath
	}})
	f, admin := s.kycTenant()
	s.reportSettings(admin, nil)
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	draft := func() string {
		t.Helper()
		account := newAccount()
		_, env := s.screen(admin, cashBody(account, 5_000_000))
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		id := s.reports(admin, "?type=CTR&customerAccount="+account).Items[0].ID
		_, env = s.report(officer, "POST", "/api/v1/reports/"+id+"/submit", map[string]any{})
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		return id
	}
	hc, opts := s.clientOpts("connect", cred{Bearer: admin})
	c := complydv1connect.NewReportServiceClient(hc, s.URL, opts...)
	ctx := context.Background()
	requireBranch := func(err error) {
		t.Helper()
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeInvalidArgument, code)
		require.Equal(t, "VALIDATION_ERROR", info.Code)
		var fields []string
		for _, d := range info.Details {
			fields = append(fields, d.Field+": "+d.Message)
		}
		require.Contains(t, strings.Join(fields, "\n"), "report/rentity_branch: ", "%v", fields)
	}

	// The deployment's schema: the branch is too long for the FIU, named on approval.
	id := draft()
	_, env := s.report(admin, "POST", "/api/v1/reports/"+id+"/approve", map[string]any{})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), `"field":"report/rentity_branch"`)
	_, err := c.ApproveReport(ctx, connect.NewRequest(&complydv1.ApproveReportRequest{Id: id}))
	requireBranch(err)
	var v struct {
		Valid    bool
		Problems []struct{ Field, Message string }
	}
	env = s.rest("GET", "/api/v1/reports/"+id+"/validation", cred{Bearer: officer}, nil)
	env.decode(t, &v)
	require.False(t, v.Valid)
	require.Equal(t, "report/rentity_branch", v.Problems[0].Field, "%s", env.Raw)

	// The tenant picks the public schema by name: the same report is approved.
	s.reportSettings(admin, map[string]any{"schemaName": "public-5.0.1"})
	_, env = s.report(admin, "POST", "/api/v1/reports/"+id+"/approve", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	// Back on the deployment's schema, the approved report is not filed, over Connect either.
	s.reportSettings(admin, map[string]any{"schemaName": ""})
	_, err = c.FileReport(ctx, connect.NewRequest(&complydv1.FileReportRequest{Id: id, Reference: ptr("NFIU-2026-9")}))
	requireBranch(err)
	_, env = s.report(admin, "POST", "/api/v1/reports/"+id+"/file", map[string]any{"reference": "NFIU-2026-9"})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), `"field":"report/rentity_branch"`)

	// A schema the deployment does not configure is named, not silently replaced.
	s.reportSettings(admin, map[string]any{"schemaName": "nfiu-9.9"})
	_, env = s.report(admin, "POST", "/api/v1/reports/"+id+"/file", map[string]any{"reference": "NFIU-2026-9"})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), "nfiu-9.9")
}

// TestGoamlSchemasRead: the deployment's schema files are read as configured, and a bad
// configuration stops the start with the variable named.
func TestGoamlSchemasRead(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "fiu.xsd")
	require.NoError(t, os.WriteFile(p, []byte("<xs:schema/>"), 0o600))
	got, err := goamlSchemas(p, " a="+p+", ")
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, "", got[0].Name)
	require.Equal(t, "<xs:schema/>", string(got[0].XSD))
	require.Equal(t, "a", got[1].Name)
	got, err = goamlSchemas("", "")
	require.NoError(t, err)
	require.Equal(t, reports.PublicSchema, got[0].XSD)
	_, err = goamlSchemas(p+".missing", "")
	require.ErrorContains(t, err, "COMPLYD_GOAML_SCHEMA")
	_, err = goamlSchemas("", "nameonly")
	require.ErrorContains(t, err, "COMPLYD_GOAML_SCHEMAS")
}
