package cases

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

// TestInterdictionLiftMachine: every status × lift operation, and the four eyes.
func TestInterdictionLiftMachine(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	c := caseIn(StatusOpen)
	first, second := Actor{UserID: "u1", At: t0}, Actor{UserID: "u2", At: t0.Add(time.Minute)}
	in := func(status string) Interdiction {
		return Interdiction{ID: "intd_1", CaseID: c.ID, Action: InterdictionFreeze, AccountNumber: "0123456789", Status: status}
	}
	for _, st := range []string{InterdictionRequested, InterdictionLiftRequested, InterdictionLifted} {
		_, _, _, err := RequestLift(c, in(st), first, "vacated")
		require.Equal(t, apperr.Conflict, apperr.CodeOf(err), st)
	}
	for _, st := range []string{InterdictionRequested, InterdictionConfirmed, InterdictionLifted} {
		_, _, _, err := ApproveLift(c, in(st), second, "")
		require.Equal(t, apperr.Conflict, apperr.CodeOf(err), st)
		_, _, _, err = RejectLift(c, in(st), second, "no")
		require.Equal(t, apperr.Conflict, apperr.CodeOf(err), st)
	}
	_, _, _, err := RequestLift(c, in(InterdictionConfirmed), first, " ")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))

	_, req, eff, err := RequestLift(c, in(InterdictionConfirmed), first, "court order vacated")
	require.NoError(t, err)
	require.Equal(t, InterdictionLiftRequested, req.Status)
	require.Equal(t, EventInterdictionLiftRequested, eff.Events[0].EventType)
	require.Empty(t, eff.Webhooks, "the bank is told only once the lift is approved")

	_, _, _, err = ApproveLift(c, req, first, "")
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(err), "the requester is not the second pair of eyes")
	_, _, _, err = ApproveLift(c, req, Actor{At: t0}, "")
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(err), "nor is the system")
	_, _, _, err = RejectLift(c, req, first, "no")
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(err))

	_, done, eff, err := ApproveLift(c, req, second, "checked")
	require.NoError(t, err)
	require.Equal(t, InterdictionLifted, done.Status)
	require.Equal(t, "u2", *done.LiftedBy)
	require.Equal(t, WebhookInterdictionLifted, eff.Webhooks[0].Event)
	require.Equal(t, "0123456789", eff.Webhooks[0].Data["accountNumber"])

	_, back, eff, err := RejectLift(c, req, second, "order still valid")
	require.NoError(t, err)
	require.Equal(t, InterdictionConfirmed, back.Status)
	require.Nil(t, back.LiftRequestedBy)
	require.Equal(t, EventInterdictionLiftRejected, eff.Events[0].EventType)

	other := in(InterdictionConfirmed)
	other.CaseID = "case_other"
	_, _, _, err = RequestLift(c, other, first, "x")
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
}
