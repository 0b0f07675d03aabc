package cases

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestEventSentences: the timeline's descriptions are written as people write (issue 50 point
// 4): statuses, resolutions and interdiction actions in words, never their wire spelling
// ("Status changed from OPEN to IN_PROGRESS", which the case page showed as "from OPEN to In
// progress").
func TestEventSentences(t *testing.T) {
	t.Parallel()
	a, b := Actor{UserID: "u1", At: t0}, Actor{UserID: "u2", At: t0.Add(time.Minute)}
	desc := func(eff Effects) []string {
		out := make([]string, 0, len(eff.Events))
		for _, e := range eff.Events {
			out = append(out, e.Description)
		}
		return out
	}

	_, eff, err := ChangeStatus(caseIn(StatusOpen), a, StatusInProgress, "")
	require.NoError(t, err)
	require.Equal(t, []string{"Status changed from open to in progress"}, desc(eff))
	ev := eff.Events[0]
	require.Equal(t, StatusOpen, *ev.PreviousValue, "the values stay the wire's")
	require.Equal(t, StatusInProgress, *ev.NewValue)

	c, p := proposed(t, StatusEscalated, ResolutionFalsePositive)
	_, _, eff, err = ApproveProposal(c, p, b)
	require.NoError(t, err)
	require.Equal(t, []string{"Resolution false positive approved", "Status changed from pending review to resolved false positive"}, desc(eff))

	c, in, eff, err := RequestInterdiction(caseIn(StatusEscalated), a,
		InterdictionParams{Action: InterdictionPostNoDebit, AccountNumber: "0123456789", Reason: "sanctions hit"})
	require.NoError(t, err)
	require.Equal(t, []string{"Post no debit requested on account 0123456789"}, desc(eff))
	c, in, eff, err = ConfirmInterdiction(c, in, b, "CBS-1")
	require.NoError(t, err)
	require.Equal(t, []string{"Post no debit confirmed on account 0123456789"}, desc(eff))
	c, in, eff, err = RequestLift(c, in, a, "court order vacated")
	require.NoError(t, err)
	require.Equal(t, []string{"Lift of post no debit on account 0123456789 requested"}, desc(eff))
	_, _, eff, err = RejectLift(c, in, b, "order still in force")
	require.NoError(t, err)
	require.Equal(t, []string{"Lift of post no debit on account 0123456789 rejected"}, desc(eff))
	_, _, eff, err = ApproveLift(c, in, b, "")
	require.NoError(t, err)
	require.Equal(t, []string{"Post no debit on account 0123456789 lifted"}, desc(eff))
}
