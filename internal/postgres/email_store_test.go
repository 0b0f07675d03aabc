package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// TestEmailGetMany: the mail worker reads a job's emails in one call, by id with their status,
// and only the job's tenant's: another tenant's email, and one that does not exist, are not
// returned.
func TestEmailGetMany(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	store := postgres.NewEmailStore(db)
	a, b := pgtest.Tenant(ctx, t, db).ID, pgtest.Tenant(ctx, t, db).ID
	queued, sent, other, missing := uuid.NewString(), uuid.NewString(), uuid.NewString(), uuid.NewString()
	admin := pgtest.Admin(ctx, t)
	for _, e := range []struct{ id, tenant, status string }{{queued, string(a), "QUEUED"}, {sent, string(a), "SENT"}, {other, string(b), "QUEUED"}} {
		_, err := admin.Exec(ctx, `insert into emails (id, tenant_id, kind, to_address, subject, text_body, html_body, status)
			values ($1, $2, 'case_created', 'officer@bank.example', 'New case', 'text', '<p>html</p>', $3)`, e.id, e.tenant, e.status)
		require.NoError(t, err)
	}
	got, err := store.GetMany(ctx, a, []string{queued, sent, other, missing})
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, notify.Outboxed{Status: "QUEUED", Message: notify.Message{ID: queued, TenantID: a, Kind: "case_created",
		To: "officer@bank.example", Subject: "New case", Text: "text", HTML: "<p>html</p>"}}, got[queued])
	require.Equal(t, "SENT", got[sent].Status)
}

// emailsFixture inserts n QUEUED emails for the tenant and returns their ids.
func emailsFixture(ctx context.Context, t *testing.T, tenant tenancy.TenantID, n int) []string {
	t.Helper()
	admin := pgtest.Admin(ctx, t)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = uuid.NewString()
		_, err := admin.Exec(ctx, `insert into emails (id, tenant_id, kind, to_address, subject, text_body, html_body)
			values ($1, $2, 'case_created', $3, 'New case', 'text', '<p>html</p>')`, ids[i], string(tenant), fmt.Sprintf("officer%d@bank.example", i))
		require.NoError(t, err)
	}
	return ids
}

// TestEmailMarksWrittenTogether: marks that arrive while another is being written are written
// together, in one transaction (their rows share its xmin), instead of a commit each. Here the
// first mark is held by a lock on its email while twenty more arrive.
func TestEmailMarksWrittenTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	store := postgres.NewEmailStore(db)
	tenant := pgtest.Tenant(ctx, t, db).ID
	ids := emailsFixture(ctx, t, tenant, 21)

	mark := func(id string) func() {
		return func() { require.NoError(t, store.MarkAttempt(ctx, tenant, id, notify.StatusSent, nil)) }
	}
	var rest []func()
	for _, id := range ids[1:] {
		rest = append(rest, mark(id))
	}
	writeBehindALock(ctx, t, "emails", ids[0], mark(ids[0]), rest)

	var txs, sent int
	require.NoError(t, pgtest.Admin(ctx, t).QueryRow(ctx, `select count(distinct xmin::text), count(*) filter (where status = 'SENT')
		from emails where id = any($1::uuid[])`, ids[1:]).Scan(&txs, &sent))
	require.Equal(t, 20, sent)
	require.Equal(t, 1, txs, "the twenty marks that queued behind the first are written in one transaction")
}

// TestEmailMarksConcurrent: many workers of two tenants mark at once, successes and failures,
// some twice (a job run twice): each email gets exactly its attempts, a success its status,
// sent_at and no error, a failure its error and its old status, under each tenant's row-level
// security (an email marked under the wrong tenant would be left unchanged).
func TestEmailMarksConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	store := postgres.NewEmailStore(db)
	a, b := pgtest.Tenant(ctx, t, db).ID, pgtest.Tenant(ctx, t, db).ID
	type email struct {
		tenant tenancy.TenantID
		id     string
	}
	var emails []email
	for _, id := range emailsFixture(ctx, t, a, 40) {
		emails = append(emails, email{a, id})
	}
	for _, id := range emailsFixture(ctx, t, b, 20) {
		emails = append(emails, email{b, id})
	}
	var wg sync.WaitGroup
	for i, e := range emails {
		copies := 1
		if i%7 == 6 {
			copies = 2
		}
		for range copies {
			wg.Go(func() {
				var sendErr error
				if i%3 == 0 {
					sendErr = errors.New("smtp: 451 try later")
				}
				status := notify.StatusSent
				if i%5 == 1 {
					status = notify.StatusLogged
				}
				require.NoError(t, store.MarkAttempt(ctx, e.tenant, e.id, status, sendErr))
			})
		}
	}
	wg.Wait()

	admin := pgtest.Admin(ctx, t)
	for i, e := range emails {
		var tenant, status string
		var attempts int
		var sentAt *time.Time
		var lastErr *string
		require.NoError(t, admin.QueryRow(ctx, `select tenant_id::text, status, attempts, sent_at, last_error from emails where id = $1`, e.id).
			Scan(&tenant, &status, &attempts, &sentAt, &lastErr))
		require.Equal(t, string(e.tenant), tenant)
		want := 1
		if i%7 == 6 {
			want = 2
		}
		require.Equal(t, want, attempts, "email %d", i)
		switch {
		case i%3 == 0:
			require.Equal(t, "QUEUED", status, "email %d", i)
			require.Nil(t, sentAt)
			require.NotNil(t, lastErr)
			require.Equal(t, "smtp: 451 try later", *lastErr)
		case i%5 == 1:
			require.Equal(t, notify.StatusLogged, status, "email %d", i)
			require.NotNil(t, sentAt)
			require.Nil(t, lastErr)
		default:
			require.Equal(t, notify.StatusSent, status, "email %d", i)
			require.NotNil(t, sentAt)
			require.Nil(t, lastErr)
		}
	}
}

// TestEmailMarkWaitEndsWithContext: a mark whose write cannot go through (here its row is
// locked) stops waiting when the job's context ends, so that a job at its time limit returns
// instead of waiting past the time after which River runs it again; the mark is still written
// once the row is free, so the job's retry finds the email sent and does not send it twice.
func TestEmailMarkWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	store := postgres.NewEmailStore(db)
	tenant := pgtest.Tenant(ctx, t, db).ID
	id := emailsFixture(ctx, t, tenant, 1)[0]
	admin := pgtest.Admin(ctx, t)
	lock := lockRow(ctx, t, "emails", id)

	jobCtx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	returned := make(chan error, 1)
	go func() { returned <- store.MarkAttempt(jobCtx, tenant, id, notify.StatusSent, nil) }()
	select {
	case err := <-returned:
		require.ErrorIs(t, err, context.DeadlineExceeded)
	case <-time.After(3 * time.Second):
		require.NoError(t, lock.Rollback(ctx))
		<-returned
		t.Fatal("the mark waited for its write past the job's context")
	}
	require.NoError(t, lock.Rollback(ctx))
	require.Eventually(t, func() bool {
		var status string
		require.NoError(t, admin.QueryRow(ctx, "select status from emails where id = $1", id).Scan(&status))
		return status == notify.StatusSent
	}, 5*time.Second, 20*time.Millisecond, "the mark is written once the row is free")
}
