package app

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// TestCaseFourEyesBypassREST is issue 48 point 1 over /api/v1: with a proposal pending, its
// proposer (and anyone else) is refused a direct resolution with 409 CONFLICT carrying the
// pending proposal; the detail's allowedTransitions offers no resolution; the proposer cannot
// approve it; a second officer's approval resolves it. With the tenant's fourEyesResolution on,
// a direct resolution is refused for everyone, even with no proposal.
func TestCaseFourEyesBypassREST(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, auditorTok := s.userWithRole(f.ID, auth.RoleAuditor)

	newCase := func() caseJSON {
		var c caseJSON
		s.rest("POST", "/api/v1/cases", cred{Bearer: admin}, map[string]any{"type": "SANCTIONS_HIT", "priority": "HIGH", "title": "t", "description": "d"}).decode(t, &c)
		s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: admin}, map[string]any{"status": "ESCALATED"}).decode(t, &c)
		return c
	}
	allowed := func(id, tok string) []string {
		var d struct {
			AllowedTransitions []string `json:"allowedTransitions"`
		}
		s.rest("GET", "/api/v1/cases/"+id, cred{Bearer: tok}, nil).decode(t, &d)
		return d.AllowedTransitions
	}

	c := newCase()
	require.ElementsMatch(t, []string{"IN_PROGRESS", "PENDING_REVIEW", "RESOLVED_TRUE_POSITIVE", "RESOLVED_FALSE_POSITIVE"}, allowed(c.ID, admin))
	require.Empty(t, allowed(c.ID, auditorTok), "a read-only role is offered no move")

	var prop struct {
		ID string `json:"id"`
	}
	s.rest("POST", "/api/v1/cases/"+c.ID+"/resolution-proposals", cred{Bearer: admin}, map[string]any{"resolution": "FALSE_POSITIVE", "note": "salary"}).decode(t, &prop)
	require.ElementsMatch(t, []string{"IN_PROGRESS", "ESCALATED"}, allowed(c.ID, admin))
	for _, tok := range []string{admin, officerTok} {
		env := s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: tok}, map[string]any{"status": "RESOLVED_FALSE_POSITIVE", "resolutionNote": "me alone"})
		requireRESTError(t, env, http.StatusConflict, "CONFLICT")
		var data struct {
			Reason          string   `json:"reason"`
			Allowed         []string `json:"allowed"`
			PendingProposal struct {
				ID         string `json:"id"`
				Resolution string `json:"resolution"`
			} `json:"pendingProposal"`
		}
		require.NoError(t, json.Unmarshal(env.Error.Data, &data))
		require.Equal(t, "RESOLUTION_PENDING", data.Reason)
		require.Equal(t, prop.ID, data.PendingProposal.ID)
		require.Equal(t, "FALSE_POSITIVE", data.PendingProposal.Resolution)
	}
	var got caseJSON
	s.rest("GET", "/api/v1/cases/"+c.ID, cred{Bearer: admin}, nil).decode(t, &got)
	require.Equal(t, "PENDING_REVIEW", got.Status, "nothing changed")
	requireRESTError(t, s.rest("POST", "/api/v1/cases/"+c.ID+"/resolution-proposals/"+prop.ID+"/approve", cred{Bearer: admin}, map[string]any{}),
		http.StatusForbidden, "FORBIDDEN")
	s.rest("POST", "/api/v1/cases/"+c.ID+"/resolution-proposals/"+prop.ID+"/approve", cred{Bearer: officerTok}, map[string]any{}).decode(t, &got)
	require.Equal(t, "RESOLVED_FALSE_POSITIVE", got.Status)

	// The tenant setting: off by default, BANK_ADMIN only, audited.
	var set struct {
		FourEyesResolution bool `json:"fourEyesResolution"`
	}
	s.rest("GET", "/api/v1/tenants/me/case-settings", cred{Bearer: admin}, nil).decode(t, &set)
	require.False(t, set.FourEyesResolution)
	requireRESTError(t, s.rest("PATCH", "/api/v1/tenants/me/case-settings", cred{Bearer: officerTok}, map[string]any{"fourEyesResolution": true}),
		http.StatusForbidden, "FORBIDDEN")
	s.rest("PATCH", "/api/v1/tenants/me/case-settings", cred{Bearer: admin}, map[string]any{"fourEyesResolution": true}).decode(t, &set)
	require.True(t, set.FourEyesResolution)

	c = newCase()
	require.ElementsMatch(t, []string{"IN_PROGRESS", "PENDING_REVIEW"}, allowed(c.ID, admin))
	env := s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: admin}, map[string]any{"status": "RESOLVED_TRUE_POSITIVE", "resolutionNote": "direct"})
	requireRESTError(t, env, http.StatusConflict, "CONFLICT")
	require.Contains(t, string(env.Error.Data), `"FOUR_EYES_REQUIRED"`)
	// Closing a resolved case stays direct (its resolution went through four eyes).
	require.Equal(t, []string{"CLOSED", "IN_PROGRESS"}, allowed(got.ID, admin))
	s.rest("PATCH", "/api/v1/cases/"+got.ID+"/status", cred{Bearer: officerTok}, map[string]any{"status": "CLOSED", "resolutionNote": "done"}).decode(t, &got)
	require.Equal(t, "CLOSED", got.Status)

	var audits struct {
		Items []struct {
			Action string `json:"action"`
		} `json:"items"`
	}
	s.rest("GET", "/api/v1/audit-events?action=case_settings.updated", cred{Bearer: admin}, nil).decode(t, &audits)
	require.Len(t, audits.Items, 1)
}

