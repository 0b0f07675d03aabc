package webhookstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// WebhookStore implements webhook.Store and the delivery worker's outbox (jobs.WebhookOutbox).
type WebhookStore struct {
	db       *postgres.DB
	attempts *postgres.WriteCoalescer[*attemptRecord] // RecordAttempt's writes (webhook_attempts.go)
}

// NewWebhookStore returns the store.
func NewWebhookStore(db *postgres.DB) *WebhookStore {
	return &WebhookStore{db: db, attempts: newAttemptWriter(db)}
}

var _ webhook.Store = (*WebhookStore)(nil)

// getEndpoint reads the tenant's endpoint; the signing secret is stored sealed (sealer.go).
func getEndpoint(db *postgres.DB, ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, lock bool) (webhook.Endpoint, error) {
	q := endpointSQL
	if lock {
		q += " for update"
	}
	return scanEndpoint(db, tenantID, tx.QueryRow(ctx, q, string(tenantID)))
}

// endpointSQL reads a tenant's webhook endpoint ($1), its secret sealed (scanEndpoint opens it).
const endpointSQL = "select url, secret, updated_at from webhook_endpoints where tenant_id = $1"

// scanEndpoint reads endpointSQL's row, the secret opened; no row is the zero endpoint (webhooks
// off).
func scanEndpoint(db *postgres.DB, tenantID tenancy.TenantID, row pgx.Row) (webhook.Endpoint, error) {
	var e webhook.Endpoint
	err := row.Scan(&e.URL, &e.Secret, &e.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return webhook.Endpoint{}, nil
	} else if err != nil {
		return e, err
	}
	e.Secret, err = db.Seal().OpenText(tenantID, e.Secret)
	return e, err
}

// Endpoint implements webhook.Store.
func (s *WebhookStore) Endpoint(ctx context.Context, tenantID tenancy.TenantID) (webhook.Endpoint, error) {
	var e webhook.Endpoint
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		e, err = getEndpoint(s.db, ctx, tx, tenantID, false)
		return err
	})
	return e, err
}

// UpdateEndpoint implements webhook.Store.
func (s *WebhookStore) UpdateEndpoint(ctx context.Context, tenantID tenancy.TenantID, fn func(*webhook.Endpoint) (audit.Event, error)) (webhook.Endpoint, error) {
	var e webhook.Endpoint
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		// Create the row first so that concurrent PATCHes serialise on its lock.
		if _, err := tx.Exec(ctx, `insert into webhook_endpoints (tenant_id, updated_at) values ($1, $2)
			on conflict (tenant_id) do nothing`, string(tenantID), s.db.Now()); err != nil {
			return fmt.Errorf("create webhook endpoint: %w", err)
		}
		var err error
		if e, err = getEndpoint(s.db, ctx, tx, tenantID, true); err != nil {
			return err
		}
		ev, err := fn(&e)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "update webhook_endpoints set url = $2, secret = $3, updated_at = $4 where tenant_id = $1",
			string(tenantID), e.URL, s.db.Seal().SealText(tenantID, e.Secret), e.UpdatedAt); err != nil {
			return fmt.Errorf("update webhook endpoint: %w", err)
		}
		return postgres.InsertAudit(ctx, tx, ev, s.db.Now())
	})
	return e, err
}

const deliveryColumns = "id, tenant_id, event_id, event, url, payload, status, attempts, last_status_code, last_error, " +
	"next_attempt_at, delivered_at, dead_at, created_at"

type deliveryRow struct {
	ID             string     `db:"id"`
	TenantID       string     `db:"tenant_id"`
	EventID        string     `db:"event_id"`
	Event          string     `db:"event"`
	URL            string     `db:"url"`
	Payload        []byte     `db:"payload"`
	Status         string     `db:"status"`
	Attempts       int        `db:"attempts"`
	LastStatusCode *int       `db:"last_status_code"`
	LastError      string     `db:"last_error"`
	NextAttemptAt  *time.Time `db:"next_attempt_at"`
	DeliveredAt    *time.Time `db:"delivered_at"`
	DeadAt         *time.Time `db:"dead_at"`
	CreatedAt      time.Time  `db:"created_at"`
}

func toDelivery(r deliveryRow) webhook.Delivery {
	return webhook.Delivery{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), EventID: r.EventID, Event: r.Event, URL: r.URL,
		Payload: r.Payload, Status: r.Status, Attempts: r.Attempts, LastStatusCode: r.LastStatusCode, LastError: r.LastError,
		NextAttemptAt: r.NextAttemptAt, DeliveredAt: r.DeliveredAt, DeadAt: r.DeadAt, CreatedAt: r.CreatedAt}
}

