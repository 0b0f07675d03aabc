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

// insertEmailSQL is an outbox email's insert, in squirrel's spelling: the officers' emails of a
// batch of automatic cases go as multi-row inserts (coalesce.go).
const insertEmailSQL = "INSERT INTO emails (id,tenant_id,kind,to_address,subject,text_body,html_body,created_at) " +
	"VALUES ($1,$2,$3,$4,$5,$6,$7,$8)"

// EmailStore is what the mail worker needs.
type EmailStore struct{ db *DB }

// NewEmailStore returns the email outbox store.
func NewEmailStore(db *DB) *EmailStore { return &EmailStore{db: db} }

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

// MarkAttempt records an attempt's outcome, in one round trip: status SENT/LOGGED on success,
// the error otherwise.
func (s *EmailStore) MarkAttempt(ctx context.Context, tenantID tenancy.TenantID, id, status string, sendErr error) error {
	b := &pgx.Batch{}
	if sendErr != nil {
		b.Queue(`update emails set attempts = attempts + 1, last_error = $3 where tenant_id = $1 and id = $2`,
			string(tenantID), id, sendErr.Error())
	} else {
		b.Queue(`update emails set attempts = attempts + 1, status = $3, sent_at = $4, last_error = null
			where tenant_id = $1 and id = $2`, string(tenantID), id, status, s.db.now())
	}
	return s.db.inTenantBatch(ctx, tenantID, b)
}
