package screenstore_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// BenchmarkScreeningStore is the store's part of a screening as the service runs it: the batched
// prefetch of the account's history, then the group-committed save on that history, with 16
// screenings in flight per CPU over 256 accounts (each account in one screening at a time, as
// the service's gate holds them), so the accounts' histories grow during the run.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkScreeningStore -benchtime 20000x
func BenchmarkScreeningStore(b *testing.B) {
	ctx, db, st := newScreeningStore(b, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, b, db)
	benchStore(ctx, b, st, ten.ID, "32", "", nil)
}

// benchStore runs b.N screenings through st as BenchmarkScreeningStore describes: 16 in flight
// per CPU over 256 accounts numbered from prefix, each account in one screening at a time, every
// record opening a case of caseType (none when empty) and adjusted by shape (when not nil, with
// the screening's sequence number) before its prefetch.
func benchStore(ctx context.Context, b *testing.B, st *screenstore.ScreeningStore, tenant tenancy.TenantID, prefix, caseType string,
	shape func(r *screening.Record, n int64)) {
	b.Helper()
	accounts := make(chan string, 256)
	for i := range cap(accounts) {
		accounts <- fmt.Sprintf("%s%08d", prefix, i)
	}
	var seq atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			acct := <-accounts
			n := seq.Add(1)
			r := record(tenant, fmt.Sprintf("bench%s-%d-%d", prefix, start.UnixNano(), n), caseType)
			r.Tx.SenderAccountNumber = acct
			if shape != nil {
				shape(r, n)
			}
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
