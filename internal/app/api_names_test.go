package app

import (
	"context"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/tenancy"
)

// rename gives a user a first and last name the test can tell apart (the fixtures all share one).
func (s *testServer) rename(tenantID tenancy.TenantID, userID, first, last string) string {
	s.t.Helper()
	_, err := s.admin().Exec(context.Background(), `update users set first_name = $1, last_name = $2 where id = $3 and tenant_id = $4`,
		first, last, userID, string(tenantID))
	require.NoError(s.t, err)
	return first + " " + last
}

// TestReportNames: a report's detail names its preparer, submitter, approver and filer and every
// timeline actor, over REST, Connect and gRPC alike; the system's events and a user of another
// tenant get no name (the dashboard shows "Unknown user"), never the id.
func TestReportNames(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	s.reportSettings(admin, nil)
	adminName := s.rename(f.ID, f.AdminID, "Chidi", "Okafor")
	o, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	officerName := s.rename(f.ID, o.ID, "Ngozi", "Eze")

	account := newAccount()
	_, env := s.screen(admin, cashBody(account, 5_000_000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	id := s.reports(admin, "?type=CTR&customerAccount="+account).Items[0].ID
	_, env = s.report(officer, "PATCH", "/api/v1/reports/"+id, map[string]any{"action": "Source of funds documented."})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(officer, "POST", "/api/v1/reports/"+id+"/submit", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(admin, "POST", "/api/v1/reports/"+id+"/approve", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(officer, "POST", "/api/v1/reports/"+id+"/file", map[string]any{"reference": "NFIU-NAMES-1"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	type named struct {
		prepared, submitted, approved, filed string
		actors                               map[string]string // action -> actor name (the last of each)
		actorIDs                             map[string]string
	}
	get := func(proto string) named {
		out := named{actors: map[string]string{}, actorIDs: map[string]string{}}
		if proto == "rest" {
			var r struct {
				PreparedByName, SubmittedByName, ApprovedByName, FiledByName string
				Timeline                                                     []struct {
					Action    string  `json:"action"`
					ActorID   *string `json:"actorId"`
					ActorName string  `json:"actorName"`
				}
			}
			env := s.rest("GET", "/api/v1/reports/"+id, cred{Bearer: officer}, nil)
			require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
			env.decode(t, &r)
			out.prepared, out.submitted, out.approved, out.filed = r.PreparedByName, r.SubmittedByName, r.ApprovedByName, r.FiledByName
			for _, e := range r.Timeline {
				out.actors[e.Action] = e.ActorName
				if e.ActorID != nil {
					out.actorIDs[e.Action] = *e.ActorID
				}
			}
			return out
		}
		hc, opts := s.clientOpts(proto, cred{Bearer: officer})
		res, err := complydv1connect.NewReportServiceClient(hc, s.URL, opts...).GetReport(context.Background(),
			connect.NewRequest(&complydv1.GetReportRequest{Id: id}))
		require.NoError(t, err, proto)
		r := res.Msg
		out.prepared, out.submitted, out.approved, out.filed = r.PreparedByName, r.SubmittedByName, r.ApprovedByName, r.FiledByName
		for _, e := range r.Timeline {
			out.actors[e.Action] = e.ActorName
			if e.ActorId != nil {
				out.actorIDs[e.Action] = e.ActorId.Value
			}
		}
		return out
	}
	for _, proto := range protocols {
		got := get(proto)
		require.Equal(t, officerName, got.prepared, proto)
		require.Equal(t, officerName, got.submitted, proto)
		require.Equal(t, adminName, got.approved, proto)
		require.Equal(t, officerName, got.filed, proto)
		require.Equal(t, officerName, got.actors["UPDATED"], proto)
		require.Equal(t, officerName, got.actors["SUBMITTED"], proto)
		require.Equal(t, adminName, got.actors["APPROVED"], proto)
		require.Equal(t, officerName, got.actors["FILED"], proto)
		require.Empty(t, got.actorIDs["CREATED"], "%s: the screening drafted it", proto)
		require.Empty(t, got.actors["CREATED"], proto)
	}

	// A user id the tenant does not have (here another tenant's user, written past the API) is
	// not named: the lookup is tenant-scoped.
	g, _ := s.tenant()
	_, err := s.admin().Exec(context.Background(), `update reports set filed_by = $1 where id = $2`, g.AdminID, id)
	require.NoError(t, err)
	for _, proto := range protocols {
		got := get(proto)
		require.Empty(t, got.filed, proto)
		require.Equal(t, adminName, got.approved, proto)
	}
}

// TestInterdictionNames: an interdiction names its requester, confirmer and the two lift
// officers on every read (the queue, one interdiction, a case's list, the case page) and every
// change, over REST, Connect and gRPC.
func TestInterdictionNames(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	adminName := s.rename(f.ID, f.AdminID, "Chidi", "Okafor")
	o, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	officerName := s.rename(f.ID, o.ID, "Ngozi", "Eze")

	in := s.interdict(officerTok, "FREEZE", "3400000001")
	s.confirmInterdiction(admin, in.ID)
	env := s.rest("POST", "/api/v1/interdictions/"+in.ID+"/lift", cred{Bearer: officerTok}, map[string]any{"reason": "court order vacated"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var lr struct{ RequestedByName, LiftRequestedByName, LiftedByName string }
	env.decode(t, &lr)
	require.Equal(t, officerName, lr.RequestedByName)
	require.Equal(t, officerName, lr.LiftRequestedByName)
	require.Empty(t, lr.LiftedByName)
	env = s.rest("POST", "/api/v1/interdictions/"+in.ID+"/lift/approve", cred{Bearer: admin}, map[string]any{"note": "checked"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	type names struct{ Requested, Confirmed, LiftRequested, Lifted string }
	want := names{officerName, adminName, officerName, adminName}
	fromProto := func(m *complydv1.Interdiction) names {
		return names{m.RequestedByName, m.ConfirmedByName, m.LiftRequestedByName, m.LiftedByName}
	}
	type restIn struct {
		ID                                                                  string
		RequestedByName, ConfirmedByName, LiftRequestedByName, LiftedByName string
	}
	fromREST := func(m restIn) names {
		return names{m.RequestedByName, m.ConfirmedByName, m.LiftRequestedByName, m.LiftedByName}
	}
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			if proto == "rest" {
				var one restIn
				s.rest("GET", "/api/v1/interdictions/"+in.ID, cred{Bearer: officerTok}, nil).decode(t, &one)
				require.Equal(t, want, fromREST(one))
				var l struct{ Items []restIn }
				s.rest("GET", "/api/v1/interdictions?caseId="+in.CaseID, cred{Bearer: officerTok}, nil).decode(t, &l)
				require.Len(t, l.Items, 1)
				require.Equal(t, want, fromREST(l.Items[0]))
				l.Items = nil
				s.rest("GET", "/api/v1/cases/"+in.CaseID+"/interdictions", cred{Bearer: officerTok}, nil).decode(t, &l)
				require.Len(t, l.Items, 1)
				require.Equal(t, want, fromREST(l.Items[0]))
				return
			}
			hc, opts := s.clientOpts(proto, cred{Bearer: officerTok})
			ctx := context.Background()
			ic := complydv1connect.NewInterdictionServiceClient(hc, s.URL, opts...)
			one, err := ic.GetInterdiction(ctx, connect.NewRequest(&complydv1.GetInterdictionRequest{Id: in.ID}))
			require.NoError(t, err)
			require.Equal(t, want, fromProto(one.Msg))
			q, err := ic.ListInterdictionQueue(ctx, connect.NewRequest(&complydv1.ListInterdictionQueueRequest{CaseId: &in.CaseID}))
			require.NoError(t, err)
			require.Len(t, q.Msg.Items, 1)
			require.Equal(t, want, fromProto(q.Msg.Items[0]))
			cl, err := complydv1connect.NewCaseServiceClient(hc, s.URL, opts...).ListInterdictions(ctx,
				connect.NewRequest(&complydv1.ListInterdictionsRequest{Id: in.CaseID}))
			require.NoError(t, err)
			require.Len(t, cl.Msg.Items, 1)
			require.Equal(t, want, fromProto(cl.Msg.Items[0]))
			ws, err := complydv1connect.NewCaseWorkspaceServiceClient(hc, s.URL, opts...).GetCaseWorkspace(ctx,
				connect.NewRequest(&complydv1.GetCaseWorkspaceRequest{Id: in.CaseID}))
			require.NoError(t, err)
			require.Len(t, ws.Msg.Interdictions, 1)
			require.Equal(t, want, fromProto(ws.Msg.Interdictions[0]))
		})
	}

	// A user id the tenant does not have (another tenant's user, written past the API) gets no
	// name: the lookup is tenant-scoped.
	g, _ := s.tenant()
	_, err := s.admin().Exec(context.Background(), `update case_interdictions set lifted_by = $1 where id = $2`, g.AdminID, in.ID)
	require.NoError(t, err)
	var one restIn
	s.rest("GET", "/api/v1/interdictions/"+in.ID, cred{Bearer: officerTok}, nil).decode(t, &one)
	require.Equal(t, names{officerName, adminName, officerName, ""}, fromREST(one))
}
