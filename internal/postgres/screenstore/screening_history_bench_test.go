package screenstore_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// BenchmarkScreeningStoreHistory is BenchmarkScreeningStore on accounts that already hold a
// long history: 64 accounts of 5,000 transactions each spread over the last 89 days (seeded by
// one INSERT before the timer starts), or none. It isolates what a screening's database work
// costs as a function of the account's 90-day history (issue 15, docs/guide/screening.md "How history
// is kept"). Besides ns/op it reports the CPU per screening of this process (go-us/op) and of
// the PostgreSQL backends of the store's connections (pg-us/op, from /proc).
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkScreeningStoreHistory -benchtime 4000x
//
// history=hot-1500 holds 1,500 transactions per account in the last five minutes: accounts
// screened several times a second, whose last 24 hours the day-only layout of migration 0020
// still read row by row (migration 0022's minute and hour grains).
func BenchmarkScreeningStoreHistory(b *testing.B) {
	for _, history := range []int{0, 5000} {
		b.Run(fmt.Sprintf("history=%d", history), func(b *testing.B) { benchHistory(b, history, 89*24*time.Hour) })
	}
	b.Run("history=hot-1500", func(b *testing.B) { benchHistory(b, 1500, 5*time.Minute) })
}

func benchHistory(b *testing.B, history int, span time.Duration) {
	ctx := context.Background()
	db := pgtest.DB(b)
	// No queue-delay shedding: the old scan is slow enough at 5,000 transactions to trip it,
	// and the benchmark measures cost, not admission.
	st := screenstore.NewScreeningStore(db, screenstore.ScreeningStoreOptions{MaxQueueWait: time.Minute})
	b.Cleanup(st.Close)
	ten := pgtest.Tenant(ctx, b, db)
	const naccounts = 64
	accounts := make(chan string, naccounts)
	var all []string
	for i := range naccounts {
		a := fmt.Sprintf("33%08d", i)
		accounts <- a
		all = append(all, a)
	}
	if history > 0 {
		seedHistory(ctx, b, db, ten.ID, all, history, span)
	}
	var seq atomic.Int64
	start := time.Now()
	screen := func() error {
		acct := <-accounts
		defer func() { accounts <- acct }()
		r := record(ten.ID, fmt.Sprintf("hb-%d-%d", start.UnixNano(), seq.Add(1)), "")
		r.Tx.SenderAccountNumber = acct
		r.Tx.DeviceID = "dev-" + acct
		p, err := st.Prefetch(ctx, r.Tx, false, admission.PaceOf(ctx))
		if err != nil {
			return err
		}
		r.History = p.History
		_, err = st.Save(ctx, r)
		return err
	}
	for range 64 { // warm: the store's connections exist before the CPU is sampled
		if err := screen(); err != nil {
			b.Fatal(err)
		}
	}
	pg0, self0 := backendTicks(ctx, b, db), selfCPU()
	b.SetParallelism(8)
	b.ResetTimer()
	start = time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := screen(); err != nil {
				b.Error(err)
				return
			}
		}
	})
	el := time.Since(start)
	b.StopTimer()
	pg1, self1 := backendTicks(ctx, b, db), selfCPU()
	var pg int64
	for pid, t1 := range pg1 {
		pg += t1 - pg0[pid] // a backend new since the start counts from zero
	}
	b.ReportMetric(float64(b.N)/el.Seconds(), "screenings/s")
	b.ReportMetric(float64(pg)*1e4/float64(b.N), "pg-us/op") // ticks of 10 ms
	b.ReportMetric(float64(self1-self0)/1e3/float64(b.N), "go-us/op")
}

// seedHistory stores n transactions for each account, evenly over the span before now.
func seedHistory(ctx context.Context, b testing.TB, db *postgres.DB, tenant tenancy.TenantID, accts []string, n int, span time.Duration) {
	b.Helper()
	err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency,
			amount_ngn, sender_account_number, sender_name, device_id, transaction_timestamp, verdict_id, outcome, risk_level,
			aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
			select gen_random_uuid(), $1, 'seed-' || a || '-' || k, 'TRANSFER', 'MOBILE_APP', (1000 + k % 977)::numeric, 'NGN',
				(1000 + k % 977)::numeric, a, 'Seed', 'dev-' || a, now() - k * ($4::interval / $3::int), 'vrd_seed',
				'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now()
			from unnest($2::text[]) a, generate_series(1, $3::int) k`, string(tenant), accts, n, span)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	analyzeAsOwner(ctx, b, db, "")
}

// analyzeAsOwner analyses table (every table when "") as the login role of the pool's URL, which
// owns the tables: the pool's connections act as complyd_app, for which ANALYZE only warns and
// skips them, as the young-table check notes (screening_analyze.go).
func analyzeAsOwner(ctx context.Context, b testing.TB, db *postgres.DB, table string) {
	b.Helper()
	c, err := pgx.ConnectConfig(ctx, db.Pool.Config().ConnConfig.Copy())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, strings.TrimSpace("analyze "+table)); err != nil {
		b.Fatal(err)
	}
}

// backendTicks returns the CPU ticks (user + system) of this database's backends by pid.
func backendTicks(ctx context.Context, b *testing.B, db *postgres.DB) map[int]int64 {
	b.Helper()
	rows, err := db.Pool.Query(ctx, `select pid from pg_stat_activity where datname = current_database()`)
	if err != nil {
		b.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		b.Fatal(err)
	}
	out := map[int]int64{}
	for _, pid := range pids {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue // another host's server, or gone
		}
		f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		out[int(pid)] = u + s
	}
	return out
}

// selfCPU returns this process's CPU time (user + system) in ns.
func selfCPU() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
