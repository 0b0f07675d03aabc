package webhookstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/webhookstore"
	"github.com/complyd/complyd/internal/webhook"
)

// TestDeliveryWorkerReadsAndRecords covers what the webhook worker asks of the store, each in
// one round trip under the tenant's row-level security: Load returns the delivery with the
// endpoint's current secret (another tenant's delivery is NOT_FOUND); RecordAttempt of a
// success stores the attempt once (the same attempt again records nothing, as a duplicate job
// must), and the rollup moves the delivery from PENDING to DELIVERED.
func TestDeliveryWorkerReadsAndRecords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t) // a delivery of a fixed id: a database of its own
	admin := pgtest.AdminOf(ctx, t, url)
	store := webhookstore.NewWebhookStore(db)
	ten, other := pgtest.Tenant(ctx, t, db).ID, pgtest.Tenant(ctx, t, db).ID
	setEndpoint(ctx, t, store, ten, "whsec-current")
	created := time.Now().UTC().Truncate(time.Microsecond)
	_, err := admin.Exec(ctx, `insert into webhook_deliveries (id, tenant_id, event_id, event, url, payload, status,
		attempts, next_attempt_at, created_at) values ('whd_worker_1', $1, 'evt_1', 'case.created', 'https://bank.example/hook',
		'{"event":"case.created"}', 'PENDING', 0, null, $2)`, string(ten), created)
	require.NoError(t, err)

	_, _, err = store.Load(ctx, other, "whd_worker_1")
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
	d, secret, err := store.Load(ctx, ten, "whd_worker_1")
	require.NoError(t, err)
	require.Equal(t, "whsec-current", secret)
	require.Equal(t, []any{"whd_worker_1", "case.created", webhook.StatusPending, 0, `{"event":"case.created"}`},
		[]any{d.ID, d.Event, d.Status, d.Attempts, string(d.Payload)})

	at := time.Now().UTC().Truncate(time.Microsecond)
	d.RecordSuccess(200, at)
	a := webhook.Attempt{Number: 1, StatusCode: 200, Duration: 12 * time.Millisecond, At: at}
	ok, err := store.RecordAttempt(ctx, d, 0, a)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = store.RecordAttempt(ctx, d, 0, a) // the same job run twice
	require.NoError(t, err)
	require.False(t, ok)

	got, err := store.Delivery(ctx, ten, "whd_worker_1")
	require.NoError(t, err)
	require.Equal(t, webhook.StatusDelivered, got.Status)
	require.Equal(t, 1, got.Attempts)
	attempts, err := store.Attempts(ctx, ten, "whd_worker_1")
	require.NoError(t, err)
	require.Len(t, attempts, 1)
	require.Equal(t, 200, attempts[0].StatusCode)
	var pending, delivered int64
	require.NoError(t, admin.QueryRow(ctx, `select
		coalesce(sum(n) filter (where status = 'PENDING'), 0), coalesce(sum(n) filter (where status = 'DELIVERED'), 0)
		from status_rollups where tenant_id = $1 and kind = 'webhook_delivery'`, string(ten)).Scan(&pending, &delivered))
	require.Equal(t, []int64{0, 1}, []int64{pending, delivered})
}
