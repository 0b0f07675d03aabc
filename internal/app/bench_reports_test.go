package app

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/tenancy"
)

// seedApprovedCTRs stores n cash deposits of 5,000,000 NGN on day, each with its approved CTR,
// straight into the tables (the drafting and approval paths are tested elsewhere).
func (s *testServer) seedApprovedCTRs(tb testing.TB, tenantID tenancy.TenantID, day time.Time, n int) {
	tb.Helper()
	ctx := context.Background()
	ts := reports.EndOfDay(day).Add(-12 * time.Hour)
	_, err := s.admin().Exec(ctx, `with tx as (
		insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn, sender_account_number,
			sender_name, sender_bvn, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
			engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'ctr-bench-' || i, 'CASH_DEPOSIT', 'BRANCH', 5000000, 'NGN', 5000000,
			'7' || lpad(i::text, 9, '0'), 'Customer ' || i || ' Obi', '222' || lpad(i::text, 8, '0'), $2::timestamptz + i * interval '1 second',
			'vrd_bench', 'REVIEW', 'MEDIUM', 50, '{GENERATE_CTR}',
			'[{"category":"Regulatory Compliance","rules":[{"id":"AML-001","name":"AML-001 Cash Threshold"}]}]', 1, $2, $2
		from generate_series(1, $4::int) i
		returning id, sender_account_number, sender_name
	), rep as (
		insert into reports (id, tenant_id, type, status, origin, customer_account, customer_name, report_day, rules, reason,
			deadline_at, approved_at, created_at, updated_at)
		select 'rpt_' || replace(gen_random_uuid()::text, '-', ''), $1, 'CTR', 'APPROVED', 'SCREENING', tx.sender_account_number, tx.sender_name,
			$3::date, '{AML-001}', 'Cash deposit at or above 5,000,000 NGN', $2::timestamptz + interval '7 days', $2, $2, $2
		from tx returning id, customer_account
	)
	insert into report_transactions (tenant_id, report_id, transaction_id, added_at)
	select $1, rep.id, tx.id, $2 from rep join tx on tx.sender_account_number = rep.customer_account`,
		string(tenantID), ts, day, n)
	require.NoError(tb, err)
}

// exportDay downloads a day's export and returns its bytes and the time it took.
func (s *testServer) exportDay(tb testing.TB, token, typ string, day time.Time) ([]byte, time.Duration) {
	tb.Helper()
	req, err := http.NewRequest("GET", s.URL+"/api/v1/reports/export?type="+typ+"&day="+day.Format("2006-01-02"), nil)
	require.NoError(tb, err)
	req.Header.Set("Authorization", "Bearer "+token)
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	require.NoError(tb, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	took := time.Since(start)
	require.NoError(tb, err)
	require.Equal(tb, http.StatusOK, res.StatusCode, "%s", b)
	require.Equal(tb, "application/zip", res.Header.Get("Content-Type"))
	return b, took
}

// TestReportsExportThousandCTRsOfADay: a thousand approved CTRs of one day export as a streamed
// ZIP of goAML documents, each passing the checks, in under 5 seconds (issue 14).
func TestReportsExportThousandCTRsOfADay(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.reportSettings(admin, nil)
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	s.seedApprovedCTRs(t, f.ID, day, 1000)

	b, took := s.exportDay(t, admin, "CTR", day)
	t.Logf("1,000 CTRs: %d bytes in %v", len(b), took)
	if !raceEnabled {
		require.Less(t, took, 5*time.Second)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.Len(t, zr.File, 1000, "one document per report, no problems.txt")
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		doc, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.Empty(t, reports.CheckCodes(doc, reports.DefaultCodes), f.Name)
		require.Contains(t, string(doc), "<indicator>CTR-CASH</indicator>")
	}

	// Another day, or another type, exports an empty archive; a bad day is 400.
	b, _ = s.exportDay(t, admin, "CTR", day.AddDate(0, 0, 1))
	zr, err = zip.NewReader(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.Empty(t, zr.File)
	env := s.rest("GET", "/api/v1/reports/export?type=CTR&day=yesterday", cred{Bearer: admin}, nil)
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	env = s.rest("GET", "/api/v1/reports/export?type=CTR&day=2026-11-20", cred{}, nil)
	requireRESTError(t, env, http.StatusUnauthorized, "UNAUTHENTICATED")
}

// BenchmarkReportExportDay times the export of a day of 1,000 approved CTRs over HTTP
// (docs/guide/reports.md "Performance"):
//
//	go test ./internal/app -run '^$' -bench BenchmarkReportExportDay -benchtime 5x
func BenchmarkReportExportDay(b *testing.B) {
	s := newTestServer(b, &serverOpts{OwnDB: true})
	f, admin := s.tenant()
	s.reportSettings(admin, nil)
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	s.seedApprovedCTRs(b, f.ID, day, 1000)
	b.ResetTimer()
	var size int
	for b.Loop() {
		out, _ := s.exportDay(b, admin, "CTR", day)
		size = len(out)
	}
	b.ReportMetric(float64(size), "bytes/export")
}
