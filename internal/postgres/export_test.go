package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
	"github.com/complyd/complyd/migrations"
)

// Test-only entry points of this package's tests (package postgres_test): they exist only in
// the test binary, so production code carries no hook that skips a rule.

// CreateCaseAutomaticForTest runs createCaseTx in a transaction of its own, as the screening
// pipeline will inside its transaction (these tests). fail makes the transaction roll back after the case
// was created, to show that the number is given back.
func (db *DB) CreateCaseAutomaticForTest(ctx context.Context, tenantID tenancy.TenantID, p cases.NewParams, fail error) (cases.Case, error) {
	var c cases.Case
	err := db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		if c, err = db.createCaseTx(ctx, tx, tenantID, p); err != nil {
			return err
		}
		return fail
	})
	return c, err
}

// SettleForTest settles h in its own transaction: wallet tests exercise the reserve → settle
// path without a capability. Production code settles inside the capability's transaction.
func (s *WalletStore) SettleForTest(ctx context.Context, h wallet.Hold, description string) (decimal.Decimal, error) {
	var bal decimal.Decimal
	err := s.db.inTenant(ctx, h.TenantID, func(tx pgx.Tx) (err error) {
		bal, err = s.db.settleHold(ctx, tx, h, description)
		return err
	})
	return bal, err
}

// MigrateDownToForTest rolls the goose migrations back to version.
func MigrateDownToForTest(ctx context.Context, url string, version int64) error {
	return withGoose(url, func(p *goose.Provider) error { _, err := p.DownTo(ctx, version); return err })
}

// MigrateUpToForTest applies the goose migrations up to and including version, and no River
// migration: migration tests start from the schema an older release left.
func MigrateUpToForTest(ctx context.Context, url string, version int64) error {
	return withGoose(url, func(p *goose.Provider) error { _, err := p.UpTo(ctx, version); return err })
}

// withGoose runs fn with a goose provider of this package's migrations on url.
func withGoose(url string, fn func(*goose.Provider) error) error {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return err
	}
	defer db.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS)
	if err != nil {
		return err
	}
	return fn(provider)
}

// CaseWritesForTest writes n automatic cases for each of tenants (in that order) through one
// pipelined writer in one transaction, as a screening batch's side effects do, and returns how
// many statements the writer sent for them (the tenant switches and COMMIT included).
func (db *DB) CaseWritesForTest(ctx context.Context, tenants []tenancy.TenantID, n int) (int, error) {
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	w := newPipelined(tx)
	for _, t := range tenants {
		// The reads the effects make at once (the officers, the webhook URL) run under the tenant
		// too, as the commit's own reads do in its first round trip.
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(t)); err != nil {
			return 0, err
		}
		if _, err := w.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(t)); err != nil {
			return 0, err
		}
		ps := make([]cases.NewParams, n)
		for i := range ps {
			ps[i] = cases.NewParams{Type: cases.TypeAMLAlert, Priority: "MEDIUM", Title: fmt.Sprintf("Case %d", i),
				Description: "coalesced", Tags: []string{"screening"}}
		}
		a, err := db.validateAutomaticCases(t, ps)
		if err != nil {
			return 0, err
		}
		if _, err := db.writeCases(ctx, w, t, ps, a, n); err != nil {
			return 0, err
		}
	}
	if _, err := w.Exec(ctx, "commit"); err != nil {
		return 0, err
	}
	var b pgx.Batch
	for _, q := range w.writes {
		q.queue(&b)
	}
	return b.Len(), w.flush(ctx, db)
}

// ReportTxSQLForTest and BacktestQueryForTest are the reports' and the back-tests' reads of
// stored transactions, for plan tests.
const (
	ReportTxSQLForTest   = reportTxSQL
	BacktestQueryForTest = backtestQuery
)
