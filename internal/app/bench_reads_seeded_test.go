package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// seededBench is a running server over a database that already holds history
// (COMPLYD_BENCH_DATABASE_URL), signed in as COMPLYD_BENCH_EMAIL with COMPLYD_BENCH_PASSWORD,
// with a direct connection for picking the benchmark's inputs. Without the URL the benchmark
// is skipped: it measures a seeded database, never a fresh one.
type seededBench struct {
	s      *testServer
	token  string
	auths  []benchAuth
	conn   *pgx.Conn
	tenant string
	user   string
}

// benchAuth is one way users authenticate the calls: the dashboard's bearer token, or the API key
// a bank's integration sends (X-API-Key, acting with its creator's role).
type benchAuth struct {
	name string
	cred cred
}

func openSeededBench(b *testing.B) *seededBench {
	b.Helper()
	dbURL := os.Getenv("COMPLYD_BENCH_DATABASE_URL")
	if dbURL == "" {
		b.Skip("COMPLYD_BENCH_DATABASE_URL is not set (a seeded database: docs/performance-at-scale.md)")
	}
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(testWriter{b}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := config{JWTSecret: "bench-secret-bench-secret-bench-secret!", DatabaseURL: dbURL, BlobDir: b.TempDir(), MailFrom: "b@test.local",
		LookupPrice: "100", IdentitySandbox: true, DBMaxConns: 8}
	db, err := openDB(ctx, cfg, log)
	require.NoError(b, err)
	b.Cleanup(db.Close)
	a, err := buildApp(ctx, cfg, db, log, appOptions{})
	require.NoError(b, err)
	b.Cleanup(a.Close)
	srv := httptest.NewServer(a.Handler)
	b.Cleanup(srv.Close)
	sb := &seededBench{s: &testServer{t: b, URL: srv.URL}}
	email := os.Getenv("COMPLYD_BENCH_EMAIL")
	sb.token = sb.s.login(email, os.Getenv("COMPLYD_BENCH_PASSWORD"))
	sb.auths = sb.benchAuths(b, os.Getenv("COMPLYD_BENCH_AUTH"))
	sb.conn, err = pgx.Connect(ctx, dbURL)
	require.NoError(b, err)
	b.Cleanup(func() { _ = sb.conn.Close(ctx) })
	require.NoError(b, sb.conn.QueryRow(ctx, `select tenant_id::text, user_id::text from user_emails where email = $1`, email).
		Scan(&sb.tenant, &sb.user))
	return sb
}

// benchAuths are the authentication modes of modes ("bearer,apikey" when empty). The API key is
// created for the run through the API and revoked after it.
func (sb *seededBench) benchAuths(b *testing.B, modes string) []benchAuth {
	b.Helper()
	if modes == "" {
		modes = "bearer,apikey"
	}
	var out []benchAuth
	for _, m := range strings.Split(modes, ",") {
		switch strings.TrimSpace(m) {
		case "bearer":
			out = append(out, benchAuth{"bearer", cred{Bearer: sb.token}})
		case "apikey":
			var k struct {
				ID  string `json:"id"`
				Key string `json:"key"`
			}
			sb.s.rest("POST", "/api/v1/auth/api-keys", cred{Bearer: sb.token}, map[string]any{"name": "bench-reads-" + time.Now().UTC().Format("20060102T150405")}).decode(b, &k)
			require.NotEmpty(b, k.Key)
			b.Cleanup(func() { sb.s.rest("DELETE", "/api/v1/auth/api-keys/"+k.ID, cred{Bearer: sb.token}, nil) })
			out = append(out, benchAuth{"apikey", cred{APIKey: k.Key}})
		default:
			b.Fatalf("COMPLYD_BENCH_AUTH: %q is neither bearer nor apikey", m)
		}
	}
	return out
}

// sample returns up to n values of the one-column query q (with the tenant as $1).
func (sb *seededBench) sample(b *testing.B, n int, q string) []string {
	b.Helper()
	rows, err := sb.conn.Query(context.Background(), q, sb.tenant, n)
	require.NoError(b, err)
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(b, err)
	return out
}

// timeCalls runs each call b.N times over /api/v1 in each authentication mode (sub-benchmarks
// <mode>/<call>) and reports p50, p95 and p99 in milliseconds; a call that is not 200 fails the
// benchmark.
func (sb *seededBench) timeCalls(b *testing.B, calls []seededCall) {
	for _, a := range sb.auths {
		for _, c := range calls {
			sb.timeCall(b, a, c)
		}
	}
}

// timeCall times one call in one authentication mode.
func (sb *seededBench) timeCall(b *testing.B, a benchAuth, c seededCall) {
	b.Run(a.name+"/"+c.name, func(b *testing.B) {
		lat := make([]time.Duration, 0, b.N)
		i := 0
		for b.Loop() {
			path := c.path(i)
			t0 := time.Now()
			env := sb.s.rest("GET", path, a.cred, nil)
			lat = append(lat, time.Since(t0))
			require.Equal(b, http.StatusOK, env.Status, "%s: %s", path, env.Raw)
			i++
		}
		slices.Sort(lat)
		pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
		b.ReportMetric(pct(0.5), "p50-ms")
		b.ReportMetric(pct(0.95), "p95-ms")
		b.ReportMetric(pct(0.99), "p99-ms")
	})
}

type seededCall struct {
	name string
	path func(i int) string
}

// BenchmarkReadsSeeded: what the dashboard reads while an officer works — the queue, a case page,
// the transactions list and search, the overview's aggregates and the account network — over
// /api/v1 against a database that holds a bank's history (complyd-seedhistory, with its cases
// and rollups). scripts/bench-reads-sizes.sh runs it at growing sizes of history on a throwaway
// cluster (docs/performance-at-scale.md "The dashboard and the network at growing sizes"). The
// inputs (cases, accounts) are sampled from the tenant's own rows, newest and oldest alike.
//
//	COMPLYD_BENCH_DATABASE_URL=... COMPLYD_BENCH_EMAIL=bench@bank.test COMPLYD_BENCH_PASSWORD=... \
//	  go test ./internal/app -run '^$' -bench BenchmarkReadsSeeded -benchtime 100x
func BenchmarkReadsSeeded(b *testing.B) {
	sb := openSeededBench(b)
	cases := sb.sample(b, 500, `select id from cases tablesample system (1) where tenant_id = $1 limit $2`)
	if len(cases) == 0 {
		cases = sb.sample(b, 500, `select id from cases where tenant_id = $1 limit $2`)
	}
	accounts := sb.sample(b, 500, `select distinct account from account_versions tablesample system (1) where tenant_id = $1 limit $2`)
	if len(accounts) == 0 {
		accounts = sb.sample(b, 500, `select account from account_versions where tenant_id = $1 limit $2`)
	}
	if len(accounts) == 0 {
		// The empty database (size 0): the accounts the seeder would give history, none yet.
		for a := range 500 {
			accounts = append(accounts, fmt.Sprintf("%010d", 1_000_000_000+a))
		}
	}
	b.Logf("tenant %s: %d cases and %d accounts sampled", sb.tenant, len(cases), len(accounts))
	now := time.Now().UTC()
	span := func(d time.Duration) string {
		return fmt.Sprintf("from=%s&to=%s", url.QueryEscape(now.Add(-d).Format(time.RFC3339)), url.QueryEscape(now.Format(time.RFC3339)))
	}
	fixed := func(p string) func(int) string { return func(int) string { return p } }
	calls := []seededCall{
		{"queue-mine-and-unassigned-due", fixed("/api/v1/cases?assigneeId=" + sb.user + "&includeUnassigned=true&status=OPEN&sort=DUE&limit=20")},
		{"queue-all-due", fixed("/api/v1/cases?sort=DUE&limit=20")},
		{"queue-needs-my-confirmation", fixed("/api/v1/cases?awaitingMyConfirmation=true&sort=DUE&limit=20")},
		{"transactions-first-page", fixed("/api/v1/transactions?limit=20")},
		{"transactions-outcome-block", fixed("/api/v1/transactions?outcome=BLOCK&limit=20")},
		{"transactions-last-72h", fixed("/api/v1/transactions?limit=20&" + span(72*time.Hour))},
		{"overview-screenings-30d-by-day", fixed("/api/v1/dashboard/screenings?granularity=DAY&" + span(30*24*time.Hour))},
		{"overview-top-rules-30d", fixed("/api/v1/dashboard/rules?" + span(30*24*time.Hour))},
		{"overview-cases-30d-by-day", fixed("/api/v1/dashboard/cases?granularity=DAY&" + span(30*24*time.Hour))},
	}
	if len(cases) > 0 {
		calls = append(calls,
			seededCall{"case-page", func(i int) string { return "/api/v1/cases/" + cases[(i*7919)%len(cases)] }},
			seededCall{"case-page-workspace", func(i int) string { return "/api/v1/cases/" + cases[(i*7919)%len(cases)] + "/workspace" }})
	}
	calls = append(calls,
		seededCall{"transactions-account", func(i int) string {
			return "/api/v1/transactions?limit=20&account=" + accounts[(i*104729)%len(accounts)]
		}},
		seededCall{"network-account-2hops-90d", func(i int) string {
			return "/api/v1/network/accounts/" + accounts[(i*104729)%len(accounts)]
		}})
	sb.timeCalls(b, calls)
}
