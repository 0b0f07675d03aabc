package postgres_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/screening"
)

// stalledStore is a screening store on a pool of one connection, which the test holds: the
// store's reader cannot reach the database until release is called (a stalled database, as far
// as the store can tell).
func stalledStore(t *testing.T, maxQueue int) (*postgres.ScreeningStore, string, func()) {
	t.Helper()
	ctx := context.Background()
	_, url := pgtest.Fresh(t)
	db, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 1, Logger: slog.New(slog.DiscardHandler), CredentialsKey: pgtest.CredentialsKey})
	require.NoError(t, err)
	t.Cleanup(db.Close)
	held, err := db.Pool.Acquire(ctx)
	require.NoError(t, err)
	var once sync.Once
	release := func() { once.Do(held.Release) }
	t.Cleanup(release)
	st := postgres.NewScreeningStore(db, postgres.ScreeningStoreOptions{Readers: 1, MaxBatch: 1, MaxQueue: maxQueue})
	t.Cleanup(st.Close)
	return st, url, release
}

// TestScreeningAdmissionShedsWhenFull: with the database stalled and the admission queue full,
// a new screening is refused at once with SERVICE_UNAVAILABLE and Retry-After instead of
// waiting behind the backlog (issue 15 point 1).
func TestScreeningAdmissionShedsWhenFull(t *testing.T) {
	t.Parallel()
	st, _, release := stalledStore(t, 4)
	tx := func(i int) *screening.Transaction {
		return &screening.Transaction{TenantID: "00000000-0000-0000-0000-000000000001", ExternalID: fmt.Sprint("x", i),
			SenderAccountNumber: "3000000001", Timestamp: time.Now()}
	}
	var wg sync.WaitGroup
	for i := range 5 { // one taken by the stalled reader, four fill the queue
		wg.Go(func() { _, _ = st.Prefetch(context.Background(), tx(i), false) })
	}
	require.Eventually(t, func() bool {
		// A probe that still finds room waits in the queue: its own short deadline ends the
		// wait (its slot stays taken until the reader drops it, which only fills the queue).
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := st.Prefetch(ctx, tx(99), false)
		if apperr.CodeOf(err) != apperr.Unavailable {
			return false
		}
		e, _ := apperr.As(err)
		return e.RetryAfter == time.Second && time.Since(start) < 50*time.Millisecond
	}, 5*time.Second, 10*time.Millisecond, "a full queue refuses at once")
	release()
	wg.Wait()
}

// TestScreeningExpiredDeadlineNeverQueued: a screening whose caller has already gone is refused
// before it is queued or costs a database round trip, and one that expires while queued is
// dropped by the reader; Save of a screening whose caller has gone stores nothing (issue 15).
func TestScreeningExpiredDeadlineNeverQueued(t *testing.T) {
	t.Parallel()
	st, url, release := stalledStore(t, 16)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tx := &screening.Transaction{TenantID: "00000000-0000-0000-0000-000000000001", ExternalID: "gone",
		SenderAccountNumber: "3000000001", Timestamp: time.Now()}
	start := time.Now()
	_, err := st.Prefetch(done, tx, false)
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), 50*time.Millisecond, "answered without waiting for the stalled database")

	short, cancelShort := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelShort()
	errc := make(chan error, 1)
	go func() { _, err := st.Prefetch(short, tx, false); errc <- err }()
	time.Sleep(150 * time.Millisecond)
	release()
	require.ErrorIs(t, <-errc, context.DeadlineExceeded)

	// The store's reader now holds the stalled pool's only connection: look with another pool.
	ctx := context.Background()
	db, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 2, Logger: slog.New(slog.DiscardHandler), CredentialsKey: pgtest.CredentialsKey})
	require.NoError(t, err)
	t.Cleanup(db.Close)
	ten := pgtest.Tenant(ctx, t, db)
	rec := &screening.Record{Tx: &screening.Transaction{TenantID: ten.ID, ExternalID: "never-stored", Type: "TRANSFER",
		Channel: "MOBILE_APP", SenderAccountNumber: "3000000001", SenderName: "A B", Timestamp: time.Now()}}
	_, err = st.Save(done, rec)
	require.ErrorIs(t, err, context.Canceled)
	var n int
	require.NoError(t, db.Pool.QueryRow(ctx, "select count(*) from transactions where external_id = 'never-stored'").Scan(&n))
	require.Zero(t, n)
}
