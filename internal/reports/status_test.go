package reports

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
)

// TestStatusMachine covers every from × to pair (docs/guide/reports.md "Statuses").
func TestStatusMachine(t *testing.T) {
	t.Parallel()
	allowed := map[[2]string]bool{
		{StatusDraft, StatusPendingApproval}:    true,
		{StatusPendingApproval, StatusApproved}: true,
		{StatusPendingApproval, StatusDraft}:    true, // rejection
		{StatusApproved, StatusFiled}:           true, // manual filing
		{StatusApproved, StatusFiling}:          true, // claimed for the filing endpoint
		{StatusFiling, StatusFiled}:             true,
		{StatusFiling, StatusFilingFailed}:      true,
		{StatusFilingFailed, StatusFiling}:      true, // retry
		{StatusFilingFailed, StatusFiled}:       true, // manual filing after an unusable answer
	}
	for _, from := range Statuses {
		for _, to := range Statuses {
			r := &Report{Status: from}
			err := r.move(to)
			if allowed[[2]string{from, to}] {
				require.NoError(t, err, "%s → %s", from, to)
				require.Equal(t, to, r.Status)
				continue
			}
			require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(err), "%s → %s", from, to)
			require.Equal(t, from, r.Status)
		}
	}
}

// TestFourEyes: the preparer and the submitter may not decide; anyone else may.
func TestFourEyes(t *testing.T) {
	t.Parallel()
	r := &Report{PreparedBy: "u1", SubmittedBy: "u2"}
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(fourEyes(r, audit.Caller{UserID: "u1"})))
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(fourEyes(r, audit.Caller{UserID: "u2"})))
	require.NoError(t, fourEyes(r, audit.Caller{UserID: "u3"}))

	// Issue 48 point 2: an editor who is neither the preparer nor the submitter counts too.
	r.Contributors = []string{"u1", "u4"}
	require.Equal(t, apperr.Forbidden, apperr.CodeOf(fourEyes(r, audit.Caller{UserID: "u4"})))
	require.NoError(t, fourEyes(r, audit.Caller{UserID: "u3"}))
}
