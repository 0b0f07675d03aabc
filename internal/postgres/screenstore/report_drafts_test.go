package screenstore_test

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
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
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
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
	count := func(q string, args ...any) int {
		var n int
		require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
				return err
			}
			return tx.QueryRow(ctx, q, args...).Scan(&n)
		}))
		return n
	}
	// The drafts are of stored transactions only (the upsert checks each id): the records take
	// the ids directInsert gave their rows.
	for _, r := range recs {
		require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
				return err
			}
			return tx.QueryRow(ctx, "select id::text from transactions where external_id = $1", r.Tx.ExternalID).Scan(&r.ID)
		}))
	}
	require.NoError(t, st.DraftReportsForTest(ctx, ten.ID, recs))
	require.Equal(t, 1, count(`select count(*) from reports where type = 'CTR' and customer_account = '5100000001'`))
	require.Equal(t, 3, count(`select count(*) from report_transactions rt join reports r on r.id = rt.report_id
		where r.customer_account = '5100000001'`))
	require.Equal(t, 1, count(`select count(*) from reports where type = 'CTR' and customer_account = '5100000002'`))
}

// TestDraftReportsOfStoredTransactionsOnly: the drafts are upserted in the insert's own round
// trip, before the batch knows which of its records were stored. A second screening of a stored
// externalId (a duplicate, answered with the original verdict) whose verdict calls for a CTR
// adds nothing to the day's CTR, and an STR is linked to the case its screening opened.
func TestDraftReportsOfStoredTransactionsOnly(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)
	save := func(r *screening.Record) (string, error) {
		p, err := st.Prefetch(ctx, r.Tx, false, admission.PaceOf(ctx))
		require.NoError(t, err)
		r.History = p.History
		return st.Save(ctx, r)
	}
	first := record(ten.ID, "draft-dup", "AML_ALERT")
	first.Result.Actions = []string{rules.ActionGenerateCTR, rules.ActionGenerateSAR}
	caseID, err := save(first)
	require.NoError(t, err)
	require.NotEmpty(t, caseID)
	again := record(ten.ID, "draft-dup", "AML_ALERT")
	again.Result.Actions = []string{rules.ActionGenerateCTR, rules.ActionGenerateSAR}
	_, err = save(again)
	require.Equal(t, apperr.DuplicateExternalID, apperr.CodeOf(err), "%v", err)

	var txIDs []string
	var strCase string
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `select array_agg(rt.transaction_id::text) from report_transactions rt
			join reports r on r.id = rt.report_id where r.type = 'CTR'`).Scan(&txIDs); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `select case_id from reports where type = 'STR'`).Scan(&strCase)
	}))
	require.Equal(t, []string{first.ID}, txIDs, "the duplicate's record was never stored")
	require.Equal(t, caseID, strCase)
}
