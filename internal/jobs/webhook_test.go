package jobs_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/webhook"
	"github.com/complyd/complyd/internal/webhookhttp"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestWebhookDeliveredWhenReceiverAnswers2xx: a receiver that answers 200 at once but keeps its
// response body open (a slow proxy, a framework that streams, a receiver that answers before it
// finishes its own work) has answered the attempt, and the delivery is DELIVERED in the list
// within a second or two. The worker used to drain the body under the attempt's 10-second
// limit before recording anything, so the delivery stayed PENDING for those 10 seconds, and a
// crash or restart in that window lost the 2xx: the delivery was sent again (issue 12 finding 2,
// second half).
func TestWebhookDeliveredWhenReceiverAnswers2xx(t *testing.T) {
	t.Parallel()
	type testBundle struct {
		db      *postgres.DB
		store   *postgres.WebhookStore
		runner  *jobs.Runner
		tenant  tenancy.TenantID
		release chan struct{}
		hits    chan struct{}
	}
	setup := func(t *testing.T) *testBundle {
		t.Helper()
		ctx := context.Background()
		db, _ := pgtest.Fresh(t)
		b := &testBundle{db: db, store: postgres.NewWebhookStore(db), tenant: pgtest.Tenant(ctx, t, db).ID,
			release: make(chan struct{}), hits: make(chan struct{}, 10)}
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b.hits <- struct{}{}
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("accepted;"))
			w.(http.Flusher).Flush()
			select { // the body stays open
			case <-b.release:
			case <-r.Context().Done():
			}
		}))
		t.Cleanup(recv.Close)
		t.Cleanup(func() { close(b.release) }) // runs before recv.Close
		_, err := b.store.UpdateEndpoint(ctx, b.tenant, func(e *webhook.Endpoint) (audit.Event, error) {
			e.URL, e.UpdatedAt = recv.URL+"/hook", time.Now()
			return audit.Event{TenantID: b.tenant, Actor: audit.System, Action: "webhook.endpoint_updated", ResourceType: "webhook_endpoint"}, nil
		})
		require.NoError(t, err)
		workers := river.NewWorkers()
		river.AddWorker(workers, &jobs.DeliverWebhookWorker{Outbox: b.store,
			Sender: webhookhttp.NewSender(webhookhttp.Options{AllowPrivate: true})})
		b.runner, err = jobs.NewRunner(db.Pool, workers, slog.New(slog.DiscardHandler))
		require.NoError(t, err)
		require.NoError(t, b.runner.Start(ctx))
		t.Cleanup(func() {
			sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			_ = b.runner.Stop(sctx)
		})
		return b
	}
	// queue records a PENDING delivery and its first job in one transaction, as the outbox does.
	queue := func(t *testing.T, b *testBundle) string {
		t.Helper()
		ctx := context.Background()
		now := time.Now()
		d, err := webhook.NewDelivery("", webhook.NewPayload(b.tenant, webhook.EventCaseCreated, map[string]any{"caseId": "case_1"}, now), now)
		require.NoError(t, err)
		e, err := b.store.Endpoint(ctx, b.tenant)
		require.NoError(t, err)
		require.NoError(t, pgx.BeginFunc(ctx, b.db.Pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(b.tenant)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `insert into webhook_deliveries (id, tenant_id, event_id, event, url, payload, status, attempts,
				next_attempt_at, created_at) values ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9)`,
				d.ID, string(b.tenant), d.EventID, d.Event, e.URL, d.Payload, d.Status, d.NextAttemptAt, d.CreatedAt); err != nil {
				return err
			}
			_, err := b.runner.Client.InsertTx(ctx, tx, webhook.DeliverArgs{DeliveryID: d.ID, TenantID: b.tenant}, &river.InsertOpts{MaxAttempts: 10})
			return err
		}))
		return d.ID
	}
	status := func(t *testing.T, b *testBundle, id string) webhook.Delivery {
		t.Helper()
		page, err := b.store.Deliveries(context.Background(), b.tenant, "", paging.Params{Page: 1, Limit: 100})
		require.NoError(t, err)
		for _, d := range page.Items {
			if d.ID == id {
				return d
			}
		}
		t.Fatalf("delivery %s is not in the list", id)
		return webhook.Delivery{}
	}

	b := setup(t)
	id := queue(t, b)
	select {
	case <-b.hits:
	case <-time.After(10 * time.Second):
		t.Fatal("the receiver got no request within 10 s")
	}
	answered := time.Now()
	var d webhook.Delivery
	for deadline := answered.Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if d = status(t, b, id); d.Status != webhook.StatusPending {
			break
		}
	}
	require.Equal(t, webhook.StatusDelivered, d.Status,
		"the receiver answered 200 %s ago (its body still open), and the delivery is still %s in the list", time.Since(answered).Round(time.Millisecond), d.Status)
	require.Equal(t, 1, d.Attempts)
	require.NotNil(t, d.LastStatusCode)
	require.Equal(t, http.StatusOK, *d.LastStatusCode)
	require.Len(t, b.hits, 0, "one request only")
}
