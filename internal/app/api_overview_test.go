package app

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
)

// TestDashboardAPIScreenings screens transactions through /api/v1 (so through the screening
// commit and its rollups) and checks that the dashboard's figures are exactly what the
// screenings answered: the count per outcome and risk level, and the triggered rules. Another
// tenant sees none of them; bad periods are 400; every role may read; no credentials is 401.
func TestDashboardAPIScreenings(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	ten, admin := s.tenant()
	_, otherAdmin := s.tenant()
	_, auditor := s.userWithRole(ten.ID, auth.RoleAuditor)

	outcomes, risks, ruleHits := map[string]int64{}, map[string]int64{}, int64(0)
	bodies := []map[string]any{screenBody("ov-1", "0123450001", 1000), screenBody("ov-2", "0123450002", 2_000_000),
		screenBody("ov-3", "0123450003", 9_000_000), screenBody("ov-4", "0123450004", 5000)}
	bodies[3]["narration"] = "payment for arms and ammunition" // a narration keyword of the decision engine
	for _, b := range bodies {
		env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, b)
		var out screenOut
		env.decode(t, &out)
		outcomes[out.Outcome]++
		risks[out.RiskLevel]++
		for _, v := range out.RiskBreakdown {
			ruleHits += int64(len(v.RulesTriggered))
		}
	}
	require.Positive(t, ruleHits)

	now := time.Now().UTC().Truncate(time.Second)
	period := fmt.Sprintf("from=%s&to=%s", now.Add(-2*time.Hour).Format(time.RFC3339), now.Add(2*time.Hour).Format(time.RFC3339))
	type count struct {
		Key   string `json:"key"`
		Count string `json:"count"` // int64: a string in proto3 JSON
	}
	var st struct {
		Total       string  `json:"total"`
		Granularity string  `json:"granularity"`
		ByOutcome   []count `json:"byOutcome"`
		ByRiskLevel []count `json:"byRiskLevel"`
		Buckets     []struct {
			Total string `json:"total"`
		} `json:"buckets"`
	}
	s.rest("GET", "/api/v1/dashboard/screenings?granularity=HOUR&"+period, cred{Bearer: auditor}, nil).decode(t, &st)
	require.Equal(t, "4", st.Total)
	require.Equal(t, "HOUR", st.Granularity)
	wantBuckets := 4 // [from, to) widened to whole hours
	if now.Truncate(time.Second) != now.Truncate(time.Hour) {
		wantBuckets = 5
	}
	require.Len(t, st.Buckets, wantBuckets)
	require.Len(t, st.ByOutcome, 4)
	for _, c := range st.ByOutcome {
		require.Equal(t, fmt.Sprint(outcomes[c.Key]), zeroIfEmpty(c.Count), c.Key)
	}
	for _, c := range st.ByRiskLevel {
		require.Equal(t, fmt.Sprint(risks[c.Key]), zeroIfEmpty(c.Count), c.Key)
	}

	var rules struct {
		Items []struct {
			RuleID string `json:"ruleId"`
			Hits   string `json:"hits"`
		} `json:"items"`
	}
	s.rest("GET", "/api/v1/dashboard/rules?limit=50&"+period, cred{Bearer: admin}, nil).decode(t, &rules)
	var sum int64
	for _, r := range rules.Items {
		var n int64
		_, err := fmt.Sscan(r.Hits, &n)
		require.NoError(t, err)
		sum += n
	}
	require.Equal(t, ruleHits, sum)

	var others struct {
		Total string `json:"total"`
	}
	s.rest("GET", "/api/v1/dashboard/screenings?"+period, cred{Bearer: otherAdmin}, nil).decode(t, &others)
	require.Equal(t, "0", zeroIfEmpty(others.Total), "another tenant counts none of them")

	requireRESTError(t, s.rest("GET", "/api/v1/dashboard/screenings?granularity=WEEK", cred{Bearer: admin}, nil), http.StatusBadRequest, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("GET", "/api/v1/dashboard/screenings?granularity=HOUR&from="+now.Add(-40*24*time.Hour).Format(time.RFC3339),
		cred{Bearer: admin}, nil), http.StatusBadRequest, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("GET", "/api/v1/dashboard/cases", cred{}, nil), http.StatusUnauthorized, "UNAUTHENTICATED")
	for _, p := range []string{"cases", "applications", "sanctions", "webhooks", "wallet"} {
		env := s.rest("GET", "/api/v1/dashboard/"+p, cred{Bearer: auditor}, nil)
		require.Equal(t, http.StatusOK, env.Status, "%s: %s", p, env.Raw)
	}
}

func zeroIfEmpty(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// download GETs path and returns the status, headers and body.
func (s *testServer) download(t *testing.T, path string, c cred) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", s.URL+path, nil)
	require.NoError(t, err)
	c.apply(req.Header)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(b)
}

func parseCSV(t *testing.T, body string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	require.NoError(t, err)
	return rows
}