func getDelivery(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string, lock bool) (webhook.Delivery, error) {
	b := postgres.Psql.Select(deliveryColumns).From("webhook_deliveries").Where(sq.Eq{"tenant_id": string(tenantID), "id": id})
	if lock {
		b = b.Suffix("FOR UPDATE")
	}
	r, err := postgres.One[deliveryRow](ctx, tx, b, "webhook delivery")
	return toDelivery(r), err
}

// Deliveries implements webhook.Store.
func (s *WebhookStore) Deliveries(ctx context.Context, tenantID tenancy.TenantID, status string, p paging.Params) (paging.Result[webhook.Delivery], error) {
	res := paging.Result[webhook.Delivery]{Page: p.Page, Limit: p.Limit, Items: []webhook.Delivery{}}
	where := sq.Eq{"tenant_id": string(tenantID)}
	if status != "" {
		where["status"] = status
	}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := postgres.Count(ctx, tx, postgres.Psql.Select("count(*)").From("webhook_deliveries").Where(where))
		if err != nil {
			return err
		}
		rows, err := postgres.Collect[deliveryRow](ctx, tx, postgres.Psql.Select(deliveryColumns).From("webhook_deliveries").Where(where).
			OrderBy("created_at DESC", "id DESC").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, toDelivery(r))
		}
		return nil
	})
	return res, err
}

// RetryDelivery implements webhook.Store.
func (s *WebhookStore) RetryDelivery(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*webhook.Delivery) (audit.Event, error)) (webhook.Delivery, error) {
	var d webhook.Delivery
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		if d, err = getDelivery(ctx, tx, tenantID, id, true); err != nil {
			return err
		}
		ev, err := fn(&d)
		if err != nil {
			return err
		}
		if err := writeDelivery(ctx, tx, d); err != nil {
			return err
		}
		if err := s.db.Enqueue(ctx, tx, webhook.DeliverArgs{DeliveryID: d.ID, TenantID: tenantID, Attempt: d.Attempts}, postgres.DeliverOpts(nil)); err != nil {
			return err
		}
		return postgres.InsertAudit(ctx, tx, ev, s.db.Now())
	})
	return d, err
}

func writeDelivery(ctx context.Context, tx pgx.Tx, d webhook.Delivery) error {
	_, err := tx.Exec(ctx, `update webhook_deliveries set status = $3, attempts = $4, last_status_code = $5, last_error = $6,
		next_attempt_at = $7, delivered_at = $8, dead_at = $9 where tenant_id = $1 and id = $2`,
		string(d.TenantID), d.ID, d.Status, d.Attempts, d.LastStatusCode, d.LastError, d.NextAttemptAt, d.DeliveredAt, d.DeadAt)
	if err != nil {
		return fmt.Errorf("update webhook delivery: %w", err)
	}
	return nil
}

// Load returns a delivery and the tenant's current secret, for the worker, in one round trip
// (LoadMany). Errors: NOT_FOUND (also once purged).
func (s *WebhookStore) Load(ctx context.Context, tenantID tenancy.TenantID, id string) (webhook.Delivery, string, error) {
	ds, secret, err := s.LoadMany(ctx, tenantID, []string{id})
	if err != nil {
		return webhook.Delivery{}, "", err
	}
	if len(ds) == 0 {
		return webhook.Delivery{}, "", postgres.MapErr(pgx.ErrNoRows, "webhook delivery")
	}
	return ds[0], secret, nil
}

