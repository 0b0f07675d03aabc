package kyb_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application/applicationtest"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type testBundle struct {
	ctx    context.Context
	svc    *kyb.Service
	wallet *wallet.Service
	tenant tenancy.TenantID
	other  tenancy.TenantID
	actor  audit.Actor
}

// setup wires the KYB service as internal/app does, on real PostgreSQL, the sandbox registry
// (charged at 100 per call) and a file blob store, with the tenant credited with credit.
func setup(t *testing.T, credit string) testBundle {
	t.Helper()
	ctx := context.Background()
	db := pgtest.DB(t)
	svcs := applicationtest.New(t, db, applicationtest.Options{Price: decimal.NewFromInt(100)})
	w, svc := svcs.Wallet, svcs.KYB
	ten, other := pgtest.Tenant(ctx, t, db), pgtest.Tenant(ctx, t, db)
	if credit != "" {
		_, err := w.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: decimal.RequireFromString(credit), Reference: "seed"})
		require.NoError(t, err)
	}
	return testBundle{ctx: ctx, svc: svc, wallet: w, tenant: ten.ID, other: other.ID, actor: audit.System}
}

func (b testBundle) create(t *testing.T, n kyb.NewApplication) kyb.Application {
	t.Helper()
	a, err := b.svc.Create(b.ctx, b.tenant, b.actor, n)
	require.NoError(t, err)
	return a
}

func fields(t *testing.T, err error) []string {
	t.Helper()
	e, ok := apperr.As(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, apperr.Validation, e.Code)
	var out []string
	for _, f := range e.Details {
		out = append(out, f.Field)
	}
	return out
}

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	for _, tc := range []struct {
		name string
		n    kyb.NewApplication
		want []string
	}{
		{"no company name", kyb.NewApplication{RCNumber: "RC1234567"}, []string{"companyName"}},
		{"bad RC number", kyb.NewApplication{CompanyName: "X", RCNumber: "ABC"}, []string{"rcNumber"}},
		{"future incorporation", kyb.NewApplication{CompanyName: "X", IncorporationDate: "2999-01-01"}, []string{"incorporationDate"}},
		{"director without a name, bad BVN and email", kyb.NewApplication{CompanyName: "X",
			Directors: []kyb.Director{{BVN: "123", Email: "not-an-email"}}},
			[]string{"directors[0].name", "directors[0].bvn", "directors[0].email"}},
		{"owners over 100%", kyb.NewApplication{CompanyName: "X",
			Owners: []kyb.Owner{{Name: "A", Percentage: 60}, {Name: "B", Percentage: 41}}}, []string{"beneficialOwners"}},
		{"owner share out of range", kyb.NewApplication{CompanyName: "X", Owners: []kyb.Owner{{Name: "A", Percentage: 0}}},
			[]string{"beneficialOwners[0].percentage"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.svc.Create(b.ctx, b.tenant, b.actor, tc.n)
			require.Equal(t, tc.want, fields(t, err))
		})
	}
	a := b.create(t, kyb.NewApplication{CompanyName: "  Lagos Fresh Foods Limited ", RCNumber: "RC1234567",
		Owners: []kyb.Owner{{Name: "Adebayo Oluwaseun Ogunleye", Percentage: 60}, {Name: "Funmilayo Adeyemi", Percentage: 40}}})
	require.Equal(t, kyb.StatusPending, a.Status)
	require.Equal(t, "Lagos Fresh Foods Limited", a.CompanyName, "trimmed")
	d, err := b.svc.Get(b.ctx, b.tenant, a.ID)
	require.NoError(t, err)
	require.Equal(t, a.ID, d.Application.ID)
	require.Len(t, d.Application.Owners, 2)
	_, err = b.svc.Get(b.ctx, b.other, a.ID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err), "another tenant's application is not found")
}

