package postgres_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
)

// BenchmarkScreeningStoreCases is BenchmarkScreeningStore with every screening opening an
// automatic case, as nearly every screening of the load benchmark does (docs/screening.md
// "Measured as users run it"), for a tenant with a webhook URL and two compliance officers: the
// case lane with its timeline, audit records, emails, notifications and webhooks.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkScreeningStoreCases -benchmem -benchtime 4000x
func BenchmarkScreeningStoreCases(b *testing.B) {
	ctx := context.Background()
	db := pgtest.DB(b)
	st := postgres.NewScreeningStore(db, postgres.ScreeningStoreOptions{})
	b.Cleanup(st.Close)
	ten := pgtest.Tenant(ctx, b, db)
	for range 2 {
		pgtest.User(ctx, b, db, ten.ID, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer})
	}
	admin, err := pgx.Connect(ctx, pgtest.URL(b))
	require.NoError(b, err)
	defer admin.Close(ctx)
	_, err = admin.Exec(ctx, `insert into webhook_endpoints (tenant_id, url, secret, updated_at) values ($1, 'https://bank.example/hook', 's', now())
		on conflict (tenant_id) do update set url = excluded.url`, string(ten.ID))
	require.NoError(b, err)
	accounts := make(chan string, 256)
	for i := range cap(accounts) {
		accounts <- fmt.Sprintf("34%08d", i)
	}
	var seq atomic.Int64
	b.SetParallelism(16)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			acct := <-accounts
			r := record(ten.ID, fmt.Sprintf("cbench-%d-%d", start.UnixNano(), seq.Add(1)), "AML_ALERT")
			r.Tx.SenderAccountNumber = acct
			p, err := st.Prefetch(ctx, r.Tx, false)
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
