package postgres_test

import (
	"context"
	"testing"

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
	_, err := pgtest.Admin(ctx, b).Exec(ctx, `insert into webhook_endpoints (tenant_id, url, secret, updated_at) values ($1, 'https://bank.example/hook', 's', now())
		on conflict (tenant_id) do update set url = excluded.url`, string(ten.ID))
	require.NoError(b, err)
	b.ReportAllocs()
	benchStore(ctx, b, st, ten.ID, "34", "AML_ALERT", nil)
}
