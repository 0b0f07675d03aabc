package postgres_test

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// TestDraftReportsSameKeyInOneBatch: the drafts of a commit batch are upserted by one statement
// per round of distinct keys. Three transactions of one account and day calling for a CTR, and
// one of another account, in one batch: one CTR per account, the first account's with its three
// transactions (a draft's key twice in one upsert statement would fail the whole batch: "ON
// CONFLICT DO UPDATE command cannot affect row a second time").
func TestDraftReportsSameKeyInOneBatch(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, postgres.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)
	var recs []*screening.Record
	for i, ext := range []string{"ctr-a1", "ctr-a2", "ctr-b1", "ctr-a3"} {
		r := record(ten.ID, ext, "")
		r.Tx.SenderAccountNumber = "5100000001"
		if i == 2 {
			r.Tx.SenderAccountNumber = "5100000002"
		}
		r.Result.Actions = []string{rules.ActionGenerateCTR}
		directInsert(ctx, t, db, ten.ID, r)
		recs = append(recs, r)
	}
	require.NoError(t, st.DraftReportsForTest(ctx, ten.ID, recs))
	count := func(q string) int {
		var n int
		require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
				return err
			}
			return tx.QueryRow(ctx, q).Scan(&n)
		}))
		return n
	}
	require.Equal(t, 1, count(`select count(*) from reports where type = 'CTR' and customer_account = '5100000001'`))
	require.Equal(t, 3, count(`select count(*) from report_transactions rt join reports r on r.id = rt.report_id
		where r.customer_account = '5100000001'`))
	require.Equal(t, 1, count(`select count(*) from reports where type = 'CTR' and customer_account = '5100000002'`))
}
