package screenstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
)

// TestScreeningWindowAcrossMonthBoundary: a screening just after 1 February with history in
// December, January and February (three partitions) gets its 24-hour count and sum, 60-minute
// count, 90 days' count and mean and last activity exactly, from the grains and the raw rows
// of both sides of the boundary, and equal to the old statement that scanned the raw rows.
func TestScreeningWindowAcrossMonthBoundary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := pgtest.Fresh(t)
	ten := pgtest.Tenant(ctx, t, db)
	_, err := postgres.NewPartitionStore(db).EnsurePartitions(ctx, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	feb := time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)
	const acct = "4300000001"
	history := []struct {
		at     time.Time
		amount string
	}{
		{time.Date(2026, 12, 20, 10, 0, 0, 0, time.UTC), "100"},
		{feb.Add(-25 * time.Hour), "150"},      // 31 January, outside 24 hours
		{feb.Add(-50 * time.Minute), "200"},    // January, inside 60 minutes
		{feb.Add(-30 * time.Second), "300.50"}, // January's last minute
		{feb, "400"},                           // February's first instant
		{feb.Add(10*time.Minute + time.Second), "500.25"},
	}
	for i, h := range history {
		seedTx(ctx, t, db, ten.ID, fmt.Sprintf("mb-%d", i), acct, h.amount, h.at)
	}
	var parts []string
	require.NoError(t, asTenant(ctx, db, ten.ID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select distinct tableoid::regclass::text from transactions order by 1`)
		if err != nil {
			return err
		}
		parts, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	}))
	require.Equal(t, []string{"transactions_p202612", "transactions_p202701", "transactions_p202702"}, parts)

	at := feb.Add(20 * time.Minute)
	cur, err := screenstore.PrefetchHistoryForTest(db, ctx, ten.ID, []string{acct}, []time.Time{at}, false)
	require.NoError(t, err)
	old, err := screenstore.PrefetchHistoryForTest(db, ctx, ten.ID, []string{acct}, []time.Time{at}, true)
	require.NoError(t, err)
	requireSameHistory(t, old[0], cur[0], "at "+at.Format(time.RFC3339))
	h := cur[0].History
	require.Equal(t, 4, h.Count24h)
	require.True(t, decimal.RequireFromString("1400.75").Equal(h.Sum24hNGN), "sum24h %s", h.Sum24hNGN)
	require.Equal(t, 3, h.Count60m)
	require.Equal(t, 6, h.Amounts.Count)
	require.True(t, decimal.RequireFromString("1650.75").Div(decimal.NewFromInt(6)).Round(8).Equal(h.Amounts.Mean.Round(8)),
		"mean %s", h.Amounts.Mean)
	require.NotNil(t, h.LastActivityAt)
	require.True(t, h.LastActivityAt.Equal(feb.Add(10*time.Minute+time.Second)), "last activity %s", h.LastActivityAt)
}
