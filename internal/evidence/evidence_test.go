package evidence

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
)

func TestApprove(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	actor := audit.Actor{ID: "u1", Type: audit.ActorUser}
	open := Standing{Checks: []Check{{Kind: "ID_DOCUMENT", Status: Missing, Detail: "no document"}},
		OpenCases: []Case{{ID: "c1", Number: "CASE-2026-000001", Type: "KYC_REVIEW"}}}
	for _, tc := range []struct {
		name         string
		s            Standing
		required     bool
		wantOverride bool
		wantCode     apperr.Code
	}{
		{"nothing open, default", Standing{}, false, false, ""},
		{"nothing open, required", Standing{}, true, false, ""},
		{"open, default: override", open, false, true, ""},
		{"open, required: refused", open, true, false, apperr.InvalidStatusTransition},
		{"only a case open, required", Standing{OpenCases: open.OpenCases}, true, false, apperr.InvalidStatusTransition},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ov, err := Approve(tc.s, tc.required, "BVN_VERIFIED", "APPROVED", []string{"REJECTED"}, actor, " seen in branch ", now)
			if tc.wantCode != "" {
				require.Equal(t, tc.wantCode, apperr.CodeOf(err))
				var e *apperr.Error
				require.ErrorAs(t, err, &e)
				require.Len(t, e.Data["openChecks"], len(tc.s.Checks))
				require.Len(t, e.Data["openCases"], len(tc.s.OpenCases))
				require.Nil(t, ov)
				return
			}
			require.NoError(t, err)
			if !tc.wantOverride {
				require.Nil(t, ov)
				return
			}
			require.NotNil(t, ov)
			require.Equal(t, "seen in branch", ov.Notes)
			require.Equal(t, "u1", ov.ActorID)
			require.Equal(t, now, ov.CreatedAt)
			require.Equal(t, tc.s.Checks, ov.Checks)
			require.Equal(t, []string{"CASE-2026-000001"}, ov.Audit()["openCases"])
		})
	}
}
