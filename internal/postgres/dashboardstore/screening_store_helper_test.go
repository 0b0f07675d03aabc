package dashboardstore_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// newScreeningStore starts a screening store with options o on a fresh database, stopped when
// the test ends (as in internal/postgres/screenstore's tests).
func newScreeningStore(t testing.TB, o screenstore.ScreeningStoreOptions) (context.Context, *postgres.DB, *screenstore.ScreeningStore) {
	t.Helper()
	db := pgtest.DB(t)
	st := screenstore.NewScreeningStore(db, o)
	t.Cleanup(st.Close)
	return context.Background(), db, st
}

// record is a screening of ext from an account of its own (derived from ext) with no history:
// the store stores a record only on the account history it was screened on (as in internal/postgres/screenstore's tests).
// internal/postgres/screenstore's tests).
func record(tenant tenancy.TenantID, ext, caseType string) *screening.Record {
	h := fnv.New32a()
	_, _ = h.Write([]byte(ext))
	tx := &screening.Transaction{TenantID: tenant, ExternalID: ext, Type: "TRANSFER", Channel: "MOBILE_APP",
		Amount: decimal.RequireFromString("1000"), SenderAccountNumber: fmt.Sprintf("31%08d", h.Sum32()%100_000_000), SenderName: "Ada Obi",
		Timestamp: time.Now().UTC().Truncate(time.Microsecond)}
	tx.Normalize()
	rec := &screening.Record{ID: screening.NewTransactionID(), VerdictID: screening.NewID("vrd_"), Tx: tx,
		AmountNGN: tx.Amount, ProcessedAt: time.Now().UTC(),
		Result: screening.Result{Aggregate: screening.Aggregate{Outcome: rules.Approve, RiskLevel: "LOW", Actions: []string{}},
			Breakdown: []screening.EngineVerdict{{Category: screening.CategoryRegulatory, Outcome: rules.Approve}}}}
	if caseType != "" {
		rec.Result.Outcome, rec.Result.RiskLevel, rec.Result.Score = rules.Review, "MEDIUM", 50
		rec.Case = &screening.CaseRequest{Type: caseType, Priority: "MEDIUM", Title: "REVIEW on " + ext, Description: "test"}
	}
	return rec
}

// asTenant runs fn in a transaction of the service's role acting for tenant.
func asTenant(ctx context.Context, db *postgres.DB, tenant tenancy.TenantID, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			return err
		}
		return fn(tx)
	})
}

// freshScreeningStore is newScreeningStore on a database of its own, with its admin URL.
func freshScreeningStore(t testing.TB, o screenstore.ScreeningStoreOptions) (context.Context, *postgres.DB, string, *screenstore.ScreeningStore) {
	t.Helper()
	db, url := pgtest.Fresh(t)
	st := screenstore.NewScreeningStore(db, o)
	t.Cleanup(st.Close)
	return context.Background(), db, url, st
}
