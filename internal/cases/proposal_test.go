package cases

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

func statusMoves(eff Effects) [][2]string {
	var out [][2]string
	for _, ev := range eff.Events {
		if ev.EventType == EventStatusChanged {
			out = append(out, [2]string{*ev.PreviousValue, *ev.NewValue})
		}
	}
	return out
}

func eventTypes(eff Effects) []string {
	var out []string
	for _, ev := range eff.Events {
		out = append(out, ev.EventType)
	}
	return out
}

func TestPropose(t *testing.T) {
	t.Parallel()
	a := Actor{UserID: "analyst", At: t0}
	params := ProposeParams{Resolution: ResolutionFalsePositive, Note: "customer known"}
	tests := []struct {
		from      string
		wantMoves [][2]string
		wantCode  apperr.Code
	}{
		{StatusOpen, [][2]string{{StatusOpen, StatusInProgress}, {StatusInProgress, StatusPendingReview}}, ""},
		{StatusInProgress, [][2]string{{StatusInProgress, StatusPendingReview}}, ""},
		{StatusEscalated, [][2]string{{StatusEscalated, StatusPendingReview}}, ""},
		{StatusPendingReview, nil, ""},
		{StatusResolvedTruePositive, nil, apperr.InvalidStatusTransition},
		{StatusResolvedFalsePositive, nil, apperr.InvalidStatusTransition},
		{StatusClosed, nil, apperr.InvalidStatusTransition},
	}
	require.Len(t, tests, len(Statuses()))
	for _, tt := range tests {
		t.Run(tt.from, func(t *testing.T) {
			t.Parallel()
			c, p, eff, err := Propose(caseIn(tt.from), a, params)
			if tt.wantCode != "" {
				require.Equal(t, tt.wantCode, apperr.CodeOf(err))
				e, _ := apperr.As(err)
				require.Equal(t, map[string]any{"from": tt.from, "to": StatusPendingReview, "allowed": wantMoves[tt.from]}, e.Data)
				return
			}
			require.NoError(t, err)
			require.Equal(t, StatusPendingReview, c.Status)
			require.Equal(t, tt.wantMoves, statusMoves(eff))
			require.Equal(t, EventResolutionProposed, eff.Events[len(eff.Events)-1].EventType)
			require.Empty(t, eff.Webhooks)
			require.Regexp(t, `^prop_`, p.ID)
			require.Equal(t, Proposal{ID: p.ID, CaseID: "case_x", Resolution: ResolutionFalsePositive,
				Note: "customer known", Status: ProposalPending, ProposedBy: "analyst", ProposedAt: t0}, p)
		})
	}

	t.Run("invalid", func(t *testing.T) {
		t.Parallel()
		_, _, _, err := Propose(caseIn(StatusInProgress), a, ProposeParams{Resolution: "MAYBE"})
		e, _ := apperr.As(err)
		require.Equal(t, apperr.Validation, e.Code)
		require.Equal(t, []apperr.FieldError{
			{Field: "resolution", Message: "must be TRUE_POSITIVE or FALSE_POSITIVE"},
			{Field: "note", Message: "is required"},
		}, e.Details)
	})
}

func proposed(t *testing.T, from, resolution string) (Case, Proposal) {
	t.Helper()
	c, p, _, err := Propose(caseIn(from), Actor{UserID: "analyst", At: t0}, ProposeParams{Resolution: resolution, Note: "the note"})
	require.NoError(t, err)
	return c, p
}

