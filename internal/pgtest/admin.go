package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// Admin connects to this package's database as the migrating user, which row-level security
// does not restrict (fixtures written straight into tables); the connection closes when t ends.
func Admin(ctx context.Context, t testing.TB) *pgx.Conn {
	t.Helper()
	return AdminOf(ctx, t, URL(t))
}

// AdminOf is Admin for the database at url, such as Fresh's.
func AdminOf(ctx context.Context, t testing.TB, url string) *pgx.Conn {
	t.Helper()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("pgtest: admin connection: %v", err)
	}
	t.Cleanup(func() { _ = admin.Close(context.Background()) })
	return admin
}

// AsApp begins a transaction on admin that acts as the application role for tenant, as the
// service's connections do (row-level security applies); it is rolled back when t ends.
func AsApp(ctx context.Context, t testing.TB, admin *pgx.Conn, tenant tenancy.TenantID) pgx.Tx {
	t.Helper()
	tx, err := admin.Begin(ctx)
	if err != nil {
		t.Fatalf("pgtest: begin: %v", err)
	}
	t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
	if _, err := tx.Exec(ctx, `set local role `+postgres.AppRole); err != nil {
		t.Fatalf("pgtest: set role: %v", err)
	}
	if _, err := tx.Exec(ctx, `select set_config('app.tenant_id', $1, true)`, string(tenant)); err != nil {
		t.Fatalf("pgtest: set tenant: %v", err)
	}
	return tx
}

// TableReads returns the rows tx has read from table so far, by sequential scans and index
// fetches (pg_stat_xact_user_tables): a test's measure of whether a statement read by key.
func TableReads(ctx context.Context, t testing.TB, tx pgx.Tx, table string) int64 {
	t.Helper()
	var n int64
	if err := tx.QueryRow(ctx, `select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)
		from pg_stat_xact_user_tables where relname = $1`, table).Scan(&n); err != nil {
		t.Fatalf("pgtest: reads of %s: %v", table, err)
	}
	return n
}