// TestVerifyCAC: a registered, active company whose name matches verifies the application and
// is charged the price; a number the registry lacks is a definite answer, charged too; an empty
// wallet refuses before the provider is asked.
func TestVerifyCAC(t *testing.T) {
	t.Parallel()
	b := setup(t, "250")
	a := b.create(t, kyb.NewApplication{CompanyName: "Lagos Fresh Foods Limited", RCNumber: "RC1234567"})
	out, err := b.svc.VerifyCAC(b.ctx, b.tenant, b.actor, a.ID, "RC1234567")
	require.NoError(t, err)
	require.True(t, out.Found)
	require.True(t, out.Verified, "reason %q", out.Reason)
	require.Equal(t, kyb.StatusCACVerified, out.NewStatus)
	require.Equal(t, "100.00", out.Charged.StringFixed(2))
	require.Equal(t, "150.00", out.Balance.StringFixed(2))
	require.Equal(t, identity.SandboxName, out.Provider)

	m := b.create(t, kyb.NewApplication{CompanyName: "Nobody Limited"})
	out, err = b.svc.VerifyCAC(b.ctx, b.tenant, b.actor, m.ID, "RC9999991")
	require.NoError(t, err)
	require.False(t, out.Found)
	require.False(t, out.Verified)
	require.Equal(t, kyb.ReasonNotFound, out.Reason)
	require.Equal(t, "50.00", out.Balance.StringFixed(2), "a definite not-found is charged")

	_, err = b.svc.VerifyCAC(b.ctx, b.tenant, b.actor, m.ID, "RC9999991")
	require.Equal(t, apperr.InsufficientFunds, apperr.CodeOf(err), "50 does not pay 100")
	_, err = b.svc.VerifyCAC(b.ctx, b.other, b.actor, a.ID, "RC1234567")
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
	_, err = b.svc.VerifyCAC(b.ctx, b.tenant, b.actor, a.ID, "nope")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
}

// TestVerifyDirectors: the wallet must cover every paid check first; a director with neither
// BVN nor NIN is not checked and not charged.
func TestVerifyDirectors(t *testing.T) {
	t.Parallel()
	b := setup(t, "150")
	a := b.create(t, kyb.NewApplication{CompanyName: "Lagos Fresh Foods Limited", RCNumber: "RC1234567"})
	_, err := b.svc.VerifyDirectors(b.ctx, b.tenant, b.actor, a.ID, nil)
	require.Equal(t, []string{"directors"}, fields(t, err))
	two := []kyb.Director{{Name: "Adebayo Oluwaseun Ogunleye", BVN: "22234567801"}, {Name: "Someone Else", NIN: "70123456782"}}
	_, err = b.svc.VerifyDirectors(b.ctx, b.tenant, b.actor, a.ID, two)
	require.Equal(t, apperr.InsufficientFunds, apperr.CodeOf(err), "two checks need 200, the wallet holds 150")
	w, err := b.wallet.Wallet(b.ctx, b.tenant)
	require.NoError(t, err)
	require.Equal(t, "150.00", w.Balance.StringFixed(2), "nothing was charged")

	out, err := b.svc.VerifyDirectors(b.ctx, b.tenant, b.actor, a.ID, []kyb.Director{
		{Name: "Adebayo Oluwaseun Ogunleye", BVN: "22234567801"}, {Name: "No Identifier"}})
	require.NoError(t, err)
	require.Len(t, out.Directors, 2)
	require.True(t, out.Directors[0].Verified, "reason %q", out.Directors[0].Reason)
	require.Equal(t, "100.00", out.Directors[0].Charged.StringFixed(2))
	require.False(t, out.Directors[1].Verified)
	require.Equal(t, kyb.ReasonNoIdentifier, out.Directors[1].Reason)
	require.False(t, out.AllVerified)
	require.Equal(t, "100.00", out.Charged.StringFixed(2))
	require.Equal(t, "50.00", out.Balance.StringFixed(2))
}

