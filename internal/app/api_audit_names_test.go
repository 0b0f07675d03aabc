package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
)

// TestAuditActorNames (issue 50 point 2): the audit log names its actors. Each event carries
// its user's name beside the id, and the answer lists the tenant's users by name for the actor
// filter, to the administrator and the auditor alike; another tenant's users are not listed.
func TestAuditActorNames(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	officer, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)
	other, _ := s.tenant()
	stranger, _ := s.userWithRole(other.ID, auth.RoleComplianceOfficer)

	env := s.rest("POST", "/api/v1/auth/me/password", cred{Bearer: officerTok}, map[string]any{"currentPassword": pgtest.Password, "newPassword": "a-new-password-1"})
	require.True(t, env.Success, "%s", env.Raw)

	type page struct {
		Items []struct {
			ActorID, ActorName, Action string
		}
		Actors []struct{ ID, Name string }
	}
	want := officer.FirstName + " " + officer.LastName
	for _, tok := range []string{admin, auditor} {
		var p page
		s.rest("GET", "/api/v1/audit-events?action=auth.password_changed&actorId="+officer.ID, cred{Bearer: tok}, nil).decode(t, &p)
		require.Len(t, p.Items, 1)
		require.Equal(t, officer.ID, p.Items[0].ActorID)
		require.Equal(t, want, p.Items[0].ActorName)
		names := map[string]string{}
		for _, a := range p.Actors {
			names[a.ID] = a.Name
		}
		require.Equal(t, want, names[officer.ID])
		require.NotContains(t, names, stranger.ID)
		require.Len(t, names, 3) // the admin, the officer and the auditor
	}
}
