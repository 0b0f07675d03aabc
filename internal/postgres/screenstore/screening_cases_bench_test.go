package screenstore_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
)

// BenchmarkScreeningStoreCases is BenchmarkScreeningStore with every screening opening an
// automatic case, as nearly every screening of the load benchmark does (the measurement log of docs/performance.md#history,
// "Measured as users run it"), for a tenant with a webhook URL and two compliance officers: the
// case lane with its timeline, audit records, emails, notifications and webhooks.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkScreeningStoreCases -benchmem -benchtime 4000x
func BenchmarkScreeningStoreCases(b *testing.B) {
	ctx, db, st := newScreeningStore(b, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, b, db)
	for range 2 {
		pgtest.User(ctx, b, db, ten.ID, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer})
	}
	_, err := pgtest.Admin(ctx, b).Exec(ctx, `insert into webhook_endpoints (tenant_id, url, secret, updated_at) values ($1, 'https://bank.example/hook', 's', now())
		on conflict (tenant_id) do update set url = excluded.url`, string(ten.ID))
	require.NoError(b, err)
	b.ReportAllocs()
	benchStore(ctx, b, st, ten.ID, "34", "AML_ALERT", nil)
}

// BenchmarkScreeningStoreCaseAlone is one case-opening screening at a time (prefetch and save,
// no concurrency): a case-lane batch of one, whose latency is its round trips, as at low load.
//
//	go test ./internal/postgres -run '^$' -bench BenchmarkScreeningStoreCaseAlone -benchtime 2000x
func BenchmarkScreeningStoreCaseAlone(b *testing.B) {
	ctx, db, st := newScreeningStore(b, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, b, db)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		r := record(ten.ID, fmt.Sprintf("alone-%d-%d", time.Now().UnixNano(), i), "AML_ALERT")
		p, err := st.Prefetch(ctx, r.Tx, false, admission.PaceOf(ctx))
		if err != nil {
			b.Fatal(err)
		}
		r.History = p.History
		if _, err := st.Save(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
}