// TestDecide: reject needs a reason; approve and reject move only from an open status; the
// risk level is checked and defaulted.
func TestDecide(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	a := b.create(t, kyb.NewApplication{CompanyName: "Lagos Fresh Foods Limited"})
	_, err := b.svc.Reject(b.ctx, b.tenant, b.actor, a.ID, kyb.Decision{})
	require.Equal(t, []string{"reason"}, fields(t, err))
	_, _, err = b.svc.Approve(b.ctx, b.tenant, b.actor, a.ID, kyb.Decision{RiskLevel: "EXTREME", Notes: "n"})
	require.Equal(t, []string{"riskLevel"}, fields(t, err))
	_, _, err = b.svc.Approve(b.ctx, b.other, b.actor, a.ID, kyb.Decision{Notes: "n"})
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))

	r, err := b.svc.Reject(b.ctx, b.tenant, b.actor, a.ID, kyb.Decision{Notes: " shell company "})
	require.NoError(t, err)
	require.Equal(t, kyb.StatusRejected, r.Status)
	require.Equal(t, "HIGH", r.RiskLevel, "reject defaults to HIGH")
	require.Equal(t, "shell company", r.Notes)
	_, _, err = b.svc.Approve(b.ctx, b.tenant, b.actor, a.ID, kyb.Decision{Notes: "n"})
	require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err), "a rejected application stays rejected")

	c := b.create(t, kyb.NewApplication{CompanyName: "Kano Agro Commodities Limited"})
	ok, ov, err := b.svc.Approve(b.ctx, b.tenant, b.actor, c.ID, kyb.Decision{Notes: "checked offline"})
	require.NoError(t, err)
	require.Equal(t, kyb.StatusApproved, ok.Status)
	require.Equal(t, "LOW", ok.RiskLevel, "approve defaults to LOW")
	require.NotNil(t, ov, "approving with no checks done records an override")
}

func TestStatuses(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{kyb.StatusPending, kyb.StatusDocumentUploaded, kyb.StatusCACVerified, kyb.StatusDirectorsVerified,
		kyb.StatusBeneficialOwnersVerified, kyb.StatusScreeningPassed, kyb.StatusApproved, kyb.StatusRejected}, kyb.Statuses())
	for _, s := range kyb.Statuses() {
		require.Equal(t, s == kyb.StatusApproved || s == kyb.StatusRejected, kyb.IsTerminal(s), s)
	}
	require.Less(t, kyb.MilestoneRank(kyb.StatusPending), kyb.MilestoneRank(kyb.StatusCACVerified))
	require.Equal(t, -1, kyb.MilestoneRank(kyb.StatusApproved))
}

// TestUpdate: PATCH edits an open application; a new RC number clears the CAC fact and new
// directors the directors fact (the status is never lowered); a decided application is not
// edited (409); bad fields are named.
func TestUpdate(t *testing.T) {
	t.Parallel()
	b := setup(t, "500")
	a := b.create(t, kyb.NewApplication{CompanyName: "Lagos Fresh Foods Limited", RCNumber: "RC1234567"})
	cac, err := b.svc.VerifyCAC(b.ctx, b.tenant, b.actor, a.ID, "RC1234567")
	require.NoError(t, err)
	require.True(t, cac.Verified)
	dirs, err := b.svc.VerifyDirectors(b.ctx, b.tenant, b.actor, a.ID, []kyb.Director{{Name: "Adebayo Oluwaseun Ogunleye", BVN: "22234567801"}})
	require.NoError(t, err)
	require.Equal(t, kyb.StatusDirectorsVerified, dirs.NewStatus)

	s := func(v string) *string { return &v }
	_, err = b.svc.Update(b.ctx, b.tenant, b.actor, a.ID, kyb.Patch{CompanyName: s(" "), RCNumber: s("RC-x"), IncorporationDate: s("2999-01-01")})
	require.ElementsMatch(t, []string{"companyName", "rcNumber", "incorporationDate"}, fields(t, err))

	same, err := b.svc.Update(b.ctx, b.tenant, b.actor, a.ID, kyb.Patch{RCNumber: s("rc 1234567"), TIN: s(" 12345678-0001 ")})
	require.NoError(t, err)
	require.True(t, same.CACVerified, "the same RC number spelled differently keeps the CAC fact")
	require.Equal(t, "12345678-0001", same.TIN)

	u, err := b.svc.Update(b.ctx, b.tenant, b.actor, a.ID, kyb.Patch{RCNumber: s("RC7654321"),
		Directors: &[]kyb.Director{{Name: "New Director"}}})
	require.NoError(t, err)
	require.False(t, u.CACVerified, "a new RC number clears the CAC fact")
	require.Nil(t, u.Company)
	require.False(t, u.DirectorsVerified, "new directors clear the directors fact")
	require.Equal(t, kyb.StatusDirectorsVerified, u.Status, "the status is never lowered by an edit")
	_, err = b.svc.Update(b.ctx, b.other, b.actor, a.ID, kyb.Patch{TIN: s("1")})
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))

	_, err = b.svc.Reject(b.ctx, b.tenant, b.actor, a.ID, kyb.Decision{Notes: "closed"})
	require.NoError(t, err)
	_, err = b.svc.Update(b.ctx, b.tenant, b.actor, a.ID, kyb.Patch{TIN: s("1")})
	require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err))
}

