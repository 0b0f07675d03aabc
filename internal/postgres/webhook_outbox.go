package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/tenancy"
)

// queueWebhook records event for the tenant's webhook endpoint and enqueues its delivery in tx,
// so the event commits (or not) with the change that caused it (decisions.md §9).
//
// The webhooks capability (issue 5) replaces this body with the delivery outbox; until then no
// tenant can configure a webhook URL, so there is nothing to deliver.
func (db *DB) queueWebhook(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, event string, data any) error {
	_, _, _, _, _ = ctx, tx, tenantID, event, data
	return nil
}
