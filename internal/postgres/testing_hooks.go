package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/tenancy"
)

// CreateCaseAutomaticForTest runs createCaseTx in a transaction of its own, as the screening
// pipeline will inside its transaction (test fixtures only, until screening lands). fail makes the transaction roll back after the case
// was created, to show that the number is given back.
func (db *DB) CreateCaseAutomaticForTest(ctx context.Context, tenantID tenancy.TenantID, p cases.NewParams, fail error) (cases.Case, error) {
	var c cases.Case
	err := db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		if c, err = db.createCaseTx(ctx, tx, tenantID, p); err != nil {
			return err
		}
		return fail
	})
	return c, err
}

// QueueWebhookForTest queues one webhook event in a transaction of its own, as a capability's
// store does in the transaction of its change (tests and benchmarks only).
func (db *DB) QueueWebhookForTest(ctx context.Context, tenantID tenancy.TenantID, event string, data any) error {
	return db.inTenant(ctx, tenantID, func(tx pgx.Tx) error { return db.queueWebhook(ctx, tx, tenantID, event, data) })
}

// SetWebhookEndpointForTest writes a webhook endpoint without URL validation, to test that the
// sender's own guard refuses forbidden addresses (tests only).
func (db *DB) SetWebhookEndpointForTest(ctx context.Context, tenantID tenancy.TenantID, url, secret string) error {
	return db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `insert into webhook_endpoints (tenant_id, url, secret, updated_at) values ($1, $2, $3, now())
			on conflict (tenant_id) do update set url = excluded.url, secret = excluded.secret, updated_at = now()`,
			string(tenantID), url, secret)
		return err
	})
}
