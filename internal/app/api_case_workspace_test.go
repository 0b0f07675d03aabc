package app

import (
	"context"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/pgtest"
)

func (s *testServer) workspaceClient(proto string, c cred) complydv1connect.CaseWorkspaceServiceClient {
	hc, opts := s.clientOpts(proto, c)
	return complydv1connect.NewCaseWorkspaceServiceClient(hc, s.URL, opts...)
}

type inboxJSON struct {
	ID         string       `json:"id"`
	Name       string       `json:"name"`
	Assignment string       `json:"assignment"`
	Members    []personJSON `json:"members"`
	OpenCases  int          `json:"openCases"`
	Breached   int          `json:"breachedCases"`
	SLA        struct {
		Critical int `json:"critical"`
		High     int `json:"high"`
	} `json:"sla"`
}

type queueCaseJSON struct {
	ID         string  `json:"id"`
	AssignedTo *string `json:"assignedTo"`
	InboxID    *string `json:"inboxId"`
	InboxName  string  `json:"inboxName"`
	DueAt      string  `json:"dueAt"`
	CreatedAt  string  `json:"createdAt"`
	Amount     string  `json:"amount"`
	Party      string  `json:"party"`
	TopRule    string  `json:"topRule"`
	Score      float64 `json:"score"`
}