// TestScreenOwners: owners are screened in house (no charge); clean names advance the
// application to BENEFICIAL_OWNERS_VERIFIED and record one passed check each; the owners named
// on the application are screened too; a blank name is refused.
func TestScreenOwners(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	a := b.create(t, kyb.NewApplication{CompanyName: "Lagos Fresh Foods Limited",
		Owners: []kyb.Owner{{Name: "Ngozi Okafor", Percentage: 40}}})
	_, err := b.svc.ScreenOwners(b.ctx, b.tenant, b.actor, a.ID, nil)
	require.Equal(t, []string{"beneficialOwners"}, fields(t, err))
	_, err = b.svc.ScreenOwners(b.ctx, b.tenant, b.actor, a.ID, []string{"Ada", " "})
	require.Equal(t, []string{"beneficialOwners[1].name"}, fields(t, err))

	out, err := b.svc.ScreenOwners(b.ctx, b.tenant, b.actor, a.ID, []string{"Tunde Bakare"})
	require.NoError(t, err)
	require.True(t, out.AllClean)
	require.Len(t, out.BeneficialOwners, 2, "the given name and the application's owner")
	require.Equal(t, kyb.StatusBeneficialOwnersVerified, out.NewStatus)
	d, err := b.svc.Get(b.ctx, b.tenant, a.ID)
	require.NoError(t, err)
	require.True(t, d.OwnersClean)
	require.NotNil(t, d.Owners[0].Clean)
	require.True(t, *d.Owners[0].Clean)
	require.Len(t, d.Checks, 2)
	for _, c := range d.Checks {
		require.Equal(t, kyb.CheckOwner, c.Type)
		require.True(t, c.Passed)
		require.True(t, c.Charged.IsZero(), "in-house screening is free")
	}
}

// TestRunScreening: the whole screening needs an RC number; with one it verifies the company and
// the directors (paid, 100 each), screens the registry's owners (free) and, all passing,
// reaches SCREENING_PASSED.
func TestRunScreening(t *testing.T) {
	t.Parallel()
	b := setup(t, "200")
	none := b.create(t, kyb.NewApplication{CompanyName: "No Number Ltd"})
	_, err := b.svc.RunScreening(b.ctx, b.tenant, b.actor, none.ID)
	require.Equal(t, []string{"rcNumber"}, fields(t, err))

	a := b.create(t, kyb.NewApplication{CompanyName: "Lagos Fresh Foods Limited", RCNumber: "RC1234567",
		Directors: []kyb.Director{{Name: "Adebayo Oluwaseun Ogunleye", BVN: "22234567801"}}})
	out, err := b.svc.RunScreening(b.ctx, b.tenant, b.actor, a.ID)
	require.NoError(t, err)
	require.True(t, out.CAC.Verified)
	require.True(t, out.Directors.AllVerified)
	require.NotEmpty(t, out.BeneficialOwners.BeneficialOwners, "the registry's owners were screened")
	require.True(t, out.Passed)
	require.Equal(t, kyb.StatusScreeningPassed, out.NewStatus)
	require.Equal(t, "200.00", out.Charged.StringFixed(2))
	require.Equal(t, "0.00", out.Balance.StringFixed(2))
}
