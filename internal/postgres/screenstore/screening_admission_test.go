package screenstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// stalledStore is a screening store on a pool of one connection, which the test holds: the
// store's reader cannot reach the database until release is called (a stalled database, as far
// as the store can tell).
func stalledStore(t *testing.T, maxQueue int, maxWait ...time.Duration) (*screenstore.ScreeningStore, string, func()) {
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
	o := screenstore.ScreeningStoreOptions{Readers: 1, MaxBatch: 1, MaxQueue: maxQueue}
	if len(maxWait) > 0 {
		o.MaxQueueWait = maxWait[0]
	}
	if len(maxWait) > 1 {
		o.PacedMaxQueueWait = maxWait[1]
	}
	st := screenstore.NewScreeningStore(db, o)
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
		wg.Go(func() { _, _ = st.Prefetch(context.Background(), tx(i), false, admission.Unbudgeted) })
	}
	require.Eventually(t, func() bool {
		// A probe that still finds room waits in the queue: its own short deadline ends the
		// wait (its slot stays taken until the reader drops it, which only fills the queue).
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := st.Prefetch(ctx, tx(99), false, admission.Budgeted)
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
	_, err := st.Prefetch(done, tx, false, admission.Unbudgeted)
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), 50*time.Millisecond, "answered without waiting for the stalled database")

	short, cancelShort := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelShort()
	errc := make(chan error, 1)
	go func() { _, err := st.Prefetch(short, tx, false, admission.Budgeted); errc <- err }()
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

// TestScreeningAdmissionShedsOnQueueDelay: a queue that is not full but not draining (the last
// batch read had waited longer than MaxQueueWait) refuses new screenings at once; when a batch
// waited less, admission resumes. The delay is what the reader measured: after a 300 ms stall
// it reports at least that (issue 15 point 1).
func TestScreeningAdmissionShedsOnQueueDelay(t *testing.T) {
	t.Parallel()
	st, _, release := stalledStore(t, 64, 50*time.Millisecond)
	tx := func(i int) *screening.Transaction {
		return &screening.Transaction{TenantID: "00000000-0000-0000-0000-000000000001", ExternalID: fmt.Sprint("w", i),
			SenderAccountNumber: "3000000001", Timestamp: time.Now()}
	}
	var wg sync.WaitGroup
	for i := range 3 { // one taken by the stalled reader, two waiting
		wg.Go(func() { _, _ = st.Prefetch(context.Background(), tx(i), false, admission.Unbudgeted) })
	}
	probe := func(i int) error {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := st.Prefetch(ctx, tx(i), false, admission.Budgeted)
		return err
	}
	require.Eventually(t, func() bool { return probe(100) != nil }, 5*time.Second, 10*time.Millisecond)

	st.SetQueueWaitForTest(200 * time.Millisecond)
	start := time.Now()
	err := probe(101)
	require.Equal(t, apperr.Unavailable, apperr.CodeOf(err), "%v", err)
	require.Less(t, time.Since(start), 50*time.Millisecond, "refused at once")

	st.SetQueueWaitForTest(10 * time.Millisecond)
	require.ErrorIs(t, probe(102), context.DeadlineExceeded, "a draining queue admits again (and this one waits)")

	time.Sleep(300 * time.Millisecond)
	release()
	wg.Wait()
	require.GreaterOrEqual(t, st.QueueWaitForTest(), 300*time.Millisecond, "the reader measured the stall")
}

// TestScreeningAdmissionShedsOnCommitBacklog: the commit lanes count for admission too. With the
// case lane's commit stuck (another transaction holds the tenant's case counter) and screenings
// queued behind it, a new screening is refused at once with SERVICE_UNAVAILABLE instead of being
// admitted to wait behind the backlog for its commit (and its answer with it). Before, only the
// read queue counted: the read went through, and the answer waited for the stuck lane. Once the
// lane drains, admission reopens and every queued screening is stored.
func TestScreeningAdmissionShedsOnCommitBacklog(t *testing.T) {
	t.Parallel()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{MaxQueueWait: 50 * time.Millisecond,
		PacedMaxQueueWait: time.Minute})
	ten := pgtest.Tenant(ctx, t, db)
	drain := stuckCaseLane(ctx, t, db, st, ten.ID, "backlog-")
	probe := record(ten.ID, "backlog-probe", "").Tx
	// A unary screening always has a deadline (its caller's or COMPLYD_SCREENING_DEADLINE).
	withDeadline := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, 2*time.Second) }
	require.Eventually(t, func() bool {
		start := time.Now()
		pctx, cancel := withDeadline()
		defer cancel()
		_, err := st.Prefetch(pctx, probe, false, admission.Budgeted)
		return apperr.CodeOf(err) == apperr.Unavailable && time.Since(start) < 50*time.Millisecond
	}, 5*time.Second, 10*time.Millisecond, "a screening is refused at once while the case lane is stuck")

	// A stream's screening (its stream's in-flight bound paces it) is not refused for a delay
	// under PacedMaxQueueWait: its read is answered (the read queue is free; only the case lane
	// is stuck).
	pctx, pcancel := context.WithTimeout(ctx, 10*time.Second)
	defer pcancel()
	start := time.Now()
	_, err := st.Prefetch(pctx, record(ten.ID, "backlog-stream", "").Tx, false, admission.Streamed)
	require.NoError(t, err, "a stream's screening is not shed for the delay")
	t.Logf("the stream's read took %v", time.Since(start))

	for i, err := range drain() {
		require.NoError(t, err, "queued screening %d is stored", i)
	}
	require.Eventually(t, func() bool {
		pctx, cancel := withDeadline()
		defer cancel()
		_, err := st.Prefetch(pctx, probe, false, admission.Budgeted)
		return err == nil
	}, 5*time.Second, 10*time.Millisecond, "admission reopens once the lane drains")
}

