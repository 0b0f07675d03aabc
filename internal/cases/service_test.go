package cases

import (
	"context"
	"errors"
	"github.com/complyd/complyd/internal/audit"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

type testBundle struct {
	svc     *Service
	store   *fakeStore
	users   *fakeUsers
	current Case
	effects []Effects // what the fake store would have written
	prop    Proposal
	// fourEyes is the tenant's fourEyesResolution setting the fake store reports.
	fourEyes bool
}

// setup returns a Service over fakes that emulate the store's read-check-write on one case.
func setup(t *testing.T, status string) *testBundle {
	t.Helper()
	b := &testBundle{store: &fakeStore{}, users: &fakeUsers{}, current: caseIn(status)}
	b.store.UpdateFunc = func(_ context.Context, tenantID tenancy.TenantID, id string, fn func(*Case) (Effects, error)) (*Case, error) {
		if tenantID != b.current.TenantID || id != b.current.ID {
			return nil, apperr.NotFoundf("case not found")
		}
		c := b.current
		eff, err := fn(&c)
		if err != nil {
			return nil, err
		}
		b.current, b.effects = c, append(b.effects, eff)
		return &c, nil
	}
	b.store.UpdateStatusFunc = func(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Case, Guard) (Effects, error)) (*Case, error) {
		g := Guard{FourEyesRequired: b.fourEyes}
		if b.prop.ID != "" && b.prop.Status == ProposalPending {
			p := b.prop
			g.Pending = &p
		}
		return b.store.UpdateFunc(ctx, tenantID, id, func(c *Case) (Effects, error) { return fn(c, g) })
	}
	b.store.CreateProposalFunc = func(_ context.Context, _ tenancy.TenantID, _ string, fn func(*Case) (Proposal, Effects, error)) (*Case, *Proposal, error) {
		c := b.current
		p, eff, err := fn(&c)
		if err != nil {
			return nil, nil, err
		}
		b.current, b.prop, b.effects = c, p, append(b.effects, eff)
		return &c, &p, nil
	}
	b.store.DecideProposalFunc = func(_ context.Context, _ tenancy.TenantID, _, proposalID string, fn func(*Case, *Proposal) (Effects, error)) (*Case, *Proposal, error) {
		if proposalID != b.prop.ID {
			return nil, nil, apperr.NotFoundf("proposal not found")
		}
		c, p := b.current, b.prop
		eff, err := fn(&c, &p)
		if err != nil {
			return nil, nil, err
		}
		b.current, b.prop, b.effects = c, p, append(b.effects, eff)
		return &c, &p, nil
	}
	b.svc = NewService(b.store, b.users, func() time.Time { return t0.Add(time.Minute) })
	return b
}

func TestServiceCreate(t *testing.T) {
	t.Parallel()

	t.Run("numbers in the creation year", func(t *testing.T) {
		t.Parallel()
		b := setup(t, StatusOpen)
		b.store.CreateFunc = func(_ context.Context, tenantID tenancy.TenantID, year int, build func(string) (Case, Effects, error)) (*Case, error) {
			require.Equal(t, tenancy.TenantID("t9"), tenantID)
			require.Equal(t, 2026, year)
			c, eff, err := build(FormatNumber(year, 42))
			require.NoError(t, err)
			require.Len(t, eff.Notifications, 1)
			require.Equal(t, "CASE-2026-00042", eff.Notifications[0].Case.CaseNumber)
			return &c, nil
		}
		c, err := b.svc.Create(context.Background(), audit.Caller{TenantID: "t9"}, NewParams{
			Type: TypeAMLAlert, Priority: PriorityLow, Title: "t", Description: "d", Automatic: true,
			TenantID: "ignored: the caller's tenant wins",
		})
		require.NoError(t, err)
		require.Equal(t, "CASE-2026-00042", c.CaseNumber)
		require.Equal(t, tenancy.TenantID("t9"), c.TenantID)
	})

	t.Run("invalid body never takes a number", func(t *testing.T) {
		t.Parallel()
		b := setup(t, StatusOpen)
		_, err := b.svc.Create(context.Background(), audit.Caller{TenantID: "t1", UserID: "u"}, NewParams{})
		require.Equal(t, apperr.Validation, apperr.CodeOf(err)) // CreateFunc is nil: calling it would fail differently
	})
}

func TestServiceChangeStatus(t *testing.T) {
	t.Parallel()
	b := setup(t, StatusOpen)
	ctx := context.Background()
	caller := audit.Caller{TenantID: "t1", UserID: "officer"}

	_, err := b.svc.ChangeStatus(ctx, caller, "case_x", StatusClosed, "done")
	require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err))
	require.Empty(t, b.effects, "a rejected move writes nothing")

	c, err := b.svc.ChangeStatus(ctx, caller, "case_x", StatusEscalated, "")
	require.NoError(t, err)
	require.Equal(t, StatusEscalated, c.Status)
	require.Equal(t, t0.Add(time.Minute), c.UpdatedAt)
	require.Len(t, b.effects, 1)

	_, err = b.svc.ChangeStatus(ctx, audit.Caller{TenantID: "t2", UserID: "officer"}, "case_x", StatusInProgress, "")
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
}

