package app

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
)

// TestDashboardServedWithSPAFallback: the embedded dashboard answers / and any client-side route
// with index.html, while unknown API paths stay 404 (not HTML).
func TestDashboardServedWithSPAFallback(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	// "/api" is the dashboard's API reference screen, reloaded or bookmarked: it was redirected
	// to "/api/" (the REST facade's subtree) and answered a JSON 404.
	for _, p := range []string{"/", "/cases/case_123", "/transactions?outcome=FLAG", "/api"} {
		res, err := http.Get(s.URL + p)
		require.NoError(t, err)
		body := readAll(t, res)
		require.Equal(t, 200, res.StatusCode, p)
		require.Contains(t, res.Header.Get("Content-Type"), "text/html", p)
		require.Contains(t, body, "<title>complyd", p)
	}
	for _, p := range []string{"/api/v1/nope", "/complyd.v1.NoService/Get", "/assets/missing.js"} {
		res, err := http.Get(s.URL + p)
		require.NoError(t, err)
		readAll(t, res)
		require.Equal(t, 404, res.StatusCode, p)
	}
}

// TestCORSAllowList: COMPLYD_CORS_ORIGINS lets a listed origin call Connect with credentials
// (preflight and actual call); any other origin gets no CORS headers, a refused preflight, and a
// refused cookie-carrying call (CSRF).
func TestCORSAllowList(t *testing.T) {
	t.Parallel()
	const allowed, other = "http://dash.example:5173", "http://evil.example"
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.CORSOrigins = parseOrigins(" " + allowed + "/ , *") }})
	f, _ := s.tenant()

	preflight := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, s.URL+"/complyd.v1.AuthService/Login", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type,connect-protocol-version")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		readAll(t, res)
		return res
	}
	res := preflight(allowed)
	require.Equal(t, http.StatusNoContent, res.StatusCode)
	require.Equal(t, allowed, res.Header.Get("Access-Control-Allow-Origin"))
	require.Equal(t, "true", res.Header.Get("Access-Control-Allow-Credentials"))
	require.Contains(t, res.Header.Get("Access-Control-Allow-Headers"), "Connect-Protocol-Version")
	require.Contains(t, res.Header.Get("Access-Control-Allow-Headers"), "X-Grpc-Web")
	res = preflight(other)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))

	jar := newJar()
	c := &http.Client{Jar: jar}
	login := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/complyd.v1.AuthService/Login",
			strings.NewReader(`{"email":"`+f.AdminEmail+`","password":"`+pgtest.Password+`","useCookies":true}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		req.Header.Set("Origin", origin)
		res, err := c.Do(req)
		require.NoError(t, err)
		return res
	}
	res = login(allowed)
	require.Equal(t, 200, res.StatusCode, readAll(t, res))
	require.Equal(t, allowed, res.Header.Get("Access-Control-Allow-Origin"))
	require.Contains(t, res.Header.Get("Access-Control-Expose-Headers"), "Grpc-Status")

	me := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/complyd.v1.AuthService/Me", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := c.Do(req)
		require.NoError(t, err)
		readAll(t, res)
		return res
	}
	require.Equal(t, 200, me(allowed).StatusCode)
	require.Equal(t, 200, me(s.URL).StatusCode, "same origin (the embedded dashboard)")
	require.Equal(t, 200, me("").StatusCode, "no Origin (not a browser)")
	res = me(other)
	require.Equal(t, http.StatusForbidden, res.StatusCode, "a cookie-carrying call from another origin is refused (CSRF)")
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
}

// TestTransactionListAccountAndAmountFilters: the dashboard's transaction search filters by
// account (sender or receiver) and by an amount range on the server.
func TestTransactionListAccountAndAmountFilters(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	for i, amt := range []float64{1000, 5000, 20000} {
		b := screenBody(fmt.Sprintf("dash-%d", i), "0123400000", amt)
		if i == 2 {
			b["senderAccountNumber"], b["receiverAccountNumber"] = "0999900000", "0123400000"
		}
		_, env := s.screen(admin, b)
		require.Equal(t, http.StatusOK, env.Status, string(env.Raw))
	}
	total := func(q string) int {
		env := s.rest("GET", "/api/v1/transactions?"+q, cred{Bearer: admin}, nil)
		require.Equal(t, http.StatusOK, env.Status, string(env.Raw))
		var page struct{ Total int }
		env.decode(t, &page)
		return page.Total
	}
	require.Equal(t, 3, total("account=0123400000"), "sender or receiver")
	require.Equal(t, 1, total("account=0999900000"))
	require.Equal(t, 2, total("minAmount=5000"))
	require.Equal(t, 2, total("maxAmount=5000.00"))
	require.Equal(t, 1, total("minAmount=2000&maxAmount=6000&account=0123400000"))
	env := s.rest("GET", "/api/v1/transactions?minAmount=lots", cred{Bearer: admin}, nil)
	require.Equal(t, http.StatusBadRequest, env.Status, string(env.Raw))
}

// TestCaseQueueMineOrUnassignedAndSort: the dashboard's queue lists "assigned to me and
// unassigned" and sorts on the server (priority, then oldest; or by age).
func TestCaseQueueMineOrUnassignedAndSort(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	ids := map[string]string{}
	for _, p := range []string{"LOW", "CRITICAL", "MEDIUM", "HIGH"} {
		var c struct{ ID string }
		env := s.rest("POST", "/api/v1/cases", cred{Bearer: admin}, map[string]any{"type": "AML_ALERT", "priority": p, "title": p, "description": "d"})
		require.Equal(t, http.StatusCreated, env.Status, string(env.Raw))
		env.decode(t, &c)
		ids[p] = c.ID
	}
	env := s.rest("PATCH", "/api/v1/cases/"+ids["MEDIUM"]+"/assign", cred{Bearer: admin}, map[string]any{"assigneeId": f.AdminID})
	require.Equal(t, http.StatusOK, env.Status, string(env.Raw))
	titles := func(q string) []string {
		env := s.rest("GET", "/api/v1/cases?"+q, cred{Bearer: admin}, nil)
		require.Equal(t, http.StatusOK, env.Status, string(env.Raw))
		var page struct{ Items []struct{ Title string } }
		env.decode(t, &page)
		out := []string{}
		for _, c := range page.Items {
			out = append(out, c.Title)
		}
		return out
	}
	require.Equal(t, []string{"CRITICAL", "HIGH", "MEDIUM", "LOW"}, titles("sort=PRIORITY"))
	require.Equal(t, []string{"LOW", "CRITICAL", "MEDIUM", "HIGH"}, titles("sort=OLDEST"))
	require.Equal(t, []string{"HIGH", "MEDIUM", "CRITICAL", "LOW"}, titles(""), "newest first by default")
	require.Equal(t, []string{"CRITICAL", "HIGH", "LOW"}, titles("includeUnassigned=true&sort=PRIORITY"))
	require.Equal(t, []string{"CRITICAL", "HIGH", "MEDIUM", "LOW"}, titles("includeUnassigned=true&sort=PRIORITY&assigneeId="+f.AdminID))
	require.Equal(t, []string{"MEDIUM"}, titles("assigneeId="+f.AdminID))
}
