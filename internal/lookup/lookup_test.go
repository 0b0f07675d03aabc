package lookup_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application/applicationtest"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/lookup"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type testBundle struct {
	ctx    context.Context
	svc    *lookup.Service
	wallet *wallet.Service
	tenant tenancy.TenantID
	other  tenancy.TenantID
	actor  audit.Actor
}

type opts struct {
	credit   string
	unbilled bool // the sandbox as `serve` runs it outside dev: its answers are free
}

// setup wires lookups as internal/app does, on real PostgreSQL and the sandbox registry, at a
// price of 75.50 per call.
func setup(t *testing.T, o opts) testBundle {
	t.Helper()
	ctx := context.Background()
	db := pgtest.DB(t)
	svcs := applicationtest.New(t, db, applicationtest.Options{Price: decimal.RequireFromString("75.50"), Unbilled: o.unbilled})
	w, providers, k, b := svcs.Wallet, svcs.Providers, svcs.KYC, svcs.KYB
	svc := lookup.NewService(lookup.Deps{Store: postgres.NewLookupStore(db), Wallet: w, Providers: providers, KYC: k, KYB: b, Now: time.Now})
	ten, other := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	if o.credit != "" {
		_, err := w.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: decimal.RequireFromString(o.credit), Reference: "seed"})
		require.NoError(t, err)
	}
	return testBundle{ctx: ctx, svc: svc, wallet: w, tenant: ten.ID, other: other.ID, actor: audit.System}
}

// TestLookupBVN: a found BVN is charged the price, saves an individual profile without the
// photo, and a second lookup refreshes that profile instead of adding one; a number the
// registry lacks is charged too; an outage is not.
func TestLookupBVN(t *testing.T) {
	t.Parallel()
	b := setup(t, opts{credit: "200"})
	r, err := b.svc.LookupBVN(b.ctx, b.tenant, b.actor, "22234567801")
	require.NoError(t, err)
	require.True(t, r.Found)
	require.Equal(t, "75.50", r.Charged.StringFixed(2))
	require.Equal(t, "124.50", r.Balance.StringFixed(2))
	require.Equal(t, "Adebayo", r.Data["firstName"])
	require.Equal(t, "22234567801", r.Data["bvn"])
	require.Equal(t, true, r.Data["photoPresent"])
	require.NotEmpty(t, r.ProfileID)
	p, err := b.svc.Profile(b.ctx, b.tenant, r.ProfileID)
	require.NoError(t, err)
	require.Equal(t, lookup.ProfileIndividual, p.Type)
	require.Empty(t, p.Person.PhotoBase64, "the registry photo is never stored")
	_, err = b.svc.Profile(b.ctx, b.other, r.ProfileID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err), "another tenant's profile is not found")

	_, err = b.svc.LookupBVN(b.ctx, b.tenant, b.actor, "22299999999") // the registry's outage number
	require.Equal(t, apperr.ProviderUnavailable, apperr.CodeOf(err))
	w, err := b.wallet.Wallet(b.ctx, b.tenant)
	require.NoError(t, err)
	require.Equal(t, "124.50", w.Balance.StringFixed(2), "the outage was not charged")

	again, err := b.svc.LookupBVN(b.ctx, b.tenant, b.actor, "22234567801")
	require.NoError(t, err)
	require.Equal(t, r.ProfileID, again.ProfileID, "one profile per identifier")
	require.Equal(t, "49.00", again.Balance.StringFixed(2))

	_, err = b.svc.LookupBVN(b.ctx, b.tenant, b.actor, "12345678901")
	require.Equal(t, apperr.InsufficientFunds, apperr.CodeOf(err), "49 does not pay 75.50")
	_, err = b.svc.LookupNIN(b.ctx, b.tenant, b.actor, "7012")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))

	w, err = b.wallet.Wallet(b.ctx, b.tenant)
	require.NoError(t, err)
	require.Equal(t, "49.00", w.Balance.StringFixed(2))
	require.True(t, w.Held.IsZero())

	h, err := b.svc.History(b.ctx, b.tenant, lookup.ListParams{Type: lookup.TypeBVN}, paging.Params{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Len(t, h.Items, 2, "the history keeps charged lookups only")
	require.Equal(t, 2, h.Total)
	ps, err := b.svc.Profiles(b.ctx, b.tenant, lookup.ListParams{}, paging.Params{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Len(t, ps.Items, 1)
	require.Equal(t, 2, ps.Items[0].LookupCount)
	_, err = b.svc.History(b.ctx, b.tenant, lookup.ListParams{Type: "PASSPORT"}, paging.Params{Page: 1, Limit: 10})
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
}

// TestLookupUnbilled: the sandbox outside dev answers free (identity.Unbilled → wallet.Waived):
// the lookup is stored with a zero charge and the balance is untouched; the price reserved
// before the call is given back.
func TestLookupUnbilled(t *testing.T) {
	t.Parallel()
	b := setup(t, opts{credit: "100", unbilled: true})
	r, err := b.svc.LookupCAC(b.ctx, b.tenant, b.actor, "RC1234567")
	require.NoError(t, err)
	require.True(t, r.Found)
	require.True(t, r.Charged.IsZero(), "charged %s", r.Charged)
	require.Equal(t, "100.00", r.Balance.StringFixed(2))
	require.Equal(t, "Lagos Fresh Foods Limited", r.Data["companyName"])
	w, err := b.wallet.Wallet(b.ctx, b.tenant)
	require.NoError(t, err)
	require.True(t, w.Held.IsZero(), "the reservation was given back")
	require.Equal(t, "100.00", w.Balance.StringFixed(2))
}

// TestCreateApplicationsFromProfiles: a business profile pre-fills a KYB application and an
// individual one a KYC application; the wrong kind is a CONFLICT.
func TestCreateApplicationsFromProfiles(t *testing.T) {
	t.Parallel()
	b := setup(t, opts{credit: "200"})
	co, err := b.svc.LookupCAC(b.ctx, b.tenant, b.actor, "RC1234567")
	require.NoError(t, err)
	app, err := b.svc.CreateKYBApplication(b.ctx, b.tenant, b.actor, co.ProfileID, lookup.KYBFromProfile{TIN: "12345678-0001"})
	require.NoError(t, err)
	require.Equal(t, "Lagos Fresh Foods Limited", app.CompanyName)
	require.Equal(t, co.ProfileID, app.ProfileID)
	require.Equal(t, kyb.StatusPending, app.Status)
	require.Len(t, app.Directors, 2)
	require.Len(t, app.Owners, 2)
	_, err = b.svc.CreateKYCApplication(b.ctx, b.tenant, b.actor, co.ProfileID, lookup.KYCFromProfile{})
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err))

	p, err := b.svc.LookupNIN(b.ctx, b.tenant, b.actor, "70123456782")
	require.NoError(t, err)
	k, err := b.svc.CreateKYCApplication(b.ctx, b.tenant, b.actor, p.ProfileID, lookup.KYCFromProfile{Email: "c@example.com", Tier: "TIER_1"})
	require.NoError(t, err)
	require.Equal(t, "Chiamaka", k.FirstName)
	require.Equal(t, "70123456782", k.NIN)
	_, err = b.svc.CreateKYBApplication(b.ctx, b.tenant, b.actor, p.ProfileID, lookup.KYBFromProfile{})
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err))
	_, err = b.svc.CreateKYBApplication(b.ctx, b.other, b.actor, co.ProfileID, lookup.KYBFromProfile{})
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
}

