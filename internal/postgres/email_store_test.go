package postgres_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
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