// LoadMany returns the deliveries of ids that still exist (a purged one is left out), in the
// order of ids, and the tenant's current secret, in one round trip: a job of several first
// attempts (webhook.DeliverArgs.DeliveryIDs).
func (s *WebhookStore) LoadMany(ctx context.Context, tenantID tenancy.TenantID, ids []string) ([]webhook.Delivery, string, error) {
	var rows []deliveryRow
	var e webhook.Endpoint
	b := &pgx.Batch{}
	b.Queue("select "+deliveryColumns+" from webhook_deliveries where tenant_id = $1 and id = any($2)", string(tenantID), ids).
		Query(func(r pgx.Rows) (err error) {
			rows, err = pgx.CollectRows(r, pgx.RowToStructByName[deliveryRow])
			return err
		})
	b.Queue(endpointSQL, string(tenantID)).QueryRow(func(row pgx.Row) (err error) {
		e, err = scanEndpoint(s.db, tenantID, row)
		return err
	})
	if err := s.db.InTenantBatch(ctx, tenantID, b); err != nil {
		return nil, "", err
	}
	byID := make(map[string]deliveryRow, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	out := make([]webhook.Delivery, 0, len(rows))
	for _, id := range ids {
		if r, ok := byID[id]; ok {
			out = append(out, toDelivery(r))
			delete(byID, id)
		}
	}
	return out, e.Secret, nil
}

// Requeue enqueues the first attempt of each delivery of ids as a job of its own: what a job of
// several first attempts leaves when it runs out of time (jobs.DeliverWebhookWorker).
func (s *WebhookStore) Requeue(ctx context.Context, tenantID tenancy.TenantID, ids []string) error {
	jobs := make([]river.InsertManyParams, len(ids))
	for i, id := range ids {
		jobs[i] = river.InsertManyParams{Args: webhook.DeliverArgs{DeliveryID: id, TenantID: tenantID}, InsertOpts: postgres.DeliverOpts(nil)}
	}
	return s.db.Global(ctx, func(tx pgx.Tx) error {
		if _, err := s.db.River().InsertManyTx(ctx, tx, jobs); err != nil {
			return fmt.Errorf("requeue webhook deliveries: %w", err)
		}
		return nil
	})
}

// RecordAttempt stores one attempt's outcome (d is the delivery after RecordSuccess or
// RecordFailure; prevAttempts its count before the attempt). The update is conditional on the
// row still having prevAttempts attempts, so a duplicate run of the same job records nothing
// (it reports false). When d is FAILED the next attempt's job is enqueued in the same
// transaction, at d.NextAttemptAt: the retry schedule lives in the database and survives a
// restart. Records that arrive while another write is in flight are written together
// (webhook_attempts.go). The write is not cancelled with ctx, only the wait for it (the job is
// then retried and finds the attempt recorded): an attempt that was made is recorded. Errors:
// INTERNAL.
func (s *WebhookStore) RecordAttempt(ctx context.Context, d webhook.Delivery, prevAttempts int, a webhook.Attempt) (bool, error) {
	r := &attemptRecord{d: d, prev: prevAttempts, a: a}
	if err := s.attempts.Do(ctx, r); err != nil {
		return false, err // r.recorded may still be written by the writer: not read here
	}
	return r.recorded, nil
}

// Attempts returns the recorded attempts of a delivery, in order. Errors: INTERNAL.
func (s *WebhookStore) Attempts(ctx context.Context, tenantID tenancy.TenantID, deliveryID string) ([]webhook.Attempt, error) {
	var out []webhook.Attempt
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select attempt, coalesce(status_code, 0), error, duration_ms, attempted_at from webhook_attempts
			where tenant_id = $1 and delivery_id = $2 order by attempted_at, id`, string(tenantID), deliveryID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a webhook.Attempt
			var ms int64
			if err := rows.Scan(&a.Number, &a.StatusCode, &a.Error, &ms, &a.At); err != nil {
				return err
			}
			a.Duration = time.Duration(ms) * time.Millisecond
			out = append(out, a)
		}
		return rows.Err()
	})
	return out, err
}

// PurgeDead deletes DEAD deliveries that died before cutoff, tenant by tenant (each in its own
// row-level-security scope), and returns how many it deleted. Errors: INTERNAL.
func (s *WebhookStore) PurgeDead(ctx context.Context, cutoff time.Time) (int, error) {
	ids, err := s.db.TenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, id := range ids {
		err := s.db.InTenant(ctx, id, func(tx pgx.Tx) error {
			tag, err := tx.Exec(ctx, `delete from webhook_deliveries where tenant_id = $1 and status = 'DEAD' and dead_at < $2`, string(id), cutoff)
			total += int(tag.RowsAffected())
			return err
		})
		if err != nil {
			return total, fmt.Errorf("purge dead webhooks: %w", err)
		}
	}
	return total, nil
}

// Delivery returns one delivery of the tenant. Errors: NOT_FOUND.
func (s *WebhookStore) Delivery(ctx context.Context, tenantID tenancy.TenantID, id string) (webhook.Delivery, error) {
	var d webhook.Delivery
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		d, err = getDelivery(ctx, tx, tenantID, id, false)
		return err
	})
	return d, err
}
