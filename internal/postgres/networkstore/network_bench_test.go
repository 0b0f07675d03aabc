package networkstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/customers"
	"github.com/complyd/complyd/internal/network"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/customerstore"
	"github.com/complyd/complyd/internal/postgres/networkstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// seededDB opens the database seeded by scripts/seed/transactions.sql and customers.sql
// (COMPLYD_BENCH_SEEDED_URL, COMPLYD_BENCH_SEEDED_TENANT; docs/guide/network.md "Benchmark"), or
// skips the benchmark.
func seededDB(b *testing.B) (*postgres.DB, tenancy.TenantID) {
	url, tenant := os.Getenv("COMPLYD_BENCH_SEEDED_URL"), os.Getenv("COMPLYD_BENCH_SEEDED_TENANT")
	if url == "" || tenant == "" {
		b.Skip("COMPLYD_BENCH_SEEDED_URL and COMPLYD_BENCH_SEEDED_TENANT name a seeded database (docs/guide/network.md)")
	}
	db, err := postgres.Open(context.Background(), url, postgres.Options{MaxConns: 4, Logger: slog.New(slog.DiscardHandler),
		CredentialsKey: pgtest.CredentialsKey})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(db.Close)
	return db, tenancy.TenantID(tenant)
}

// timed runs fn b.N times and reports p50 and p99 in milliseconds.
func timed(b *testing.B, fn func(i int) error) {
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if err := fn(i); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(float64(len(lat)-1)*p)].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkNetworkSeeded times network queries from random accounts of the seeded tenant
// (500,000 accounts, 10 million transactions over a year: about 5 sent and 5 received per
// account in the default 90 days).
func BenchmarkNetworkSeeded(b *testing.B) {
	db, tenant := seededDB(b)
	svc := network.NewService(networkstore.NewNetworkStore(db), cases.NewService(postgres.NewCaseStore(db), postgres.NewCaseUsers(db), time.Now), time.Now)
	accounts := 500_000
	if v := os.Getenv("COMPLYD_BENCH_SEEDED_ACCOUNTS"); v != "" {
		_, _ = fmt.Sscan(v, &accounts)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		p    network.Params
	}{
		{"account-2hops-90d", network.Params{Hops: 2, SharedIdentifiers: true}},
		{"account-2hops-90d-noshared", network.Params{Hops: 2}},
		{"account-3hops-90d", network.Params{Hops: 3, SharedIdentifiers: true}},
		{"account-2hops-365d", network.Params{Hops: 2, SharedIdentifiers: true, From: time.Now().Add(-365 * 24 * time.Hour)}},
		{"customer-2hops-90d", network.Params{Hops: 2, SharedIdentifiers: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			truncated, nodes := 0, 0
			timed(b, func(int) error {
				p := tc.p
				i := rng.IntN(accounts)
				if tc.name[:8] == "customer" {
					p.CustomerID = fmt.Sprintf("cus_seed_%d", i%100_000)
				} else {
					p.Account = fmt.Sprint(1000000000 + i)
				}
				g, err := svc.Graph(context.Background(), tenant, p)
				if g.Truncated {
					truncated++
				}
				nodes += len(g.Nodes)
				return err
			})
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(truncated)/float64(b.N), "truncated/op")
		})
	}
}

// BenchmarkCustomerSeeded times the customer queries on the seeded tenant's 100,000 profiles
// (scripts/seed/customers.sql), each linked by its BVN to about 20 transactions.
func BenchmarkCustomerSeeded(b *testing.B) {
	db, tenant := seededDB(b)
	svc := customers.NewService(customerstore.NewCustomerStore(db), time.Now)
	rng := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	id := func() string { return fmt.Sprintf("cus_seed_%d", rng.IntN(100_000)) }
	b.Run("recompute", func(b *testing.B) {
		timed(b, func(int) error {
			_, err := svc.Recompute(ctx, tenant, id(), customers.RecomputeParams{Reason: customers.ReasonManual, Actor: audit.System})
			return err
		})
	})
	b.Run("overview", func(b *testing.B) {
		timed(b, func(int) error { _, err := svc.Overview(ctx, tenant, id()); return err })
	})
	b.Run("risk-history", func(b *testing.B) {
		timed(b, func(int) error { _, err := svc.History(ctx, tenant, id()); return err })
	})
	b.Run("search-name", func(b *testing.B) {
		names := []string{"chioma", "okafor 12", "ibrahim musa", "ngozi"}
		timed(b, func(i int) error {
			_, err := svc.Search(ctx, tenant, customers.SearchParams{Query: names[i%len(names)]}, paging.Params{Page: 1, Limit: 20})
			return err
		})
	})
	b.Run("search-bvn", func(b *testing.B) {
		timed(b, func(int) error {
			_, err := svc.Search(ctx, tenant, customers.SearchParams{Query: fmt.Sprintf("2%010d", rng.IntN(100_000))}, paging.Params{Page: 1, Limit: 20})
			return err
		})
	})
	b.Run("list-first-page", func(b *testing.B) {
		timed(b, func(int) error {
			_, err := svc.Search(ctx, tenant, customers.SearchParams{}, paging.Params{Page: 1, Limit: 20})
			return err
		})
	})
	b.Run("due-reviews", func(b *testing.B) {
		timed(b, func(int) error { _, err := svc.DueReviews(ctx, tenant, paging.Params{Page: 1, Limit: 20}); return err })
	})
}
