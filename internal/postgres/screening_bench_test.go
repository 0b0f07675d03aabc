package postgres_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
)

// BenchmarkScreeningStore is the store's part of a screening as the service runs it: the batched
// prefetch of the account's history, then the group-committed save on that history, with 16
// screenings in flight per CPU over 256 accounts (each account in one screening at a time, as
// the service's gate holds them), so the accounts' histories grow during the run.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkScreeningStore -benchtime 20000x
func BenchmarkScreeningStore(b *testing.B) {
	ctx := context.Background()
	db := pgtest.DB(b)
	st := postgres.NewScreeningStore(db, postgres.ScreeningStoreOptions{})
	b.Cleanup(st.Close)
	ten := pgtest.Tenant(ctx, b, db)
	accounts := make(chan string, 256)
	for i := range cap(accounts) {
		accounts <- fmt.Sprintf("32%08d", i)
	}
	var seq atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			acct := <-accounts
			r := record(ten.ID, fmt.Sprintf("bench-%d-%d", start.UnixNano(), seq.Add(1)), "")
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
