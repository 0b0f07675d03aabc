package applicationstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

func insertApp(t *testing.T, st *applicationstore.KYCStore, tenantID tenancy.TenantID, id, bvn, status string, created time.Time) {
	t.Helper()
	a := kyc.Application{Base: application.Base{ID: id, TenantID: string(tenantID), Status: kyc.StatusPending, CreatedAt: created,
		UpdatedAt: created}, EntityType: kyc.EntityIndividual, FirstName: "A", LastName: "B", BVN: bvn, Tier: "TIER_1"}
	require.NoError(t, st.Create(context.Background(), a, audit.Event{TenantID: tenantID, Actor: audit.System, Action: "kyc.created", ResourceType: "kyc_application"}))
	if status != kyc.StatusPending {
		_, err := st.Update(context.Background(), tenantID, id, func(a *kyc.Application) (kyc.Change, error) {
			a.Status = status
			return kyc.Change{}, nil
		})
		require.NoError(t, err)
	}
}

// TestKYCExpiryJob runs the worker's function with an injected clock: only non-terminal
// applications older than the tenant's expiry_days expire, each audited.
func TestKYCExpiryJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := pgtest.Fresh(t) // rows of fixed ids, or a database-wide state: a database of its own
	st := applicationstore.NewKYCStore(db)
	ten := pgtest.Tenant(ctx, t, db)
	short := pgtest.Tenant(ctx, t, db)
	require.NoError(t, pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(short.ID)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "update tenant_settings set expiry_days = 10 where tenant_id = $1", string(short.ID))
		return err
	}))
	start := time.Now().UTC().Truncate(time.Microsecond)
	insertApp(t, st, ten.ID, "kyc_old_pending", "", kyc.StatusPending, start)
	insertApp(t, st, ten.ID, "kyc_old_bvn", "", kyc.StatusBVNVerified, start)
	insertApp(t, st, ten.ID, "kyc_old_approved", "", kyc.StatusApproved, start)
	insertApp(t, st, ten.ID, "kyc_young", "", kyc.StatusPending, start.Add(60*24*time.Hour))
	insertApp(t, st, short.ID, "kyc_short", "", kyc.StatusDocumentUploaded, start.Add(70*24*time.Hour))

	w := &jobs.KYCExpiryWorker{Expirer: st, Now: func() time.Time { return start.Add(85 * 24 * time.Hour) }, Log: slog.New(slog.DiscardHandler)}
	require.NoError(t, w.Work(ctx, nil))
	status := func(tid tenancy.TenantID, id string) string {
		a, err := st.Get(ctx, tid, id)
		require.NoError(t, err)
		return a.Status
	}
	require.Equal(t, kyc.StatusPending, status(ten.ID, "kyc_old_pending"), "85 days < 90")
	require.Equal(t, kyc.StatusExpired, status(short.ID, "kyc_short"), "15 days > the tenant's 10")

	w.Now = func() time.Time { return start.Add(91 * 24 * time.Hour) }
	require.NoError(t, w.Work(ctx, nil))
	require.Equal(t, kyc.StatusExpired, status(ten.ID, "kyc_old_pending"))
	require.Equal(t, kyc.StatusExpired, status(ten.ID, "kyc_old_bvn"))
	require.Equal(t, kyc.StatusApproved, status(ten.ID, "kyc_old_approved"), "terminal stays")
	require.Equal(t, kyc.StatusPending, status(ten.ID, "kyc_young"))
	n, err := st.ExpireApplications(ctx, start.Add(91*24*time.Hour))
	require.NoError(t, err)
	require.Zero(t, n, "idempotent")

	res, err := postgres.NewAuthStore(db).ListAudit(ctx, ten.ID, audit.ListParams{Action: "kyc.expired"}, paging.Params{Page: 1, Limit: 100})
	require.NoError(t, err)
	require.Equal(t, 2, res.Total)
}

// TestStoredKYC is the stored KYC screening's identity engine reads in STRICT mode (through the
// screening store's batched prefetch): an approved applicant's small transfer is APPROVE, a
// pending one (or none) is BLOCK.
func TestStoredKYC(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := pgtest.Fresh(t) // rows of fixed ids, or a database-wide state: a database of its own
	st := applicationstore.NewKYCStore(db)
	sst := screenstore.NewScreeningStore(db, screenstore.ScreeningStoreOptions{})
	t.Cleanup(sst.Close)
	ten := pgtest.Tenant(ctx, t, db)
	other := pgtest.Tenant(ctx, t, db)
	now := time.Now().UTC().Truncate(time.Microsecond)
	insertApp(t, st, ten.ID, "kyc_approved", "22234567801", kyc.StatusApproved, now.Add(-time.Hour))
	insertApp(t, st, ten.ID, "kyc_pending", "22234567802", kyc.StatusPending, now.Add(-time.Hour))
	probe := 0
	storedKYC := func(tenant tenancy.TenantID, bvn string) (screening.StoredKYC, error) {
		probe++
		p, err := sst.Prefetch(ctx, &screening.Transaction{TenantID: tenant, ExternalID: fmt.Sprintf("kyc-probe-%d", probe),
			SenderAccountNumber: "0123456789", SenderBVN: bvn, Timestamp: now}, true, admission.PaceOf(ctx))
		return p.KYC, err
	}

	got, err := storedKYC(ten.ID, "22234567801")
	require.NoError(t, err)
	require.Equal(t, screening.StoredKYC{Found: true, Status: "APPROVED", Tier: "TIER_1", ExternalRef: "kyc_approved"}, got)
	got, err = storedKYC(other.ID, "22234567801")
	require.NoError(t, err)
	require.False(t, got.Found, "tenant-scoped")
	got, err = storedKYC(ten.ID, "")
	require.NoError(t, err)
	require.False(t, got.Found, "applications carry no account number")

	score := func(bvn string) rules.Outcome {
		stored, err := storedKYC(ten.ID, bvn)
		require.NoError(t, err)
		tx := &screening.Transaction{TenantID: ten.ID, Amount: decimal.NewFromInt(5000), Currency: "NGN", SenderBVN: bvn,
			SenderAccountNumber: "0123456789", SenderKYCStatus: "VERIFIED"}
		k, err := screening.ResolveKYC(tenancy.TrustStrict, tx, stored)
		require.NoError(t, err)
		v, err := screening.NewIdentityEngine().Evaluate(ctx, tx, &screening.Enrichment{KYC: k})
		require.NoError(t, err)
		return v.Outcome
	}
	require.Equal(t, rules.Approve, score("22234567801"))
	require.Equal(t, rules.Block, score("22234567802"), "pending blocks even though the payload asserts VERIFIED (STRICT)")
	require.Equal(t, rules.Block, score("22234567899"), "no application blocks")
}
