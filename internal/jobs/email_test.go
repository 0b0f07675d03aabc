package jobs_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/smtp"
)

// TestEmailJobOfSeveralGivesWay: while screening is busy, a job of several emails (the officers'
// emails of a batch of automatic cases) waits before each email, not only before it starts,
// and still sends them all. The waits after it started are bounded together (MaxAgain), so
// that they cannot take the job past its time limit: with five emails, 60 ms a wait and 100 ms
// in all, it waits before it starts, before the second email and (the 40 ms left) before the
// third, and not again.
func TestEmailJobOfSeveralGivesWay(t *testing.T) {
	t.Parallel()
	t.Run("each", func(t *testing.T) {
		t.Parallel()
		testEmailJobGivesWay(t, 3, jobs.Yield{Step: 5 * time.Millisecond, MaxWait: 30 * time.Millisecond}, 3)
	})
	t.Run("bounded", func(t *testing.T) {
		t.Parallel()
		testEmailJobGivesWay(t, 5, jobs.Yield{Step: 5 * time.Millisecond, MaxWait: 60 * time.Millisecond, MaxAgain: 100 * time.Millisecond}, 3)
	})
}

// testEmailJobGivesWay runs a job of n emails with screening always busy and y's limits, and
// checks that all are sent after waits waits.
func testEmailJobGivesWay(t *testing.T, n int, y jobs.Yield, waits int32) {
	ctx := context.Background()
	db, _ := pgtest.Fresh(t)
	tenant := pgtest.Tenant(ctx, t, db).ID
	ids := make([]string, n)
	for i := range ids {
		ids[i] = uuid.NewString()
	}
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `insert into emails (id, tenant_id, kind, to_address, subject, text_body)
			select id, $2, 'case_created', 'officer@bank.example', 'New case', 'A case was opened.' from unnest($1::uuid[]) id`, ids, string(tenant))
		return err
	}))
	var waited atomic.Int32
	y.Busy, y.Waited = func() bool { return true }, func(time.Duration) { waited.Add(1) }
	workers := river.NewWorkers()
	river.AddWorker(workers, &jobs.SendEmailWorker{Outbox: postgres.NewEmailStore(db), Mailer: smtp.LogMailer{Log: slog.New(slog.DiscardHandler)}})
	runner := startRunner(t, db, workers, y)
	_, err := runner.Client.Insert(ctx, notify.SendEmailArgs{TenantID: string(tenant), EmailIDs: ids}, nil)
	require.NoError(t, err)
	logged := func() int { // not asserting: it runs in Eventually's goroutine
		n := -1
		_ = pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
				return err
			}
			return tx.QueryRow(ctx, `select count(*) from emails where tenant_id = $1 and status = 'LOGGED'`, string(tenant)).Scan(&n)
		})
		return n
	}
	require.Eventually(t, func() bool { return logged() == len(ids) }, 20*time.Second, 20*time.Millisecond)
	require.Equal(t, waits, waited.Load())
}
