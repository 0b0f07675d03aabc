package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestBacktestStore: the rows of a period, newest first, each with the sender's history before
// it as enrichment computes it (24 h count and NGN sum, 60 min count, last activity), history
// before the period included; another tenant's rows are not seen; Backtest counts on them.
func TestBacktestStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	a, b := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	t0 := time.Now().UTC().Truncate(time.Second)
	insert := func(tenant tenancy.TenantID, ext, account string, amount int, at time.Time) {
		require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
				sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
				engine_verdicts, total_latency_ms, processed_at, created_at)
				values (gen_random_uuid(), $1, $2, 'TRANSFER', 'MOBILE_APP', $3, 'NGN', $3, $4, 'A B', $5, 'vrd_' || $2, 'APPROVE', 'LOW', 0,
				'{}', '[]', 1, now(), now())`, string(tenant), ext, amount, account, at)
			return err
		}))
	}
	insert(a.ID, "a-25h", "1111111111", 100, t0.Add(-25*time.Hour))
	insert(a.ID, "a-2h", "1111111111", 200, t0.Add(-2*time.Hour))
	insert(a.ID, "a-30m", "1111111111", 300, t0.Add(-30*time.Minute))
	insert(a.ID, "a-0", "1111111111", 400, t0)
	insert(a.ID, "other-0", "2222222222", 500, t0.Add(-time.Second))
	insert(b.ID, "b-0", "1111111111", 600, t0)

	store := postgres.NewBacktestStore(db)
	q := screening.BacktestQuery{TenantID: a.ID, From: t0.Add(-time.Hour), To: t0.Add(time.Minute), Limit: 10}
	type seen struct {
		ext           string
		c24, c60      int
		sum24         string
		lastActivity  *time.Time
		amountNGN     string
		kycStatusNone bool
	}
	var got []seen
	require.NoError(t, store.Stream(ctx, q, func(r *screening.BacktestRow) error {
		got = append(got, seen{ext: r.Tx.ExternalID, c24: r.History.Count24h, c60: r.History.Count60m, sum24: r.History.Sum24hNGN.String(),
			lastActivity: r.History.LastActivityAt, amountNGN: r.AmountNGN.String(), kycStatusNone: r.KYC.Status == "NONE"})
		return nil
	}))
	require.Len(t, got, 3)
	require.Equal(t, []string{"a-0", "other-0", "a-30m"}, []string{got[0].ext, got[1].ext, got[2].ext})
	require.Equal(t, 2, got[0].c24)
	require.Equal(t, 1, got[0].c60)
	require.Equal(t, "500", got[0].sum24)
	require.WithinDuration(t, t0.Add(-30*time.Minute), *got[0].lastActivity, time.Millisecond)
	require.Equal(t, "400", got[0].amountNGN)
	require.True(t, got[0].kycStatusNone)
	require.Equal(t, 0, got[1].c24)
	require.Nil(t, got[1].lastActivity)
	require.Equal(t, 1, got[2].c24, "the transaction 25 hours before is outside the 24 hours")
	require.Equal(t, 0, got[2].c60)

	prg, err := rules.Compile("ctx.count24h >= 1 && tx.amountMinor >= 30000")
	require.NoError(t, err)
	res, err := screening.Backtest(ctx, store, screening.BacktestParams{Query: q, Program: prg, MaxExamples: 10}, time.Now)
	require.NoError(t, err)
	require.Equal(t, 3, res.Scanned)
	require.Equal(t, 2, res.Matched)
	require.False(t, res.Truncated)
	q.Limit = 2
	res, err = screening.Backtest(ctx, store, screening.BacktestParams{Query: q, Program: prg, MaxExamples: 1}, time.Now)
	require.NoError(t, err)
	require.Equal(t, 2, res.Scanned)
	require.True(t, res.Truncated)
	require.Len(t, res.Examples, 1)
	q.Limit = 3
	res, err = screening.Backtest(ctx, store, screening.BacktestParams{Query: q, Program: prg}, time.Now)
	require.NoError(t, err)
	require.False(t, res.Truncated, "exactly the bound is not truncated")

	// A time bound that has passed ends the scan as truncated, not as an error.
	res, err = screening.Backtest(ctx, store, screening.BacktestParams{Query: q, Program: prg, Timeout: time.Nanosecond}, time.Now)
	require.NoError(t, err)
	require.True(t, res.Truncated)
}
