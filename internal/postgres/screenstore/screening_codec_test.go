package screenstore_test

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// TestStoredVerdictsLeaveOutSilentFields: an engine that answered APPROVE with a zero score in
// under a millisecond is stored as its category alone, one that said something keeps every
// field, and both read back as they were screened; a row stored with the fields written out (as
// before) reads the same.
func TestStoredVerdictsLeaveOutSilentFields(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{})
	ten := pgtest.Tenant(ctx, t, db)

	rec := record(ten.ID, "codec-1", "")
	rec.Result.Breakdown = []screening.EngineVerdict{
		{Category: screening.CategorySanctions, Outcome: rules.Approve},
		{Category: screening.CategoryRegulatory, Score: 60, Outcome: rules.Review, LatencyMs: 3, Actions: []string{"CREATE_CASE"},
			RulesTriggered: []screening.TriggeredRule{{ID: "AML-007", Name: "AML-007 Rapid Succession", Category: screening.CategoryRegulatory,
				RiskScore: 60, Outcome: rules.Review, Details: "30 transactions within 60 minutes", CreatedBy: "system"}}},
		{Category: screening.CategoryBehavioral, Score: 15, Outcome: rules.Approve,
			RulesTriggered: []screening.TriggeredRule{{ID: "BEHAV-IP-CHANGE", Name: "IP Change", Category: screening.CategoryBehavioral,
				RiskScore: 15, Outcome: rules.Approve}}},
	}
	_, err := st.Save(ctx, rec)
	require.NoError(t, err)

	var stored []map[string]any
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID)); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `select engine_verdicts from transactions where tenant_id = $1 and id = $2`,
			string(ten.ID), rec.ID).Scan(&stored)
	}))
	require.Len(t, stored, 3)
	require.Equal(t, map[string]any{"category": screening.CategorySanctions}, stored[0], "a silent engine is its category alone")
	require.Equal(t, "REVIEW", stored[1]["outcome"])
	require.InDelta(t, 60, stored[1]["score"], 0)
	require.InDelta(t, 3, stored[1]["latencyMs"], 0)
	require.NotContains(t, stored[2], "outcome", "APPROVE is left out also when the engine scored")
	require.InDelta(t, 15, stored[2]["score"], 0)

	got, err := st.Get(ctx, ten.ID, rec.ID)
	require.NoError(t, err)
	require.Equal(t, rec.Result.Breakdown, got.Result.Breakdown)

	// A row of the earlier encoding, every field written out.
	old := record(ten.ID, "codec-old", "")
	_, err = st.Save(ctx, old)
	require.NoError(t, err)
	_, err = pgtest.Admin(ctx, t).Exec(ctx, `update transactions set engine_verdicts =
		'[{"category": "Global Sanctions Screening", "score": 0, "outcome": "APPROVE", "latencyMs": 0}]' where id = $1`, old.ID)
	require.NoError(t, err)
	got, err = st.Get(ctx, ten.ID, old.ID)
	require.NoError(t, err)
	require.Equal(t, []screening.EngineVerdict{{Category: screening.CategorySanctions, Outcome: rules.Approve}}, got.Result.Breakdown)
}
