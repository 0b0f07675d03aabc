package dashboardstore_test

import (
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
)

// BenchmarkScreeningStoreWebhooks is BenchmarkScreeningStore with REVIEW screenings of a tenant
// that has a webhook URL: every screening takes the effects path and inserts a
// transaction.screened delivery, whose status rollup trigger (migration 0018) fires per insert.
// COMPLYD_BENCH_ROLLUP_TRIGGER=off disables that trigger for the run, to measure its cost.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkScreeningStoreWebhooks -benchtime 10000x
func BenchmarkScreeningStoreWebhooks(b *testing.B) {
	ctx, db, st := newScreeningStore(b, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, b, db)
	url := pgtest.URL(b)
	admin, err := pgx.Connect(ctx, url)
	require.NoError(b, err)
	defer admin.Close(ctx)
	_, err = admin.Exec(ctx, `insert into webhook_endpoints (tenant_id, url, secret, updated_at) values ($1, 'https://bank.example/hook', 's', now())
		on conflict (tenant_id) do update set url = excluded.url`, string(ten.ID))
	require.NoError(b, err)
	if os.Getenv("COMPLYD_BENCH_ROLLUP_TRIGGER") == "off" {
		_, err = admin.Exec(ctx, `alter table webhook_deliveries disable trigger webhook_deliveries_rollup_ins`)
		require.NoError(b, err)
		defer func() {
			_, _ = admin.Exec(ctx, `alter table webhook_deliveries enable trigger webhook_deliveries_rollup_ins`)
		}()
	}
	accounts := make(chan string, 256)
	for i := range cap(accounts) {
		accounts <- fmt.Sprintf("33%08d", i)
	}
	var seq atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			acct := <-accounts
			r := record(ten.ID, fmt.Sprintf("hook-%d-%d", start.UnixNano(), seq.Add(1)), "")
			r.Result.Outcome, r.Result.RiskLevel = rules.Review, "MEDIUM"
			r.Tx.SenderAccountNumber = acct
			p, err := st.Prefetch(ctx, r.Tx, false, admission.PaceOf(ctx))
			if err != nil {
				b.Error(err)
				return
			}
			r.History = p.History
			if _, err := st.Save(ctx, r); err != nil {
				b.Error(err)
				return
			}
			accounts <- acct
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "screenings/s")
}
