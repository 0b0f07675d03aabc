package app

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkDashboardOverview times every DashboardService aggregate over /api/v1 against a
// database seeded by scripts/seed/dashboard-10m.sql (docs/guide/dashboard.md "Overview at bank size"):
// a tenant with 10 million transactions. It needs that database, so it runs only when
// COMPLYD_BENCH_DATABASE_URL names it, with COMPLYD_BENCH_EMAIL and COMPLYD_BENCH_PASSWORD the
// tenant's admin. Reports p50, p95 and p99 per aggregate in milliseconds (openSeededBench, timeCalls).
//
//	COMPLYD_BENCH_DATABASE_URL=postgres://... COMPLYD_BENCH_EMAIL=admin@bench.test COMPLYD_BENCH_PASSWORD=... \
//	  go test ./internal/app -run '^$' -bench BenchmarkDashboardOverview -benchtime 50x
func BenchmarkDashboardOverview(b *testing.B) {
	sb := openSeededBench(b)
	now := time.Now().UTC()
	span := func(d time.Duration) string {
		return fmt.Sprintf("from=%s&to=%s", now.Add(-d).Format(time.RFC3339), now.Format(time.RFC3339))
	}
	month, quarter, twoDays := span(30*24*time.Hour), span(90*24*time.Hour), span(48*time.Hour)
	calls := []struct{ name, path string }{
		{"screenings-30d-by-day", "/api/v1/dashboard/screenings?granularity=DAY&" + month},
		{"screenings-90d-by-day", "/api/v1/dashboard/screenings?granularity=DAY&" + quarter},
		{"screenings-48h-by-hour", "/api/v1/dashboard/screenings?granularity=HOUR&" + twoDays},
		{"top-rules-30d", "/api/v1/dashboard/rules?" + month},
		{"top-rules-90d", "/api/v1/dashboard/rules?" + quarter},
		{"cases-30d-by-day", "/api/v1/dashboard/cases?granularity=DAY&" + month},
		{"cases-90d-by-day", "/api/v1/dashboard/cases?granularity=DAY&" + quarter},
		{"applications-30d", "/api/v1/dashboard/applications?" + month},
		{"applications-90d", "/api/v1/dashboard/applications?" + quarter},
		{"sanctions-30d-by-day", "/api/v1/dashboard/sanctions?granularity=DAY&" + month},
		{"webhooks-30d", "/api/v1/dashboard/webhooks?" + month},
		{"webhooks-90d", "/api/v1/dashboard/webhooks?" + quarter},
		{"wallet-30d-by-day", "/api/v1/dashboard/wallet?granularity=DAY&" + month},
	}
	fixed := make([]seededCall, len(calls))
	for i, c := range calls {
		fixed[i] = seededCall{c.name, func(int) string { return c.path }}
	}
	sb.timeCalls(b, fixed)
}
