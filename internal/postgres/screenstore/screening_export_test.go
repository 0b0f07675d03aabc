package screenstore

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// Test-only entry points of the screening store's tests (package screenstore_test), as in
// export_test.go.

// QueueWaitForTest is the queue delay the last batch read saw; SetQueueWaitForTest sets it, as a
// batch whose oldest screening had waited d would.
func (s *ScreeningStore) QueueWaitForTest() time.Duration     { return time.Duration(s.waited.Load()) }
func (s *ScreeningStore) SetQueueWaitForTest(d time.Duration) { s.waited.Store(int64(d)) }

// QueueLenForTest is the number of screenings waiting for their batched read.
func (s *ScreeningStore) QueueLenForTest() int { return len(s.pf.ch) }

// WindowBoundsForTest are the window bounds of a screening at ts, in the order of WindowColumns.
func WindowBoundsForTest(ts time.Time) []time.Time {
	b := boundsAt(ts)
	return b[:]
}

var WindowColumns = windowColumns[:]

// AnalyzeIfYoungForTest runs the young-table check as the screening store does after stored
// screenings.
func AnalyzeIfYoungForTest(db *postgres.DB, stored int64) { newYoungTable(db).check(stored) }

// YoungTablesForTest returns the tables the young-table check would analyse after stored
// screenings, and whether transactions at the server's statistics target.
func YoungTablesForTest(db *postgres.DB, ctx context.Context, stored int64) ([]string, bool, error) {
	return newYoungTable(db).young(ctx, stored)
}

// TransactionByIDSQL is the statement Get runs.
func TransactionByIDSQL(tenantID tenancy.TenantID, id string) (string, []any, error) {
	return transactionByID(tenantID, id).ToSql()
}

// DraftReportsForTest drafts, in one transaction, the reports recs' verdicts call for, as one
// commit batch of the group committer does (recs must be stored already).
func (s *ScreeningStore) DraftReportsForTest(ctx context.Context, tenant tenancy.TenantID, recs []*screening.Record) error {
	return s.db.InTenant(ctx, tenant, func(tx pgx.Tx) error {
		w := postgres.NewPipelined(tx)
		reqs := make([]*saveReq, len(recs))
		for i, r := range recs {
			reqs[i] = &saveReq{rec: r}
		}
		b := &pgx.Batch{}
		plan, err := s.queueDrafts(b, tenant, reqs, s.db.Now().UTC())
		if err != nil {
			return err
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		if err := s.draftEffects(ctx, w, tenant, plan); err != nil {
			return err
		}
		return w.Flush(ctx, s.db)
	})
}
