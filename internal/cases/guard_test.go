package cases

import (
	"context"
	"github.com/complyd/complyd/internal/audit"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

// TestGuardMatrix checks every from×to pair under each guard: a pending proposal refuses the
// resolutions and closing, mandatory four eyes refuses the resolutions, everything else is
// docs/design/design-choices.md §5's machine unchanged; Allowed lists exactly the moves ChangeStatusGuarded accepts.
func TestGuardMatrix(t *testing.T) {
	t.Parallel()
	pending := &Proposal{ID: "prop_1", Resolution: ResolutionFalsePositive, Status: ProposalPending, ProposedBy: "alice", ProposedAt: t0}
	guards := map[string]Guard{
		"none":      {},
		"pending":   {Pending: pending},
		"four eyes": {FourEyesRequired: true},
		"both":      {Pending: pending, FourEyesRequired: true},
	}
	a := Actor{UserID: "alice", At: t0}
	for name, g := range guards {
		for _, from := range Statuses() {
			for _, to := range Statuses() {
				_, _, err := ChangeStatusGuarded(caseIn(from), a, g, to, "note")
				resolving := to == StatusResolvedTruePositive || to == StatusResolvedFalsePositive
				blocked := g.Pending != nil && (resolving || to == StatusClosed) || g.FourEyesRequired && resolving
				switch {
				case !CanTransition(from, to):
					require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err), "%s %s→%s", name, from, to)
				case blocked:
					require.Equal(t, apperr.Conflict, apperr.CodeOf(err), "%s %s→%s", name, from, to)
				default:
					require.NoError(t, err, "%s %s→%s", name, from, to)
				}
				require.Equal(t, err == nil, slices.Contains(g.Allowed(caseIn(from)), to), "%s %s→%s: Allowed agrees", name, from, to)
			}
		}
	}
}

// TestGuardErrorData checks what a refused direct resolution tells the caller.
func TestGuardErrorData(t *testing.T) {
	t.Parallel()
	pending := &Proposal{ID: "prop_1", Resolution: ResolutionFalsePositive, Note: "salary", Status: ProposalPending, ProposedBy: "alice", ProposedAt: t0}
	_, _, err := ChangeStatusGuarded(caseIn(StatusPendingReview), Actor{UserID: "alice", At: t0}, Guard{Pending: pending},
		StatusResolvedFalsePositive, "me alone")
	e, ok := apperr.As(err)
	require.True(t, ok)
	require.Equal(t, ReasonResolutionPending, e.Data["reason"])
	require.Equal(t, []string{StatusInProgress, StatusEscalated}, e.Data["allowed"])
	require.Equal(t, "prop_1", e.Data["pendingProposal"].(map[string]any)["id"])

	_, _, err = ChangeStatusGuarded(caseIn(StatusEscalated), Actor{UserID: "alice", At: t0}, Guard{FourEyesRequired: true},
		StatusResolvedTruePositive, "me alone")
	e, _ = apperr.As(err)
	require.Equal(t, ReasonFourEyesRequired, e.Data["reason"])
}

// TestServiceDirectResolutionWhileProposed is issue 48 point 1: the proposer cannot resolve the
// case directly while the proposal is pending, nor can anyone else; the approval by a second
// officer still resolves it, the proposer's own approval is FORBIDDEN.
func TestServiceDirectResolutionWhileProposed(t *testing.T) {
	t.Parallel()
	b := setup(t, StatusEscalated)
	ctx := context.Background()
	alice := audit.Caller{TenantID: "t1", UserID: "alice"}
	bob := audit.Caller{TenantID: "t1", UserID: "bob"}
	prop, err := b.svc.Propose(ctx, alice, "case_x", ProposeParams{Resolution: ResolutionFalsePositive, Note: "salary"})
	require.NoError(t, err)
	for _, who := range []audit.Caller{alice, bob} {
		_, err = b.svc.ChangeStatus(ctx, who, "case_x", StatusResolvedFalsePositive, "me alone")
		require.Equal(t, apperr.Conflict, apperr.CodeOf(err), who.UserID)
	}
	require.Equal(t, StatusPendingReview, b.current.Status)
	_, err = b.svc.ApproveProposal(ctx, alice, "case_x", prop.ID)
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(err))
	c, err := b.svc.ApproveProposal(ctx, bob, "case_x", prop.ID)
	require.NoError(t, err)
	require.Equal(t, StatusResolvedFalsePositive, c.Status)

	t.Run("four eyes required", func(t *testing.T) {
		t.Parallel()
		b := setup(t, StatusEscalated)
		b.fourEyes = true
		_, err := b.svc.ChangeStatus(ctx, alice, "case_x", StatusResolvedTruePositive, "direct")
		require.Equal(t, apperr.Conflict, apperr.CodeOf(err))
		c, err := b.svc.ChangeStatus(ctx, alice, "case_x", StatusInProgress, "")
		require.NoError(t, err, "moves that do not resolve stay direct")
		require.Equal(t, StatusInProgress, c.Status)
	})
}
