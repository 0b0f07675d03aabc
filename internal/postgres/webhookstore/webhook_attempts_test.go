package webhookstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/webhookstore"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
)

// setEndpoint points the tenant's webhooks at https://bank.example/hook, signed with secret.
func setEndpoint(ctx context.Context, t *testing.T, store *webhookstore.WebhookStore, tenant tenancy.TenantID, secret string) {
	t.Helper()
	_, err := store.UpdateEndpoint(ctx, tenant, func(e *webhook.Endpoint) (audit.Event, error) {
		e.URL, e.Secret, e.UpdatedAt = "https://bank.example/hook", secret, time.Now()
		return audit.Event{TenantID: tenant, Actor: audit.System, Action: "webhook.endpoint_updated", ResourceType: "webhook_endpoint"}, nil
	})
	require.NoError(t, err)
}

// deliveriesFixture inserts n PENDING deliveries for the tenant (ids prefix_0 …) and returns
// them as the worker loads them.
func deliveriesFixture(ctx context.Context, t *testing.T, store *webhookstore.WebhookStore, tenant tenancy.TenantID, prefix string, n int) []webhook.Delivery {
	t.Helper()
	setEndpoint(ctx, t, store, tenant, "whsec")
	admin := pgtest.Admin(ctx, t)
	out := make([]webhook.Delivery, n)
	for i := range out {
		id := fmt.Sprintf("%s_%s_%d", prefix, string(tenant)[:8], i)
		_, err := admin.Exec(ctx, `insert into webhook_deliveries (id, tenant_id, event_id, event, url, payload, status,
			attempts, next_attempt_at, created_at) values ($1, $2, $3, 'case.created', 'https://bank.example/hook', '{}', 'PENDING', 0, null, now())`,
			id, string(tenant), "evt_"+id)
		require.NoError(t, err)
		out[i], _, err = store.Load(ctx, tenant, id)
		require.NoError(t, err)
	}
	return out
}

// TestWebhookAttemptsWrittenTogether: records that arrive while another is being written are
// written together, in one transaction (their attempts share its xmin), instead of one
// transaction each that queue on the status rollup's rows. Here the first record is held by a
// lock on its delivery while twenty more arrive.
func TestWebhookAttemptsWrittenTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	store := webhookstore.NewWebhookStore(db)
	tenant := pgtest.Tenant(ctx, t, db).ID
	ds := deliveriesFixture(ctx, t, store, tenant, "whd_together", 21)

	record := func(d webhook.Delivery) func() {
		return func() {
			at := time.Now()
			d.RecordSuccess(200, at)
			ok, err := store.RecordAttempt(ctx, d, 0, webhook.Attempt{Number: 1, StatusCode: 200, Duration: time.Millisecond, At: at})
			require.NoError(t, err)
			require.True(t, ok)
		}
	}
	var rest []func()
	for _, d := range ds[1:] {
		rest = append(rest, record(d))
	}
	writeBehindALock(ctx, t, "webhook_deliveries", ds[0].ID, record(ds[0]), rest)

	var txs, attempts int
	require.NoError(t, pgtest.Admin(ctx, t).QueryRow(ctx, `select count(distinct xmin::text), count(*) from webhook_attempts
		where tenant_id = $1 and delivery_id like 'whd_together_%' and delivery_id <> $2`, string(tenant), ds[0].ID).Scan(&txs, &attempts))
	require.Equal(t, 20, attempts)
	require.Equal(t, 1, txs, "the twenty records that queued behind the first are written in one transaction")
}

// TestWebhookAttemptsConcurrent: many workers of two tenants record at once, successes,
// failures with a retry and a last failure, some twice (a job run twice): each delivery gets
// exactly one attempt and its new state, a duplicate reports false, each FAILED delivery gets
// its next job, and the rollups count what the rows say, under each tenant's row-level
// security.
func TestWebhookAttemptsConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	store := webhookstore.NewWebhookStore(db)
	a, b := pgtest.Tenant(ctx, t, db).ID, pgtest.Tenant(ctx, t, db).ID
	ds := append(deliveriesFixture(ctx, t, store, a, "whd_conc_a", 40), deliveriesFixture(ctx, t, store, b, "whd_conc_b", 20)...)
	ds[57].Attempts = webhook.MaxAttempts - 1 // its next failure is its last
	_, err := pgtest.Admin(ctx, t).Exec(ctx, "update webhook_deliveries set status = 'FAILED', attempts = $2 where id = $1", ds[57].ID, ds[57].Attempts)
	require.NoError(t, err)

	want := map[string]string{}
	var mu sync.Mutex
	recorded := map[string]int{}
	var wg sync.WaitGroup
	for i, d := range ds {
		copies := 1
		if i%7 == 6 {
			copies = 2 // a job run twice
		}
		for range copies {
			wg.Go(func() {
				d := d
				prev := d.Attempts
				at := time.Now()
				att := webhook.Attempt{Number: prev + 1, Duration: 3 * time.Millisecond, At: at}
				if i%3 == 0 {
					att.StatusCode, att.Error = 503, "receiver answered 503"
					d.RecordFailure(503, fmt.Errorf("receiver answered 503"), at, nil)
				} else {
					att.StatusCode = 204
					d.RecordSuccess(204, at)
				}
				ok, err := store.RecordAttempt(ctx, d, prev, att)
				require.NoError(t, err)
				mu.Lock()
				defer mu.Unlock()
				want[d.ID] = d.Status
				if ok {
					recorded[d.ID]++
				}
			})
		}
	}
	wg.Wait()

	admin := pgtest.Admin(ctx, t)
	for _, d := range ds {
		require.Equal(t, 1, recorded[d.ID], "%s recorded once", d.ID)
		got, err := store.Delivery(ctx, d.TenantID, d.ID)
		require.NoError(t, err)
		require.Equal(t, want[d.ID], got.Status, d.ID)
		require.Equal(t, d.Attempts+1, got.Attempts, d.ID)
		var n, jobs int
		require.NoError(t, admin.QueryRow(ctx, `select (select count(*) from webhook_attempts where delivery_id = $1),
			(select count(*) from river_job where kind = 'webhook_deliver' and args->>'deliveryId' = $1 and (args->>'attempt')::int = $2)`,
			d.ID, d.Attempts+1).Scan(&n, &jobs))
		require.Equal(t, 1, n, d.ID)
		require.Equal(t, map[bool]int{true: 1, false: 0}[got.Status == webhook.StatusFailed], jobs, "%s (%s) next job", d.ID, got.Status)
	}
	require.Equal(t, webhook.StatusDead, want[ds[57].ID])
	for _, tenant := range []tenancy.TenantID{a, b} {
		var mismatched int
		require.NoError(t, admin.QueryRow(ctx, `select count(*) from (
			select status, count(*) as n from webhook_deliveries where tenant_id = $1 group by 1) live
			full join (select status, sum(n) as n from status_rollups where tenant_id = $1 and kind = 'webhook_delivery'
				group by 1 having sum(n) <> 0) r using (status)
			where live.n is distinct from r.n`, string(tenant)).Scan(&mismatched))
		require.Zero(t, mismatched, "the rollups count what the rows say")
	}
}
