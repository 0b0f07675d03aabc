package review_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application/applicationtest"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/review"
	"github.com/complyd/complyd/internal/tenancy"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type testBundle struct {
	ctx    context.Context
	db     *postgres.DB
	svc    *review.Service
	kyb    *kyb.Service
	tenant tenancy.TenantID
	other  tenancy.TenantID
}

// setup wires review over the real user directory and real KYC and KYB services.
func setup(t *testing.T) testBundle {
	t.Helper()
	ctx := context.Background()
	db := pgtest.DB(t)
	svcs := applicationtest.New(t, db, applicationtest.Options{})
	k, b := svcs.KYC, svcs.KYB
	return testBundle{ctx: ctx, db: db, svc: review.NewService(postgres.NewAuthStore(db), k, b), kyb: b,
		tenant: pgtest.Tenant(ctx, t, db).ID, other: pgtest.Tenant(ctx, t, db).ID}
}

// TestCheckAssignee covers every kind of assignee: officers may be assigned; analysts,
// auditors and deactivated users are a VALIDATION_ERROR on assigneeId; an unknown user and
// another tenant's user are both NOT_FOUND.
func TestCheckAssignee(t *testing.T) {
	t.Parallel()
	b := setup(t)
	user := func(tenantID tenancy.TenantID, role auth.Role, inactive bool) string {
		return pgtest.User(b.ctx, t, b.db, tenantID, &pgtest.UserOpts{Role: role, Inactive: inactive}).ID
	}
	for _, tc := range []struct {
		name     string
		assignee string
		code     apperr.Code
	}{
		{"bank admin", user(b.tenant, auth.RoleBankAdmin, false), ""},
		{"compliance officer", user(b.tenant, auth.RoleComplianceOfficer, false), ""},
		{"analyst", user(b.tenant, auth.RoleAnalyst, false), apperr.Validation},
		{"auditor", user(b.tenant, auth.RoleAuditor, false), apperr.Validation},
		{"deactivated officer", user(b.tenant, auth.RoleComplianceOfficer, true), apperr.Validation},
		{"blank", "", apperr.Validation},
		{"unknown", "00000000-0000-4000-8000-000000000000", apperr.NotFound},
		{"another tenant's officer", user(b.other, auth.RoleComplianceOfficer, false), apperr.NotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := b.svc.CheckAssignee(b.ctx, b.tenant, tc.assignee)
			require.Equal(t, tc.code, apperr.CodeOf(err), "%v", err)
			if tc.code == apperr.Validation {
				e, _ := apperr.As(err)
				require.Equal(t, "assigneeId", e.Details[0].Field)
			}
		})
	}
}

// TestAssignKYB assigns and unassigns; a refused assignee leaves the application untouched.
func TestAssignKYB(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, err := b.kyb.Create(b.ctx, b.tenant, audit.System, kyb.NewApplication{CompanyName: "Lagos Fresh Foods Limited"})
	require.NoError(t, err)
	officer := pgtest.User(b.ctx, t, b.db, b.tenant, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer})
	analyst := pgtest.User(b.ctx, t, b.db, b.tenant, &pgtest.UserOpts{Role: auth.RoleAnalyst})

	_, err = b.svc.AssignKYB(b.ctx, b.tenant, audit.System, a.ID, analyst.ID)
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	got, err := b.svc.AssignKYB(b.ctx, b.tenant, audit.System, a.ID, officer.ID)
	require.NoError(t, err)
	require.Equal(t, officer.ID, got.AssignedTo)
	_, err = b.svc.AssignKYB(b.ctx, b.other, audit.System, a.ID, officer.ID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err), "the officer is not of the other tenant")
	got, err = b.svc.UnassignKYB(b.ctx, b.tenant, audit.System, a.ID)
	require.NoError(t, err)
	require.Empty(t, got.AssignedTo)
	_, err = b.svc.UnassignKYB(b.ctx, b.other, audit.System, a.ID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err), "another tenant's application is not found")
}

func TestQueueFilter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value, assigned string
		unassigned      bool
	}{
		{"", "", false},
		{"me", "u-caller", false},
		{"unassigned", "", true},
		{"u-other", "u-other", false},
	} {
		assigned, unassigned := review.QueueFilter(tc.value, "u-caller")
		require.Equal(t, tc.assigned, assigned, tc.value)
		require.Equal(t, tc.unassigned, unassigned, tc.value)
	}
}

func TestNewServicePanics(t *testing.T) {
	t.Parallel()
	require.Panics(t, func() { review.NewService(nil, nil, nil) })
}
