package app

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkDashboardLists: the list calls the dashboard's screens make (the queue, the
// transactions search with its filters, a case page) against a tenant holding 100,000
// transactions and 10,000 cases, over /api/v1 (the same handlers the dashboard reaches over
// Connect). Reports p50 and p99 per call in milliseconds (issue 13: every screen stays fast at
// that size because every list is paged on the server).
//
//	go test ./internal/app -run '^$' -bench BenchmarkDashboardLists -benchtime 200x
func BenchmarkDashboardLists(b *testing.B) {
	s := newTestServer(b, &serverOpts{OwnDB: true})
	ten, admin := s.kycTenant()
	ctx := context.Background()
	db := s.admin()
	_, err := db.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, receiver_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level,
		aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'dash-' || g, 'TRANSFER', 'MOBILE_APP', 100 + g % 5000, 'NGN', 100 + g % 5000,
		  lpad((3000000000 + g % 5000)::text, 10, '0'), lpad((4000000000 + g % 7000)::text, 10, '0'), 'A B',
		  now() - g * interval '30 seconds', 'vrd_' || g, (array['APPROVE','APPROVE','APPROVE','REVIEW','BLOCK'])[1 + g % 5],
		  'LOW', 0, '{}', '[]', 1, now(), now()
		from generate_series(1, 100000) g`, string(ten.ID))
	require.NoError(b, err)
	_, err = db.Exec(ctx, `insert into cases (id, tenant_id, case_number, type, priority, title, description, status, assigned_to,
		related_transaction_id, created_at, updated_at)
		select 'case_dash_' || g, $1, 'CASE-2026-' || lpad(g::text, 6, '0'), 'AML_ALERT',
		  (array['LOW','MEDIUM','HIGH','CRITICAL'])[1 + g % 4], 'Alert ' || g, 'seeded',
		  (array['OPEN','OPEN','IN_PROGRESS','ESCALATED','CLOSED'])[1 + g % 5], case when g % 3 = 0 then $2::uuid end,
		  null, now() - g * interval '5 minutes', now()
		from generate_series(1, 10000) g`, string(ten.ID), ten.AdminID)
	require.NoError(b, err)
	_, err = db.Exec(ctx, "analyze transactions; analyze cases")
	require.NoError(b, err)

	calls := []struct{ name, path string }{
		{"queue", "/api/v1/cases?assigneeId=" + ten.AdminID + "&includeUnassigned=true&status=OPEN&sort=PRIORITY&limit=20"},
		{"queue-page-50", "/api/v1/cases?assigneeId=" + ten.AdminID + "&includeUnassigned=true&sort=PRIORITY&page=50&limit=20"},
		{"cases-all-newest", "/api/v1/cases?limit=20"},
		{"transactions", "/api/v1/transactions?limit=20"},
		{"transactions-outcome", "/api/v1/transactions?outcome=BLOCK&limit=20"},
		{"transactions-account", "/api/v1/transactions?account=3000000042&limit=20"},
		{"transactions-amount", "/api/v1/transactions?minAmount=4000&maxAmount=4100&limit=20"},
		{"transactions-dates", fmt.Sprintf("/api/v1/transactions?from=%s&to=%s&limit=20",
			time.Now().Add(-72*time.Hour).UTC().Format("2006-01-02"), time.Now().UTC().Format("2006-01-02"))},
		{"case-page", "/api/v1/cases/case_dash_4242"},
	}
	for _, c := range calls {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				t0 := time.Now()
				env := s.rest("GET", c.path, cred{Bearer: admin}, nil)
				lat = append(lat, time.Since(t0))
				require.Equal(b, http.StatusOK, env.Status, "%s", env.Raw)
			}
			slices.Sort(lat)
			pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
			b.ReportMetric(pct(0.5), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
}
