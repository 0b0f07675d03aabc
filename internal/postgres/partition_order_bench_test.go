package postgres_test

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// BenchmarkUnboundedNewestFirst measures the unbounded newest-first transaction list (no
// period, LIMIT 50) over 66 monthly partitions holding 6,000 rows of one tenant (the last 250
// days), on the schema of migration 0049 (a default partition: a Merge Append that descends
// every partition) and after migration 0050 (two range catch-alls: an ordered Append that stops
// at the newest partitions holding 50 rows). It reports the plan's shared buffer hits per query
// (buffers/op) beside the time; docs/performance-at-scale.md has a run's figures.
//
//	go test ./internal/postgres -run '^$' -bench UnboundedNewestFirst -benchtime 2000x
func BenchmarkUnboundedNewestFirst(b *testing.B) {
	ctx := context.Background()
	url := pgtest.Empty(b)
	if err := postgres.MigrateUpToForTest(ctx, url, 49); err != nil {
		b.Fatal(err)
	}
	conn := pgtest.AdminOf(ctx, b, url)
	tenant := uuid.NewString()
	for _, q := range []string{
		`insert into tenants (id, name, slug) values ('` + tenant + `', 'B', 'b-` + tenant[:8] + `')`,
		`select ensure_monthly_partitions('transactions', (now() - interval '60 months')::date, (now() + interval '4 months')::date)`,
		`insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
		engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), '` + tenant + `', 'm-' || g, 'TRANSFER', 'MOBILE_APP', 1, 'NGN', 1, '2000000001', 'A',
		  now() - (g * interval '1 hour'), 'v', 'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now() from generate_series(1, 6000) g`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	const list = `select id from transactions where tenant_id = $1 order by transaction_timestamp desc, id desc limit 50`
	run := func(b *testing.B, wantTop string) {
		if _, err := conn.Exec(ctx, `analyze transactions`); err != nil {
			b.Fatal(err)
		}
		tx := pgtest.AsApp(ctx, b, conn, tenancy.TenantID(tenant))
		defer func() { _ = tx.Rollback(ctx) }()
		rows, err := tx.Query(ctx, "explain (analyze, buffers, costs off, timing off, summary off) "+list, tenant)
		if err != nil {
			b.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			b.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		if !regexp.MustCompile(`(?m)^\s+->  ` + wantTop + ` \(actual`).MatchString(plan) {
			b.Fatalf("want %s under the Limit:\n%s", wantTop, plan)
		}
		hits, _ := strconv.Atoi(regexp.MustCompile(`Buffers: shared hit=(\d+)`).FindStringSubmatch(plan)[1])
		b.ResetTimer()
		for range b.N {
			if _, err := tx.Exec(ctx, list, tenant); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(hits), "buffers/op")
	}
	b.Run("default-partition", func(b *testing.B) { run(b, "Merge Append") })
	if err := postgres.Migrate(ctx, url, slog.New(slog.DiscardHandler)); err != nil {
		b.Fatal(err)
	}
	b.Run("catch-alls", func(b *testing.B) { run(b, "Append") })
}