// TestCaseFourEyesBypassConnect is the same refusal over Connect and gRPC: FailedPrecondition
// or the CONFLICT mapping with the pending proposal in the typed detail's data.
func TestCaseFourEyesBypassConnect(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	for _, proto := range []string{"connect", "grpc"} {
		t.Run(proto, func(t *testing.T) {
			ctx := context.Background()
			cl := s.caseClient(proto, cred{Bearer: officerTok})
			c, err := cl.CreateCase(ctx, connect.NewRequest(&complydv1.CreateCaseRequest{Type: "AML_ALERT", Priority: "LOW", Title: "t", Description: "d"}))
			require.NoError(t, err)
			_, err = cl.UpdateCaseStatus(ctx, connect.NewRequest(&complydv1.UpdateCaseStatusRequest{Id: c.Msg.Id, Status: "ESCALATED"}))
			require.NoError(t, err)
			p, err := cl.ProposeResolution(ctx, connect.NewRequest(&complydv1.ProposeResolutionRequest{Id: c.Msg.Id, Resolution: "TRUE_POSITIVE", Note: "fraud"}))
			require.NoError(t, err)
			note := "me alone"
			_, err = cl.UpdateCaseStatus(ctx, connect.NewRequest(&complydv1.UpdateCaseStatusRequest{Id: c.Msg.Id, Status: "RESOLVED_TRUE_POSITIVE", ResolutionNote: &note}))
			_, info := errorInfo(t, err)
			require.Equal(t, "CONFLICT", info.Code)
			require.Equal(t, "RESOLUTION_PENDING", info.Data.AsMap()["reason"])
			require.Equal(t, p.Msg.Id, info.Data.AsMap()["pendingProposal"].(map[string]any)["id"])

			got, err := s.caseClient(proto, cred{Bearer: admin}).GetCase(ctx, connect.NewRequest(&complydv1.GetCaseRequest{Id: c.Msg.Id}))
			require.NoError(t, err)
			require.ElementsMatch(t, []string{"IN_PROGRESS", "ESCALATED"}, got.Msg.AllowedTransitions)
			_, err = cl.ApproveResolution(ctx, connect.NewRequest(&complydv1.ApproveResolutionRequest{Id: c.Msg.Id, ProposalId: p.Msg.Id}))
			code, _ := errorInfo(t, err)
			require.Equal(t, connect.CodePermissionDenied, code)

			// The tenant setting: a direct resolution is refused for everyone, with no proposal.
			on := true
			set, err := s.caseClient(proto, cred{Bearer: admin}).UpdateCaseSettings(ctx, connect.NewRequest(&complydv1.UpdateCaseSettingsRequest{FourEyesResolution: &on}))
			require.NoError(t, err)
			require.True(t, set.Msg.FourEyesResolution)
			c2, err := cl.CreateCase(ctx, connect.NewRequest(&complydv1.CreateCaseRequest{Type: "AML_ALERT", Priority: "LOW", Title: "t2", Description: "d"}))
			require.NoError(t, err)
			_, err = cl.UpdateCaseStatus(ctx, connect.NewRequest(&complydv1.UpdateCaseStatusRequest{Id: c2.Msg.Id, Status: "ESCALATED"}))
			require.NoError(t, err)
			for _, tok := range []string{officerTok, admin} {
				_, err = s.caseClient(proto, cred{Bearer: tok}).UpdateCaseStatus(ctx, connect.NewRequest(&complydv1.UpdateCaseStatusRequest{Id: c2.Msg.Id, Status: "RESOLVED_FALSE_POSITIVE", ResolutionNote: &note}))
				code, info := errorInfo(t, err)
				require.Equal(t, connect.CodeFailedPrecondition, code)
				require.Equal(t, "CONFLICT", info.Code)
				require.Equal(t, "FOUR_EYES_REQUIRED", info.Data.AsMap()["reason"])
			}
			got, err = s.caseClient(proto, cred{Bearer: admin}).GetCase(ctx, connect.NewRequest(&complydv1.GetCaseRequest{Id: c2.Msg.Id}))
			require.NoError(t, err)
			require.Equal(t, "ESCALATED", got.Msg.Status)
			require.ElementsMatch(t, []string{"IN_PROGRESS", "PENDING_REVIEW"}, got.Msg.AllowedTransitions)

			_, err = s.caseClient(proto, cred{Bearer: admin}).UpdateCaseSettings(ctx, connect.NewRequest(&complydv1.UpdateCaseSettingsRequest{FourEyesResolution: new(bool)}))
			require.NoError(t, err)
		})
	}
}