func TestServiceAssign(t *testing.T) {
	t.Parallel()
	boom := errors.New("directory down")
	tests := []struct {
		name      string
		user      User
		userErr   error
		wantCode  apperr.Code
		wantError error
	}{
		{name: "active user", user: User{ID: "u2", Active: true}},
		{name: "inactive user", user: User{ID: "u2"}, wantCode: apperr.Validation},
		{name: "unknown or other tenant", userErr: apperr.NotFoundf("user not found"), wantCode: apperr.NotFound},
		{name: "directory error", userErr: boom, wantError: boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, StatusInProgress)
			b.users.GetFunc = func(_ context.Context, tenantID tenancy.TenantID, userID string) (User, error) {
				require.Equal(t, tenancy.TenantID("t1"), tenantID)
				require.Equal(t, "u2", userID)
				return tt.user, tt.userErr
			}
			c, err := b.svc.Assign(context.Background(), audit.Caller{TenantID: "t1", UserID: "officer"}, "case_x", "u2")
			switch {
			case tt.wantError != nil:
				require.ErrorIs(t, err, tt.wantError)
			case tt.wantCode != "":
				e, ok := apperr.As(err)
				require.True(t, ok)
				require.Equal(t, tt.wantCode, e.Code)
				if tt.wantCode == apperr.Validation {
					require.Equal(t, "assigneeId", e.Details[0].Field)
				}
				require.Empty(t, b.effects)
			default:
				require.NoError(t, err)
				require.Equal(t, "u2", *c.AssignedTo)
				require.Equal(t, EventAssigned, b.effects[0].Events[0].EventType)
			}
		})
	}
}

func TestServiceFourEyes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	analyst := audit.Caller{TenantID: "t1", UserID: "analyst"}
	officer := audit.Caller{TenantID: "t1", UserID: "officer"}

	t.Run("propose then approve by another user", func(t *testing.T) {
		t.Parallel()
		b := setup(t, StatusOpen)
		p, err := b.svc.Propose(ctx, analyst, "case_x", ProposeParams{Resolution: ResolutionTruePositive, Note: "confirmed"})
		require.NoError(t, err)
		require.Equal(t, StatusPendingReview, b.current.Status)

		_, err = b.svc.ApproveProposal(ctx, analyst, "case_x", p.ID)
		require.Equal(t, apperr.Forbidden, apperr.CodeOf(err))
		require.Equal(t, StatusPendingReview, b.current.Status)
		require.Equal(t, ProposalPending, b.prop.Status)

		c, err := b.svc.ApproveProposal(ctx, officer, "case_x", p.ID)
		require.NoError(t, err)
		require.Equal(t, StatusResolvedTruePositive, c.Status)
		require.Equal(t, "confirmed", c.ResolutionNote)
		require.Equal(t, ProposalApproved, b.prop.Status)
	})

	t.Run("propose then reject", func(t *testing.T) {
		t.Parallel()
		b := setup(t, StatusInProgress)
		p, err := b.svc.Propose(ctx, analyst, "case_x", ProposeParams{Resolution: ResolutionFalsePositive, Note: "fp"})
		require.NoError(t, err)
		_, err = b.svc.RejectProposal(ctx, analyst, "case_x", p.ID, "withdrawn")
		require.Equal(t, apperr.Forbidden, apperr.CodeOf(err))
		c, err := b.svc.RejectProposal(ctx, officer, "case_x", p.ID, "weak evidence")
		require.NoError(t, err)
		require.Equal(t, StatusInProgress, c.Status)
		require.Equal(t, ProposalRejected, b.prop.Status)
	})
}

func TestServiceList(t *testing.T) {
	t.Parallel()
	b := setup(t, StatusOpen)
	b.store.ListFunc = func(_ context.Context, _ tenancy.TenantID, p ListParams) (paging.Result[Case], error) {
		require.Equal(t, ListParams{Page: 2, Limit: 100}, p)
		return paging.Result[Case]{Items: []Case{b.current}, Total: 201, Page: p.Page, Limit: p.Limit}, nil
	}
	page, err := b.svc.List(context.Background(), "t1", ListParams{Page: 2, Limit: 1000})
	require.NoError(t, err)
	require.Equal(t, 3, page.TotalPages())
	require.Equal(t, 100, page.Limit)

	_, err = b.svc.List(context.Background(), "t1", ListParams{Status: "NOPE"})
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
}

func TestServiceAddNote(t *testing.T) {
	t.Parallel()
	b := setup(t, StatusOpen)
	b.store.GetFunc = func(_ context.Context, _ tenancy.TenantID, id string) (*Case, error) {
		c := b.current
		return &c, nil
	}
	var written Event
	b.store.AddEventFunc = func(_ context.Context, _ tenancy.TenantID, ev Event) error {
		written = ev
		return nil
	}
	ev, err := b.svc.AddNote(context.Background(), audit.Caller{TenantID: "t1", UserID: "u"}, "case_x", "hello")
	require.NoError(t, err)
	require.Equal(t, written, *ev)
	require.Equal(t, "hello", ev.Description)
}
