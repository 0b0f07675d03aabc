package screenstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// BenchmarkPrefetchStaleStatistics is one screening's prefetch, alone, for a tenant whose history
// tables were last analysed when it had 50 busy accounts (two hours at a transaction every
// 3.6 s each) and which has since had 1,000,000 transactions of 200,000 more accounts stored,
// with only the transactions table analysed again (autovacuum has not come to the history
// tables yet). The generic plan's estimated cost then passes PostgreSQL's jit_above_cost, and
// with JIT on every execution compiles it again (docs/guide/operations.md "PostgreSQL's JIT"):
// jit=on is the server's default, jit=off the service's sessions.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkPrefetchStaleStatistics -benchtime 10x
func BenchmarkPrefetchStaleStatistics(b *testing.B) {
	ctx := context.Background()
	db, dbURL := pgtest.Fresh(b)
	ten := pgtest.Tenant(ctx, b, db)
	var busy []string
	for i := range 50 {
		busy = append(busy, fmt.Sprintf("33%08d", i))
	}
	seedHistory(ctx, b, db, ten.ID, busy, 2000, 2*time.Hour) // analyses every table
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close(ctx)
	// Autovacuum has not come to the history tables yet (it may within a minute of the import;
	// the benchmark holds it off to measure that minute).
	for _, t := range []string{"account_activity_grains", "account_versions"} {
		if _, err := admin.Exec(ctx, "alter table "+t+" set (autovacuum_enabled = false)"); err != nil {
			b.Fatal(err)
		}
	}
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
		b.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
		engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'import-' || g, 'TRANSFER', 'MOBILE_APP', 1000, 'NGN', 1000, lpad((g % 200000)::text, 10, '4'),
			'Imported', now() - interval '2 hours' - g * interval '13 seconds', 'vrd', 'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now()
		from generate_series(1, 1000000) g`, string(ten.ID)); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	analyzeAsOwner(ctx, b, db, "transactions")
	b.Logf("the prefetch's generic plan: %s", prefetchPlanCost(ctx, b, dbURL, ten.ID, busy[7]))
	for _, jit := range []string{"on", "off"} {
		b.Run("jit="+jit, func(b *testing.B) {
			u, err := url.Parse(dbURL)
			if err != nil {
				b.Fatal(err)
			}
			q := u.Query()
			q.Set("jit", jit) // a jit option in the URL wins over the service's own
			u.RawQuery = q.Encode()
			pdb, err := postgres.Open(ctx, u.String(), postgres.Options{MaxConns: 4, Logger: slog.New(slog.DiscardHandler),
				CredentialsKey: pgtest.CredentialsKey})
			if err != nil {
				b.Fatal(err)
			}
			defer pdb.Close()
			st := screenstore.NewScreeningStore(pdb, screenstore.ScreeningStoreOptions{MaxQueueWait: time.Minute})
			defer st.Close()
			b.ResetTimer()
			for i := range b.N {
				r := record(ten.ID, fmt.Sprintf("stale-%s-%d", jit, i), "")
				r.Tx.SenderAccountNumber = busy[i%len(busy)]
				if _, err := st.Prefetch(ctx, r.Tx, false, admission.PaceOf(ctx)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// prefetchPlanCost returns the first line of the prefetch's generic plan for one screening of
// acct, as the service's role sees it: the estimated cost that PostgreSQL compares with
// jit_above_cost.
func prefetchPlanCost(ctx context.Context, b *testing.B, dbURL string, tenant tenancy.TenantID, acct string) string {
	b.Helper()
	c, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(ctx)
	for _, q := range []string{"set plan_cache_mode = force_generic_plan", "set role " + postgres.AppRole,
		"select set_config('app.tenant_id', '" + string(tenant) + "', false)",
		"prepare pf(" + screenstore.PrefetchParamTypes + ") as " + screenstore.PrefetchSQL} {
		if _, err := c.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	args := screenstore.PrefetchArgsForTest(string(tenant), []string{"x"}, []string{acct}, []time.Time{time.Now()}, [][]byte{nil})
	return explainPrefetch(ctx, b, c, "", args)[0]
}
