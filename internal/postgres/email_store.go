package postgres

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/tenancy"
)

// queueEmail writes m to the outbox and enqueues its send job in tx.
func (db *DB) queueEmail(ctx context.Context, tx writer, m notify.Message) error {
	if m.ID == "" {
		m.ID = uuid.NewString()
	}
	if _, err := tx.Exec(ctx, insertEmailSQL, m.ID, string(m.TenantID), m.Kind, m.To, m.Subject, m.Text, m.HTML, db.now()); err != nil {
		return fmt.Errorf("insert email: %w", err)
	}
	return db.enqueue(ctx, tx, notify.SendEmailArgs{EmailID: m.ID, TenantID: string(m.TenantID)}, &river.InsertOpts{MaxAttempts: 10})
}

// EmailStore is what the mail worker needs.
type EmailStore struct {
	db    *DB
	marks *writeCoalescer[emailMark] // MarkAttempt's writes
}

// NewEmailStore returns the email outbox store.
func NewEmailStore(db *DB) *EmailStore {
	s := &EmailStore{db: db}
	s.marks = &writeCoalescer[emailMark]{write: s.writeMarks,
		key: func(m emailMark) string { return string(m.tenant) + "/" + m.id }}
	return s
}

// GetMany returns the outbox emails of ids that exist, by id, with their status, in one round
// trip (inTenantBatch): a job's emails are read together (a job of an officer's emails names
// up to notify.EmailsPerJob).
func (s *EmailStore) GetMany(ctx context.Context, tenantID tenancy.TenantID, ids []string) (map[string]notify.Outboxed, error) {
	out := make(map[string]notify.Outboxed, len(ids))
	b := &pgx.Batch{}
	b.Queue(`select id, kind, to_address, subject, text_body, html_body, status from emails where tenant_id = $1 and id = any($2::uuid[])`,
		string(tenantID), ids).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			e := notify.Outboxed{Message: notify.Message{TenantID: tenantID}}
			m := &e.Message
			if err := rows.Scan(&m.ID, &m.Kind, &m.To, &m.Subject, &m.Text, &m.HTML, &e.Status); err != nil {
				return err
			}
			out[m.ID] = e
		}
		return rows.Err()
	})
	if err := s.db.inTenantBatch(ctx, tenantID, b); err != nil {
		return nil, err
	}
	return out, nil
}

// MarkAttempt records an attempt's outcome: status SENT/LOGGED on success, the error
// otherwise. Marks that arrive while another write is in flight are written together
// (write_coalescer.go): with two officers, every automatic case sends two emails, and each mark
// was a commit of its own, 58,428 a minute at 500 screenings/s. The write is not cancelled with
// ctx, only the wait for it: an email that was sent is recorded.
func (s *EmailStore) MarkAttempt(ctx context.Context, tenantID tenancy.TenantID, id, status string, sendErr error) error {
	m := emailMark{tenant: tenantID, id: id}
	if sendErr != nil {
		e := sendErr.Error()
		m.err = &e
	} else {
		m.status = &status
	}
	return s.marks.do(ctx, m)
}

// emailMark is one MarkAttempt call: status on success, err on failure.
type emailMark struct {
	tenant      tenancy.TenantID
	id          string
	status, err *string
}

// markEmailsSQL records attempts of one tenant's ($1) emails in one statement: each gets an
// attempt; a success its status and sent_at ($5) and no error, a failure its error and the
// status and sent_at it had.
const markEmailsSQL = `update emails e set attempts = e.attempts + 1, status = coalesce(i.status, e.status),
	sent_at = case when i.status is null then e.sent_at else $5 end, last_error = i.error
	from unnest($2::uuid[], $3::text[], $4::text[]) as i(id, status, error)
	where e.tenant_id = $1 and e.id = i.id`

// writeMarks writes marks, one statement per tenant (each after its tenant's setting), in one
// round trip and one implicit transaction.
func (s *EmailStore) writeMarks(ctx context.Context, marks []emailMark) error {
	now := s.db.now()
	b := &pgx.Batch{}
	groups := byTenant(marks, func(m emailMark) tenancy.TenantID { return m.tenant },
		func(m emailMark) string { return m.id })
	for _, g := range groups {
		ms := g.items
		ids, statuses, errs := make([]string, len(ms)), make([]*string, len(ms)), make([]*string, len(ms))
		for i, m := range ms {
			ids[i], statuses[i], errs[i] = m.id, m.status, m.err
		}
		b.Queue("select set_config('app.tenant_id', $1, true)", string(g.tenant))
		b.Queue(markEmailsSQL, string(g.tenant), ids, statuses, errs, now)
	}
	if err := dbErr(s.db.Pool.SendBatch(ctx, b).Close()); err != nil {
		return fmt.Errorf("mark emails: %w", err)
	}
	return nil
}