// TestLookupAuditMasksIdentifiers: the audit record of a BVN or NIN lookup names the number by
// its last four digits only (the audit log is readable by AUDITOR), a CAC lookup keeps its RC
// number, and each is audited as lookup.<type> with what was charged.
func TestLookupAuditMasksIdentifiers(t *testing.T) {
	t.Parallel()
	b := setup(t, opts{credit: "300"})
	conn := pgtest.Admin(b.ctx, t)
	for _, c := range []struct {
		lookup func() (lookup.Result, error)
		action string
		query  string
	}{
		{func() (lookup.Result, error) { return b.svc.LookupBVN(b.ctx, b.tenant, b.actor, "22234567801") }, "lookup.bvn", "*******7801"},
		{func() (lookup.Result, error) { return b.svc.LookupNIN(b.ctx, b.tenant, b.actor, "70123456782") }, "lookup.nin", "*******6782"},
		{func() (lookup.Result, error) { return b.svc.LookupCAC(b.ctx, b.tenant, b.actor, "RC1234567") }, "lookup.cac", "RC1234567"},
	} {
		r, err := c.lookup()
		require.NoError(t, err, c.action)
		require.Equal(t, "75.50", r.Charged.StringFixed(2), c.action)
		var action, query, charged string
		require.NoError(t, conn.QueryRow(b.ctx, `select action, after->>'query', after->>'charged' from audit_events where resource_id = $1`,
			r.ID).Scan(&action, &query, &charged), c.action)
		require.Equal(t, c.action, action)
		require.Equal(t, c.query, query, c.action)
		require.Equal(t, "75.50", charged, c.action)
	}
	h, err := b.svc.History(b.ctx, b.tenant, lookup.ListParams{Type: lookup.TypeCAC}, paging.Params{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Len(t, h.Items, 1)
	require.Equal(t, "RC1234567", h.Items[0].Query, "the tenant's own history keeps the full query")
}