// stuckCaseLane sticks the case lane and queues screenings behind it: a transaction of the
// test's own holds the tenant's case counter (locked by every case-opening batch until its
// commit), and three case-opening screenings (prefix 0 to 2) are saved, the first taken by the
// lane's committer and stuck, the other two waiting in the lane's queue. drain rolls the holding
// transaction back, waits for the three and returns their errors.
func stuckCaseLane(ctx context.Context, t *testing.T, db *postgres.DB, st *screenstore.ScreeningStore,
	tenant tenancy.TenantID, prefix string) (drain func() []error) {
	t.Helper()
	lock, err := db.Pool.Begin(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { _ = lock.Rollback(ctx) })
	_, err = lock.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant))
	require.NoError(t, err)
	_, err = lock.Exec(ctx, `insert into case_counters (tenant_id, year, last_value) values ($1, $2, 0)
		on conflict (tenant_id, year) do update set last_value = case_counters.last_value`, string(tenant), time.Now().UTC().Year())
	require.NoError(t, err)

	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = st.Save(ctx, record(tenant, fmt.Sprint(prefix, i), "AML_ALERT"))
		})
		time.Sleep(20 * time.Millisecond) // the first takes the lane; the others queue behind it
	}
	return func() []error {
		require.NoError(t, lock.Rollback(ctx)) // the lane drains
		wg.Wait()
		return errs
	}
}

// TestScreeningAdmissionPacedLimit: a stream's screening (admission.Streamed, Pace.Paced) is held to the longer
// PacedMaxQueueWait: with the queue's delay between the two limits a unary screening is refused
// and a stream's waits; past the paced limit the stream's is refused at once too, so a stream
// offered more than the service can screen gets fast errors instead of answers seconds late.
func TestScreeningAdmissionPacedLimit(t *testing.T) {
	t.Parallel()
	st, _, release := stalledStore(t, 64, 50*time.Millisecond, 400*time.Millisecond)
	tx := func(i int) *screening.Transaction {
		return &screening.Transaction{TenantID: "00000000-0000-0000-0000-000000000001", ExternalID: fmt.Sprint("p", i),
			SenderAccountNumber: "3000000001", Timestamp: time.Now()}
	}
	var wg sync.WaitGroup
	for i := range 3 { // one taken by the stalled reader, two waiting
		wg.Go(func() { _, _ = st.Prefetch(context.Background(), tx(i), false, admission.Unbudgeted) })
	}
	require.Eventually(t, func() bool { return st.QueueLenForTest() >= 2 }, 5*time.Second, 5*time.Millisecond)
	unary := func(i int) error {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := st.Prefetch(ctx, tx(i), false, admission.Budgeted)
		return err
	}
	stream := func(i int) error {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := st.Prefetch(ctx, tx(i), false, admission.Streamed)
		return err
	}

	st.SetQueueWaitForTest(200 * time.Millisecond) // between the limits
	require.Equal(t, apperr.Unavailable, apperr.CodeOf(unary(100)), "a unary screening is refused")
	require.ErrorIs(t, stream(101), context.DeadlineExceeded, "a stream's waits")

	st.SetQueueWaitForTest(time.Second) // past the paced limit
	start := time.Now()
	require.Equal(t, apperr.Unavailable, apperr.CodeOf(stream(102)), "a stream's is refused")
	require.Less(t, time.Since(start), 50*time.Millisecond, "at once")

	release()
	wg.Wait()
}
