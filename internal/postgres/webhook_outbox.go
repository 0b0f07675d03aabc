package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// queueWebhook records event for the tenant's webhook endpoint and enqueues its delivery in tx,
// so the event commits (or not) with the change that caused it (docs/design/design-choices.md §9).
//
// It reads the tenant's webhook URL. With a URL configured it builds the payload
// {id, event, timestamp, tenantId, data} once (the exact bytes every attempt sends and signs),
// inserts a PENDING webhook_deliveries row and enqueues the first webhook_deliver job
// (DeliverArgs{Attempt: 0}). With no URL configured it records nothing: events that happen while
// webhooks are off are not kept for later (docs/guide/webhooks.md). The secret is read at each attempt,
// so a rotated secret applies to pending retries.
func (db *DB) queueWebhook(ctx context.Context, tx writer, tenantID tenancy.TenantID, event string, data any) error {
	url, err := webhookURL(ctx, tx, tenantID)
	if err != nil || url == "" {
		return err
	}
	now := db.now()
	d, err := webhook.NewDelivery(url, webhook.NewPayload(tenantID, event, data, now), now)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, insertWebhookDeliverySQL,
		d.ID, string(tenantID), d.EventID, d.Event, d.URL, d.Payload, d.Status, 0, d.NextAttemptAt, d.CreatedAt); err != nil {
		return fmt.Errorf("insert webhook delivery: %w", err)
	}
	return db.enqueue(ctx, tx, webhook.DeliverArgs{DeliveryID: d.ID, TenantID: tenantID}, deliverOpts(nil))
}

// deliverOpts are the River options of a webhook_deliver job. River's own retries only cover
// infrastructure errors (the database is unreachable while loading or recording): failed HTTP
// attempts are recorded and rescheduled by the worker, counted in webhook_deliveries.attempts.
func deliverOpts(o *river.InsertOpts) *river.InsertOpts {
	if o == nil {
		o = &river.InsertOpts{}
	}
	o.MaxAttempts = 10
	return o
}

// webhookURL returns the tenant's webhook URL, "" when none is configured (for a *pipelined
// writer, the URL its caller read ahead with the batch's other reads).
func webhookURL(ctx context.Context, tx writer, tenantID tenancy.TenantID) (string, error) {
	if p, ok := tx.(*pipelined); ok {
		if url, ok := p.urls[tenantID]; ok {
			return url, nil
		}
	}
	var url string
	err := tx.QueryRow(ctx, webhookURLSQL, string(tenantID)).Scan(&url)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("read webhook endpoint: %w", err)
	}
	return url, nil
}

const webhookURLSQL = "select url from webhook_endpoints where tenant_id = $1"