// TestCaseInboxRoundRobinAndSLA: an inbox of SANCTIONS_HIT cases with two officers assigns new
// cases in turn (round robin) in the creating transaction, due by the inbox's service level; a
// case of another type goes to no inbox and is due by the default service level; the timeline
// names the automatic assignee; another tenant's inbox is 404; an officer may not create an
// inbox (403) but may list the assignable people.
func TestCaseInboxRoundRobinAndSLA(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	o1, o1Tok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	o2, _ := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, otherAdmin := s.tenant()

	env := s.rest("POST", "/api/v1/case-inboxes", cred{Bearer: admin}, map[string]any{"name": "Sanctions team",
		"caseTypes": []string{"SANCTIONS_HIT"}, "assignment": "ROUND_ROBIN", "sla": map[string]any{"critical": 60, "high": 120, "medium": 600, "low": 6000},
		"memberIds": []string{o1.ID, o2.ID}})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	var in inboxJSON
	env.decode(t, &in)
	require.Equal(t, "ROUND_ROBIN", in.Assignment)
	require.Len(t, in.Members, 2)
	require.Equal(t, 120, in.SLA.High)

	requireRESTError(t, s.rest("POST", "/api/v1/case-inboxes", cred{Bearer: o1Tok}, map[string]any{"name": "x"}), 403, "FORBIDDEN")
	requireRESTError(t, s.rest("POST", "/api/v1/case-inboxes", cred{Bearer: admin}, map[string]any{"name": "Sanctions team"}), 409, "CONFLICT")
	requireRESTError(t, s.rest("PATCH", "/api/v1/case-inboxes/"+in.ID, cred{Bearer: otherAdmin}, map[string]any{"assignment": "MANUAL"}), 404, "NOT_FOUND")
	requireRESTError(t, s.rest("GET", "/api/v1/case-assignees?inboxId="+in.ID, cred{Bearer: otherAdmin}, nil), 404, "NOT_FOUND")

	create := func(typ, prio string) queueCaseJSON {
		env := s.rest("POST", "/api/v1/cases", cred{Bearer: admin}, map[string]any{"type": typ, "priority": prio, "title": "Hit", "description": "d"})
		require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
		var c queueCaseJSON
		env.decode(t, &c)
		return c
	}
	var got []string
	for range 4 {
		c := create("SANCTIONS_HIT", "HIGH")
		require.NotNil(t, c.AssignedTo)
		require.Equal(t, in.ID, *c.InboxID)
		created, _ := time.Parse(time.RFC3339Nano, c.CreatedAt)
		due, _ := time.Parse(time.RFC3339Nano, c.DueAt)
		require.Equal(t, 120*time.Minute, due.Sub(created))
		got = append(got, *c.AssignedTo)
	}
	// In turn: the first two are the two members (either order), then the same order again.
	require.ElementsMatch(t, []string{o1.ID, o2.ID}, got[:2])
	require.Equal(t, got[:2], got[2:])

	other := create("AML_ALERT", "CRITICAL")
	require.Nil(t, other.AssignedTo)
	require.Nil(t, other.InboxID)
	created, _ := time.Parse(time.RFC3339Nano, other.CreatedAt)
	due, _ := time.Parse(time.RFC3339Nano, other.DueAt)
	require.Equal(t, 240*time.Minute, due.Sub(created), "the default service level for CRITICAL")

	// The timeline names the automatic assignee, after CASE_CREATED.
	var d caseJSON
	s.rest("GET", "/api/v1/cases/"+firstOf(t, s, admin, in.ID), cred{Bearer: admin}, nil).decode(t, &d)
	require.Len(t, d.Timeline, 2)
	require.Equal(t, "CASE_CREATED", d.Timeline[0].EventType)
	require.Equal(t, "ASSIGNED", d.Timeline[1].EventType)
	require.Nil(t, d.Timeline[1].ActorID)
	require.Contains(t, d.Timeline[1].Description, "Sanctions team")

	// The queue filtered by inbox lists the four with inbox names; inbox counts follow.
	env = s.rest("GET", "/api/v1/cases?inboxId="+in.ID+"&sort=DUE", cred{Bearer: o1Tok}, nil)
	var page struct{ Items []queueCaseJSON }
	env.decode(t, &page)
	require.Len(t, page.Items, 4)
	require.Equal(t, "Sanctions team", page.Items[0].InboxName)
	var list struct{ Items []inboxJSON }
	s.rest("GET", "/api/v1/case-inboxes", cred{Bearer: o1Tok}, nil).decode(t, &list)
	require.Len(t, list.Items, 1)
	require.Equal(t, 4, list.Items[0].OpenCases)
	require.Equal(t, 0, list.Items[0].Breached)
	s.Clock.Advance(3 * time.Hour)
	o1Tok = s.login(o1.Email, pgtest.Password) // the access token outlived by the clock
	s.rest("GET", "/api/v1/case-inboxes", cred{Bearer: o1Tok}, nil).decode(t, &list)
	require.Equal(t, 4, list.Items[0].Breached, "past the 2-hour service level")

	// Officers list the assignable people (UserService.ListUsers is an administrator's).
	for _, proto := range []string{"connect", "grpc"} {
		res, err := s.workspaceClient(proto, cred{Bearer: o1Tok}).ListAssignableUsers(context.Background(),
			connect.NewRequest(&complydv1.ListAssignableUsersRequest{InboxId: &in.ID}))
		require.NoError(t, err, proto)
		require.Len(t, res.Msg.Items, 2, proto)
	}
	_, err := s.userClient("connect", cred{Bearer: o1Tok}).ListUsers(context.Background(), connect.NewRequest(&complydv1.ListUsersRequest{}))
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err))
}

// firstOf returns the id of a case of the inbox.
func firstOf(t *testing.T, s *testServer, tok, inboxID string) string {
	t.Helper()
	var page struct{ Items []queueCaseJSON }
	s.rest("GET", "/api/v1/cases?sort=OLDEST&inboxId="+inboxID, cred{Bearer: tok}, nil).decode(t, &page)
	require.NotEmpty(t, page.Items)
	return page.Items[0].ID
}