// TestExportsCSV: the streamed CSV exports of transactions, cases and the audit log, with the
// lists' filters, over more than two keyset pages, tenant-scoped, with formula cells neutralised,
// refused without credentials or with a role that may not read the list.
func TestExportsCSV(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{OwnDB: true}) // cases of fixed ids: a database of its own
	ten, admin := s.tenant()
	other, otherAdmin := s.tenant()
	_, auditor := s.userWithRole(ten.ID, auth.RoleAuditor)
	_, analyst := s.userWithRole(ten.ID, auth.RoleAnalyst)
	ctx := context.Background()
	db := s.admin()
	// 2,345 transactions (g % 5 = 4 are BLOCK: 469 of them), one a minute back from now; row 7
	// carries formula-like names. The other tenant has 10.
	insert := `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, receiver_name, narration, transaction_timestamp, verdict_id, outcome, risk_level,
		aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'exp-' || g, 'TRANSFER', 'MOBILE_APP', 100 + g, 'NGN', 100 + g, '3000000001',
		  case when g = 7 then '=HYPERLINK("http://evil")' else 'Ada Obi' end, case when g = 7 then '@SUM(A1)' else 'Chidi, "Okeke"' end,
		  case when g = 7 then '+cmd' else 'rent' end,
		  now() - g * interval '1 minute', 'vrd_' || g, (array['APPROVE','APPROVE','REVIEW','APPROVE','BLOCK'])[1 + g % 5],
		  'LOW', 0, '{}', '[]', 1, now(), now()
		from generate_series(1, $2::int) g`
	_, err := db.Exec(ctx, insert, string(ten.ID), 2345)
	require.NoError(t, err)
	_, err = db.Exec(ctx, insert, string(other.ID), 10)
	require.NoError(t, err)

	res, body := s.download(t, "/api/v1/transactions/export.csv", cred{Bearer: admin})
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.Equal(t, "text/csv; charset=utf-8", res.Header.Get("Content-Type"))
	require.Contains(t, res.Header.Get("Content-Disposition"), `attachment; filename="transactions-`)
	rows := parseCSV(t, body)
	require.Equal(t, "id", rows[0][0])
	require.Len(t, rows, 1+2345, "every row once, across three pages")
	seen := map[string]bool{}
	for i, r := range rows[1:] {
		require.False(t, seen[r[0]], "row %d repeated", i)
		seen[r[0]] = true
		require.Equal(t, fmt.Sprintf("exp-%d", i+1), r[1], "newest first")
	}
	row7 := rows[7]
	require.Equal(t, `'=HYPERLINK("http://evil")`, row7[9])
	require.Equal(t, `'@SUM(A1)`, row7[11])
	require.Equal(t, `'+cmd`, row7[16])
	require.Equal(t, `Chidi, "Okeke"`, rows[1][11], "commas and quotes survive CSV quoting")

	res, body = s.download(t, "/api/v1/transactions/export.csv?outcome=BLOCK&minAmount=200", cred{Bearer: auditor})
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	rows = parseCSV(t, body)
	require.Len(t, rows, 1+469-20, "BLOCK rows with amount >= 200 (g >= 100): 469 minus the 20 below")
	for _, r := range rows[1:] {
		require.Equal(t, "BLOCK", r[13])
	}

	_, body = s.download(t, "/api/v1/transactions/export.csv", cred{Bearer: otherAdmin})
	require.Len(t, parseCSV(t, body), 1+10, "another tenant exports only its own")

	res, body = s.download(t, "/api/v1/transactions/export.csv", cred{})
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, body)
	require.Contains(t, body, `"UNAUTHENTICATED"`)
	res, body = s.download(t, "/api/v1/transactions/export.csv?from=yesterday", cred{Bearer: admin})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, body)

	// Cases: three, one OPEN CRITICAL.
	_, err = db.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status, created_at, updated_at)
		values ('case_x1', $1, 'CASE-2026-90001', 'AML_ALERT', 'CRITICAL', '-1+1', 'd', 'OPEN', now(), now()),
		       ('case_x2', $1, 'CASE-2026-90002', 'AML_ALERT', 'LOW', 'Second', 'd', 'CLOSED', now(), now()),
		       ('case_x3', $1, 'CASE-2026-90003', 'SANCTIONS_HIT', 'HIGH', 'Third', 'd', 'OPEN', now() - interval '1 hour', now())`, string(ten.ID))
	require.NoError(t, err)
	res, body = s.download(t, "/api/v1/cases/export.csv?status=OPEN", cred{Bearer: analyst})
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	rows = parseCSV(t, body)
	require.Equal(t, [][]string{{"case_x1", "CASE-2026-90001", "AML_ALERT", "CRITICAL", "OPEN", "'-1+1"},
		{"case_x3", "CASE-2026-90003", "SANCTIONS_HIT", "HIGH", "OPEN", "Third"}}, [][]string{rows[1][:6], rows[2][:6]})
	require.Len(t, rows, 3)

	// Audit: the tenant's creation and the two users' creation are in the log; filter by action.
	res, body = s.download(t, "/api/v1/audit-events/export.csv?action=tenant.created", cred{Bearer: auditor})
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	rows = parseCSV(t, body)
	require.Len(t, rows, 2)
	require.Equal(t, "tenant.created", rows[1][4])
	res, body = s.download(t, "/api/v1/audit-events/export.csv?resourceType=no-such-type", cred{Bearer: admin})
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.Len(t, parseCSV(t, body), 1, "the header alone")
	res, body = s.download(t, "/api/v1/audit-events/export.csv", cred{Bearer: analyst})
	require.Equal(t, http.StatusForbidden, res.StatusCode, body)
}