func TestApproveProposal(t *testing.T) {
	t.Parallel()
	later := Actor{UserID: "officer", At: t0.Add(time.Hour)}

	for res, want := range map[string]string{ResolutionTruePositive: StatusResolvedTruePositive, ResolutionFalsePositive: StatusResolvedFalsePositive} {
		t.Run(res, func(t *testing.T) {
			t.Parallel()
			c, p := proposed(t, StatusOpen, res)
			c, p, eff, err := ApproveProposal(c, p, later)
			require.NoError(t, err)
			require.Equal(t, want, c.Status)
			require.Equal(t, "the note", c.ResolutionNote)
			require.Equal(t, later.At, *c.ResolvedAt)
			require.Equal(t, ProposalApproved, p.Status)
			require.Equal(t, "officer", *p.DecidedBy)
			require.Equal(t, later.At, *p.DecidedAt)
			require.Equal(t, []string{EventResolutionApproved, EventStatusChanged}, eventTypes(eff))
			require.Equal(t, [][2]string{{StatusPendingReview, want}}, statusMoves(eff))
			require.Len(t, eff.Webhooks, 1)
			require.Equal(t, WebhookCaseResolved, eff.Webhooks[0].Event)
		})
	}

	t.Run("four eyes", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionTruePositive)
		_, _, _, err := ApproveProposal(c, p, Actor{UserID: "analyst", At: t0})
		require.Equal(t, apperr.Forbidden, apperr.CodeOf(err))
		_, _, _, err = ApproveProposal(c, p, Actor{At: t0})
		require.Equal(t, apperr.Forbidden, apperr.CodeOf(err), "the system is nobody's second pair of eyes")
	})

	t.Run("already decided", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionTruePositive)
		c2, p2, _, err := ApproveProposal(c, p, later)
		require.NoError(t, err)
		_, _, _, err = ApproveProposal(c2, p2, Actor{UserID: "other", At: t0})
		require.Equal(t, apperr.Conflict, apperr.CodeOf(err))
		_, _, _, err = RejectProposal(c2, p2, Actor{UserID: "other", At: t0}, "no")
		require.Equal(t, apperr.Conflict, apperr.CodeOf(err))
	})

	t.Run("case moved away", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionTruePositive)
		c, _, err := ChangeStatus(c, later, StatusInProgress, "")
		require.NoError(t, err)
		_, _, _, err = ApproveProposal(c, p, later)
		require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err))
	})

	t.Run("escalated after proposal", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionFalsePositive)
		c, _, err := ChangeStatus(c, later, StatusEscalated, "")
		require.NoError(t, err)
		c, _, _, err = ApproveProposal(c, p, later)
		require.NoError(t, err)
		require.Equal(t, StatusResolvedFalsePositive, c.Status)
	})

	t.Run("other case", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionFalsePositive)
		c.ID = "case_other"
		_, _, _, err := ApproveProposal(c, p, later)
		require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
	})
}

func TestRejectProposal(t *testing.T) {
	t.Parallel()
	officer := Actor{UserID: "officer", At: t0.Add(time.Hour)}

	t.Run("back to in progress", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusOpen, ResolutionTruePositive)
		c, p, eff, err := RejectProposal(c, p, officer, " need more evidence ")
		require.NoError(t, err)
		require.Equal(t, StatusInProgress, c.Status)
		require.Nil(t, c.ResolvedAt)
		require.Equal(t, ProposalRejected, p.Status)
		require.Equal(t, "need more evidence", p.Reason)
		require.Equal(t, "officer", *p.DecidedBy)
		require.Equal(t, []string{EventResolutionRejected, EventStatusChanged}, eventTypes(eff))
		require.Equal(t, [][2]string{{StatusPendingReview, StatusInProgress}}, statusMoves(eff))
		require.Empty(t, eff.Webhooks)

		// A new proposal after a rejection is allowed.
		_, _, _, err = Propose(c, Actor{UserID: "analyst", At: t0}, ProposeParams{Resolution: ResolutionTruePositive, Note: "more"})
		require.NoError(t, err)
	})

	t.Run("already in progress", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionTruePositive)
		c.Status = StatusInProgress
		c, _, eff, err := RejectProposal(c, p, officer, "no")
		require.NoError(t, err)
		require.Equal(t, StatusInProgress, c.Status)
		require.Equal(t, []string{EventResolutionRejected}, eventTypes(eff))
	})

	t.Run("reason required", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionTruePositive)
		_, _, _, err := RejectProposal(c, p, officer, " ")
		e, _ := apperr.As(err)
		require.Equal(t, "reason", e.Details[0].Field)
	})

	t.Run("four eyes", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionTruePositive)
		_, _, _, err := RejectProposal(c, p, Actor{UserID: "analyst", At: t0}, "withdrawn")
		require.Equal(t, apperr.Forbidden, apperr.CodeOf(err))
	})

	t.Run("resolved case", func(t *testing.T) {
		t.Parallel()
		c, p := proposed(t, StatusInProgress, ResolutionTruePositive)
		c.Status = StatusResolvedFalsePositive
		_, _, _, err := RejectProposal(c, p, officer, "no")
		require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err))
	})
}