// TestCaseInboxLeastLoaded: with LEAST_LOADED the member with fewer open cases gets the next
// one, whoever was assigned last; switching the inbox to MANUAL (PATCH, over Connect) stops
// automatic assignment.
func TestCaseInboxLeastLoaded(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	o1, _ := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	o2, _ := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	ws := s.workspaceClient("connect", cred{Bearer: admin})
	ctx := context.Background()
	res, err := ws.CreateCaseInbox(ctx, connect.NewRequest(&complydv1.CreateCaseInboxRequest{Name: "All", Assignment: new("LEAST_LOADED"),
		MemberIds: []string{o1.ID, o2.ID}}))
	require.NoError(t, err)
	in := res.Msg
	cc := s.caseClient("connect", cred{Bearer: admin})
	// o1 already carries three open cases assigned by hand.
	for range 3 {
		c, err := cc.CreateCase(ctx, connect.NewRequest(&complydv1.CreateCaseRequest{Type: "FRAUD_ALERT", Priority: "LOW", Title: "t", Description: "d"}))
		require.NoError(t, err)
		_, err = cc.AssignCase(ctx, connect.NewRequest(&complydv1.AssignCaseRequest{Id: c.Msg.Id, AssigneeId: o1.ID}))
		require.NoError(t, err)
	}
	// The catch-all inbox assigned those to the least loaded member before the hand-off: o2
	// got the first (both at 0) or o1; either way the next ones go to whoever has fewer.
	for range 2 {
		c, err := cc.CreateCase(ctx, connect.NewRequest(&complydv1.CreateCaseRequest{Type: "AML_ALERT", Priority: "MEDIUM", Title: "t", Description: "d"}))
		require.NoError(t, err)
		require.Equal(t, o2.ID, c.Msg.GetAssignedTo().GetValue(), "o2 has fewer open cases")
		require.Equal(t, in.Id, c.Msg.GetInboxId().GetValue())
	}
	_, err = ws.UpdateCaseInbox(ctx, connect.NewRequest(&complydv1.UpdateCaseInboxRequest{Id: in.Id, Assignment: new("MANUAL")}))
	require.NoError(t, err)
	c, err := cc.CreateCase(ctx, connect.NewRequest(&complydv1.CreateCaseRequest{Type: "AML_ALERT", Priority: "MEDIUM", Title: "t", Description: "d"}))
	require.NoError(t, err)
	require.Nil(t, c.Msg.AssignedTo)
	require.Equal(t, in.Id, c.Msg.GetInboxId().GetValue())
	_, err = ws.UpdateCaseInbox(ctx, connect.NewRequest(&complydv1.UpdateCaseInboxRequest{Id: in.Id, Sla: &complydv1.SlaMinutes{Critical: 0, High: 1, Medium: 1, Low: 1}}))
	require.Equal(t, connect.CodeInvalidArgument, connect.CodeOf(err))
}

// TestSavedViewsScopedToUser: a view is its user's: another user of the tenant and a user of
// another tenant neither list it nor delete it (404).
func TestSavedViewsScopedToUser(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, _ := s.tenant()
	_, o1 := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, o2 := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, other := s.tenant()
	env := s.rest("POST", "/api/v1/case-views", cred{Bearer: o1}, map[string]any{"name": "Breached sanctions",
		"filters": map[string]any{"type": "SANCTIONS_HIT", "sort": "DUE", "scope": "all"}})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	var v struct {
		ID      string            `json:"id"`
		Filters map[string]string `json:"filters"`
	}
	env.decode(t, &v)
	require.Equal(t, "SANCTIONS_HIT", v.Filters["type"])
	requireRESTError(t, s.rest("POST", "/api/v1/case-views", cred{Bearer: o1}, map[string]any{"name": "Breached sanctions", "filters": map[string]any{}}), 409, "CONFLICT")
	requireRESTError(t, s.rest("POST", "/api/v1/case-views", cred{Bearer: o1}, map[string]any{"name": "bad", "filters": map[string]any{"sort": "RANDOM"}}), 400, "VALIDATION_ERROR")
	for _, tok := range []string{o2, other} {
		var list struct{ Items []struct{ ID string } }
		s.rest("GET", "/api/v1/case-views", cred{Bearer: tok}, nil).decode(t, &list)
		require.Empty(t, list.Items)
		requireRESTError(t, s.rest("DELETE", "/api/v1/case-views/"+v.ID, cred{Bearer: tok}, nil), 404, "NOT_FOUND")
	}
	res, err := s.workspaceClient("grpc", cred{Bearer: o1}).ListSavedCaseViews(context.Background(), connect.NewRequest(&complydv1.ListSavedCaseViewsRequest{}))
	require.NoError(t, err)
	require.Len(t, res.Msg.Items, 1)
	require.Equal(t, "DUE", res.Msg.Items[0].Filters.Sort)
	require.Equal(t, http.StatusOK, s.rest("DELETE", "/api/v1/case-views/"+v.ID, cred{Bearer: o1}, nil).Status)
}

