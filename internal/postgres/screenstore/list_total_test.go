package screenstore_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestListTotalExact: the transactions list's total, which the screening rollups answer for the
// whole hours of a period filtered on outcome and risk level (list_total.go), equals the number of
// rows the filter matches for every shape of period: none, open at either end, edges inside an
// hour, one microsecond either side of an hour, a period inside one hour, an empty one; for a
// filter the rollups do not key (falls back to the count); with another tenant's screenings in
// the same hours; and for a month with an archive whose rows were deleted, which the rollups
// still count.
func TestListTotalExact(t *testing.T) {
	t.Parallel()
	ctx, db, adminURL, st := freshScreeningStore(t, screenstore.ScreeningStoreOptions{})
	a, b := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)

	type row struct {
		at      time.Time
		outcome rules.Outcome
		risk    string
	}
	// Three months back from this month's start, a screening every 7 h 13 min 17 s, so that
	// rows fall at every minute of the hour and on both sides of the month boundaries.
	start := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, -3, 0)
	kinds := []struct {
		outcome rules.Outcome
		risk    string
	}{{rules.Approve, "LOW"}, {rules.Review, "MEDIUM"}, {rules.Block, "HIGH"}, {rules.Approve, "MEDIUM"}}
	var rows []row
	for i, at := 0, start; at.Before(start.AddDate(0, 3, 0)); i, at = i+1, at.Add(7*time.Hour+13*time.Minute+17*time.Second+123*time.Microsecond) {
		k := kinds[i%len(kinds)]
		rows = append(rows, row{at, k.outcome, k.risk})
	}
	save := func(tenant tenancy.TenantID, i int, r row) {
		rec := record(tenant, fmt.Sprintf("lt-%s-%d", tenant[:8], i), "")
		rec.Tx.Timestamp = r.at
		rec.Result.Outcome, rec.Result.RiskLevel = r.outcome, r.risk
		_, err := st.Save(ctx, rec)
		require.NoError(t, err)
	}
	for i, r := range rows {
		save(a.ID, i, r)
		if i%3 == 0 {
			save(b.ID, i, r) // the other tenant's screenings share the hours and rollup keys
		}
	}

	// A month with an archive whose rows are gone (as archive_drop_month leaves it): deleted here
	// past the application's grants. The rollups still count them; the total must not.
	gone := time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
	admin, err := pgx.Connect(ctx, adminURL)
	require.NoError(t, err)
	defer admin.Close(ctx)
	_, err = admin.Exec(ctx, `delete from transactions where tenant_id = $1 and transaction_timestamp >= $2 and transaction_timestamp < $3`,
		string(a.ID), gone, gone.AddDate(0, 1, 0))
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `insert into archives (id, tenant_id, table_name, month, prefix, data_key, manifest_key, row_count,
		byte_size, sha256, id_digest, state, created_at, dropped_at) values ($1, $2, 'transactions', $3, 'p', 'd', 'm', 0, 0, '', 0, 'DROPPED', now(), now())`,
		uuid.NewString(), string(a.ID), gone)
	require.NoError(t, err)
	var kept []row
	for _, r := range rows {
		if r.at.Before(gone) || !r.at.Before(gone.AddDate(0, 1, 0)) {
			kept = append(kept, r)
		}
	}

	want := func(f screening.ListParams) int {
		n := 0
		for _, r := range kept {
			if (f.Outcome == "" || f.Outcome == string(r.outcome)) && (f.RiskLevel == "" || f.RiskLevel == r.risk) &&
				(f.From == nil || !r.at.Before(*f.From)) && (f.To == nil || !r.at.After(*f.To)) {
				n++
			}
		}
		return n
	}
	p := func(t time.Time) *time.Time { return &t }
	hour := rows[40].at.Truncate(time.Hour) // an hour holding a row
	lagos := time.FixedZone("WAT", 3600)
	cases := map[string]screening.ListParams{
		"no filter":                  {},
		"outcome":                    {Outcome: string(rules.Block)},
		"risk level":                 {RiskLevel: "MEDIUM"},
		"outcome and risk level":     {Outcome: string(rules.Approve), RiskLevel: "MEDIUM"},
		"from inside an hour":        {From: p(rows[10].at.Add(-time.Minute))},
		"to inside an hour":          {To: p(rows[200].at.Add(time.Minute))},
		"both edges inside hours":    {Outcome: string(rules.Review), From: p(rows[10].at.Add(-17 * time.Minute)), To: p(rows[250].at.Add(3 * time.Second))},
		"on a row either end":        {From: p(rows[12].at), To: p(rows[260].at)},
		"whole hours to the µs":      {From: p(hour), To: p(hour.Add(48*time.Hour - time.Microsecond))},
		"a µs past whole hours":      {From: p(hour.Add(-time.Microsecond)), To: p(hour.Add(48 * time.Hour))},
		"inside one hour":            {From: p(rows[40].at.Add(-time.Second)), To: p(rows[40].at.Add(time.Second))},
		"empty period":               {From: p(rows[50].at), To: p(rows[40].at)},
		"other zone, half-hour edge": {From: p(rows[30].at.In(lagos).Add(-30 * time.Minute)), To: p(rows[300].at.In(time.FixedZone("IST", 5*3600+1800)))},
		"across the archived month":  {Outcome: string(rules.Approve), From: p(gone.Add(-50 * time.Hour)), To: p(gone.AddDate(0, 1, 0).Add(30 * time.Hour))},
		"inside the archived month":  {From: p(gone.Add(time.Hour)), To: p(gone.Add(20 * 24 * time.Hour))},
	}
	for name, f := range cases {
		got, err := st.List(ctx, a.ID, f, paging.Params{Page: 1, Limit: 5})
		require.NoError(t, err, name)
		require.Equal(t, want(f), got.Total, name)
		require.LessOrEqual(t, len(got.Items), 5, name)
	}
	// A filter the rollups do not key is counted in transactions.
	got, err := st.List(ctx, a.ID, screening.ListParams{Type: "TRANSFER", Outcome: string(rules.Block)}, paging.Params{Page: 1, Limit: 5})
	require.NoError(t, err)
	require.Equal(t, want(screening.ListParams{Outcome: string(rules.Block)}), got.Total)
	got, err = st.List(ctx, a.ID, screening.ListParams{Type: "CARD_PAYMENT"}, paging.Params{Page: 1, Limit: 5})
	require.NoError(t, err)
	require.Zero(t, got.Total)
	require.Positive(t, want(screening.ListParams{}))
}
