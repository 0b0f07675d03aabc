package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkDashboardOverview times every DashboardService aggregate over /api/v1 against a
// database seeded by scripts/seed/dashboard-10m.sql (docs/guide/dashboard.md "Overview at bank size"):
// a tenant with 10 million transactions. It needs that database, so it runs only when
// COMPLYD_BENCH_DATABASE_URL names it, with COMPLYD_BENCH_EMAIL and COMPLYD_BENCH_PASSWORD the
// tenant's admin. Reports p50 and p99 per aggregate in milliseconds.
//
//	COMPLYD_BENCH_DATABASE_URL=postgres://... COMPLYD_BENCH_EMAIL=admin@bench.test COMPLYD_BENCH_PASSWORD=... \
//	  go test ./internal/app -run '^$' -bench BenchmarkDashboardOverview -benchtime 50x
func BenchmarkDashboardOverview(b *testing.B) {
	url := os.Getenv("COMPLYD_BENCH_DATABASE_URL")
	if url == "" {
		b.Skip("COMPLYD_BENCH_DATABASE_URL is not set (seed it with scripts/seed/dashboard-10m.sql)")
	}
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(testWriter{b}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := config{JWTSecret: "bench-secret-bench-secret-bench-secret!", DatabaseURL: url, BlobDir: b.TempDir(), MailFrom: "b@test.local",
		LookupPrice: "100", IdentitySandbox: true, DBMaxConns: 8}
	db, err := openDB(ctx, cfg, log)
	require.NoError(b, err)
	b.Cleanup(db.Close)
	a, err := buildApp(ctx, cfg, db, log, appOptions{})
	require.NoError(b, err)
	b.Cleanup(a.Close)
	srv := httptest.NewServer(a.Handler)
	b.Cleanup(srv.Close)
	s := &testServer{t: b, URL: srv.URL}
	token := s.login(os.Getenv("COMPLYD_BENCH_EMAIL"), os.Getenv("COMPLYD_BENCH_PASSWORD"))

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
	for _, c := range calls {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				t0 := time.Now()
				env := s.rest("GET", c.path, cred{Bearer: token}, nil)
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