// TestCaseWorkspaceSanctionsAndFourEyes: a sanctions case opened by screening shows, in one
// call, the transaction, the hit beside the watchlist entry (aliases, birth date, country,
// published date) with the differences named, the rules, the activity, and the actions the
// caller may take; bulk propose puts it in the second officer's "needs my confirmation" list,
// where only that officer may decide it; the timeline and proposals carry names.
func TestCaseWorkspaceSanctionsAndFourEyes(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	o1, o1Tok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	o2, o2Tok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, auditorTok := s.userWithRole(f.ID, auth.RoleAuditor)
	var wl struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", cred{Bearer: admin}, map[string]any{"name": "Local blacklist", "type": "SANCTIONS"}).decode(t, &wl)
	env := s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: admin}, map[string]any{"name": "Ada Obi",
		"aliases": []string{"Adaeze Obi"}, "entityType": "INDIVIDUAL", "dateOfBirth": "1970-01-01", "country": "GH", "reference": "LB-7"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	out, env := s.screen(admin, screenBody(ext("ws"), "0123456789", 9_500_000))
	require.True(t, env.Success, "%s", env.Raw)
	require.NotNil(t, out.CaseID, "%s", env.Raw)
	caseID := *out.CaseID

	var w struct {
		Case        queueCaseJSON `json:"case"`
		Transaction struct {
			Amount string `json:"amount"`
			Sender struct {
				Name string `json:"name"`
			} `json:"sender"`
			Rules []struct{ Name string } `json:"rules"`
		} `json:"transaction"`
		Hits []struct {
			MatchedName string   `json:"matchedName"`
			Differences []string `json:"differences"`
			Entry       struct {
				Name            string   `json:"name"`
				Aliases         []string `json:"aliases"`
				DatesOfBirth    []string `json:"datesOfBirth"`
				Nationalities   []string `json:"nationalities"`
				ListPublishedAt string   `json:"listPublishedAt"`
				SourceID        string   `json:"sourceId"`
			} `json:"entry"`
		} `json:"hits"`
		Activity   []struct{ Count string } `json:"activity"`
		Assignable []personJSON             `json:"assignable"`
		Actions    map[string]any           `json:"actions"`
	}
	s.rest("GET", "/api/v1/cases/"+caseID+"/workspace", cred{Bearer: o1Tok}, nil).decode(t, &w)
	require.Equal(t, "9500000", w.Transaction.Amount)
	require.Equal(t, "Ada Obi", w.Transaction.Sender.Name)
	require.NotEmpty(t, w.Transaction.Rules)
	require.NotEmpty(t, w.Hits)
	h := w.Hits[0]
	require.Equal(t, "Ada Obi", h.Entry.Name)
	require.Equal(t, []string{"Adaeze Obi"}, h.Entry.Aliases)
	require.Equal(t, []string{"1970-01-01"}, h.Entry.DatesOfBirth)
	require.Equal(t, []string{"GH"}, h.Entry.Nationalities)
	require.Equal(t, "LB-7", h.Entry.SourceID)
	require.NotEmpty(t, h.Entry.ListPublishedAt)
	require.NotEmpty(t, w.Activity)
	require.Equal(t, "9500000", w.Case.Amount)
	require.Equal(t, "Ada Obi", w.Case.Party)
	require.Equal(t, true, w.Actions["assignToMe"])
	require.Equal(t, true, w.Actions["propose"])
	require.GreaterOrEqual(t, len(w.Assignable), 3)

	// The auditor reads it with no action offered.
	var aw struct {
		Actions    map[string]any `json:"actions"`
		Assignable []personJSON   `json:"assignable"`
	}
	s.rest("GET", "/api/v1/cases/"+caseID+"/workspace", cred{Bearer: auditorTok}, nil).decode(t, &aw)
	for k, v := range aw.Actions {
		require.Contains(t, []any{false, ""}, v, "the auditor may not %s", k)
	}
	require.Empty(t, aw.Assignable)

	// o1 takes it (bulk assign, with one case of another tenant: 404 for that one only), then
	// proposes in bulk.
	_, otherAdmin := s.tenant()
	var oc struct{ ID string }
	s.rest("POST", "/api/v1/cases", cred{Bearer: otherAdmin}, newCaseBody).decode(t, &oc)
	var bulk struct {
		Succeeded int `json:"succeeded"`
		Failed    int `json:"failed"`
		Results   []struct {
			CaseID    string `json:"caseId"`
			ErrorCode string `json:"errorCode"`
		} `json:"results"`
	}
	s.rest("POST", "/api/v1/cases/bulk-assign", cred{Bearer: o1Tok}, map[string]any{"caseIds": []string{caseID, oc.ID}, "assigneeId": o1.ID}).decode(t, &bulk)
	require.Equal(t, 1, bulk.Succeeded)
	require.Equal(t, 1, bulk.Failed)
	require.Equal(t, "NOT_FOUND", bulk.Results[1].ErrorCode)
	s.rest("GET", "/api/v1/cases/"+caseID+"/workspace", cred{Bearer: o1Tok}, nil).decode(t, &w)
	require.Equal(t, false, w.Actions["assignToMe"], "no Assign to me on a case already mine")
	s.rest("POST", "/api/v1/cases/bulk-propose", cred{Bearer: o1Tok}, map[string]any{"caseIds": []string{caseID},
		"resolution": "TRUE_POSITIVE", "note": "Same name, business entity on the list"}).decode(t, &bulk)
	require.Equal(t, 1, bulk.Succeeded)

	// Needs my confirmation: o2 sees it, o1 (the proposer) does not.
	listConfirm := func(tok string) int {
		var page struct{ Items []queueCaseJSON }
		s.rest("GET", "/api/v1/cases?awaitingMyConfirmation=true", cred{Bearer: tok}, nil).decode(t, &page)
		return len(page.Items)
	}
	require.Equal(t, 1, listConfirm(o2Tok))
	require.Equal(t, 0, listConfirm(o1Tok))
	res, err := s.workspaceClient("grpc", cred{Bearer: o2Tok}).GetCaseWorkspace(context.Background(), connect.NewRequest(&complydv1.GetCaseWorkspaceRequest{Id: caseID}))
	require.NoError(t, err)
	require.NotEmpty(t, res.Msg.Actions.DecideProposalId)
	require.False(t, res.Msg.Actions.Propose)
	require.NotEmpty(t, res.Msg.Proposals[0].ProposedByName)
	require.Equal(t, o1.FirstName+" "+o1.LastName, res.Msg.Proposals[0].ProposedByName)
	var assigned *complydv1.CaseEvent
	for _, e := range res.Msg.Case.Timeline {
		if e.EventType == "ASSIGNED" {
			assigned = e
		}
	}
	require.NotNil(t, assigned)
	require.Equal(t, o1.FirstName+" "+o1.LastName, assigned.NewValueName)
	mine, err := s.workspaceClient("connect", cred{Bearer: o1Tok}).GetCaseWorkspace(context.Background(), connect.NewRequest(&complydv1.GetCaseWorkspaceRequest{Id: caseID}))
	require.NoError(t, err)
	require.Empty(t, mine.Msg.Actions.DecideProposalId, "never the proposer's own")
	_ = o2
	// Another tenant's case is 404 on the workspace.
	requireRESTError(t, s.rest("GET", "/api/v1/cases/"+caseID+"/workspace", cred{Bearer: otherAdmin}, nil), 404, "NOT_FOUND")
}
