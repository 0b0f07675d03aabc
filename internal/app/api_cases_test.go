package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/smtp"
	"github.com/complyd/complyd/internal/smtp/smtptest"
)

func (s *testServer) caseClient(proto string, c cred) complydv1connect.CaseServiceClient {
	hc, opts := s.clientOpts(proto, c)
	return complydv1connect.NewCaseServiceClient(hc, s.URL, opts...)
}

// caseJSON is the /api/v1 shape of a case.
type caseJSON struct {
	ID                   string          `json:"id"`
	CaseNumber           string          `json:"caseNumber"`
	Status               string          `json:"status"`
	AssignedTo           *string         `json:"assignedTo"`
	RelatedTransactionID *string         `json:"relatedTransactionId"`
	ResolvedAt           *string         `json:"resolvedAt"`
	Tags                 []string        `json:"tags"`
	Assignee             *personJSON     `json:"assignee"`
	RelatedTransaction   json.RawMessage `json:"relatedTransaction"`
	Timeline             []struct {
		EventType     string      `json:"eventType"`
		ActorID       *string     `json:"actorId"`
		Description   string      `json:"description"`
		PreviousValue *string     `json:"previousValue"`
		NewValue      *string     `json:"newValue"`
		Actor         *personJSON `json:"actor"`
	} `json:"timeline"`
}

type personJSON struct {
	ID        string `json:"id"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

var newCaseBody = map[string]any{"type": "AML_ALERT", "priority": "HIGH", "title": "Structuring", "description": "Ten deposits under the threshold",
	"relatedTransactionId": "9b2f1c9e-4a55-4f1e-9a1b-1f7f7b1f0c11", "tags": []string{"structuring"}}

// TestCasesREST walks the whole workflow through /api/v1: 201 create, detail with assignee,
// null relatedTransaction and timeline actors, notes 201, assignment rules (other tenant 404,
// inactive 400), the 409 transition error, resolution note, four-eyes, and list filters.
func TestCasesREST(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	officer, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	analyst, analystTok := s.userWithRole(f.ID, auth.RoleAnalyst)

	env := s.rest("POST", "/api/v1/cases", cred{Bearer: analystTok}, newCaseBody)
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	var c caseJSON
	env.decode(t, &c)
	require.Regexp(t, `^CASE-\d{4}-00001$`, c.CaseNumber)
	require.Equal(t, "OPEN", c.Status)
	require.Nil(t, c.AssignedTo)
	require.Nil(t, c.Assignee)
	require.Contains(t, string(env.Data), `"assignee":null`)

	env = s.rest("GET", "/api/v1/cases/"+c.ID, cred{Bearer: admin}, nil)
	var d caseJSON
	env.decode(t, &d)
	require.Equal(t, "null", string(d.RelatedTransaction), "screening fills relatedTransaction later")
	require.Len(t, d.Timeline, 1)
	require.Equal(t, "CASE_CREATED", d.Timeline[0].EventType)
	require.Equal(t, analyst.ID, d.Timeline[0].Actor.ID)
	require.Equal(t, analyst.Email, d.Timeline[0].Actor.Email)

	env = s.rest("POST", "/api/v1/cases/"+c.ID+"/notes", cred{Bearer: analystTok}, map[string]any{"content": "called the branch"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	var note struct {
		EventType   string `json:"eventType"`
		Description string `json:"description"`
		CaseID      string `json:"caseId"`
	}
	env.decode(t, &note)
	require.Equal(t, "NOTE_ADDED", note.EventType)
	require.Equal(t, "called the branch", note.Description)

	// Assignment.
	other := pgtest.Tenant(context.Background(), t, s.DB)
	requireRESTError(t, s.rest("PATCH", "/api/v1/cases/"+c.ID+"/assign", cred{Bearer: officerTok}, map[string]any{"assigneeId": other.AdminID}),
		http.StatusNotFound, "NOT_FOUND")
	inactive := pgtest.User(context.Background(), t, s.DB, f.ID, &pgtest.UserOpts{Inactive: true})
	env = s.rest("PATCH", "/api/v1/cases/"+c.ID+"/assign", cred{Bearer: officerTok}, map[string]any{"assigneeId": inactive.ID})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), "assigneeId")
	env = s.rest("PATCH", "/api/v1/cases/"+c.ID+"/assign", cred{Bearer: officerTok}, map[string]any{"assigneeId": analyst.ID})
	env.decode(t, &c)
	require.Equal(t, analyst.ID, *c.AssignedTo)
	require.Equal(t, analyst.Email, c.Assignee.Email)

	// Another tenant's case is NOT_FOUND.
	otherTok := s.login(other.AdminEmail, pgtest.Password)
	requireRESTError(t, s.rest("GET", "/api/v1/cases/"+c.ID, cred{Bearer: otherTok}, nil), http.StatusNotFound, "NOT_FOUND")

	// Status machine.
	env = s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: officerTok}, map[string]any{"status": "CLOSED", "resolutionNote": "x"})
	requireRESTError(t, env, http.StatusConflict, "INVALID_STATUS_TRANSITION")
	var data struct {
		From    string   `json:"from"`
		To      string   `json:"to"`
		Allowed []string `json:"allowed"`
	}
	require.NoError(t, json.Unmarshal(env.Error.Data, &data))
	require.Equal(t, "OPEN", data.From)
	require.Equal(t, "CLOSED", data.To)
	require.ElementsMatch(t, []string{"IN_PROGRESS", "ESCALATED"}, data.Allowed)
	s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: officerTok}, map[string]any{"status": "ESCALATED"}).decode(t, &c)
	requireRESTError(t, s.rest("PATCH", "/api/v1/cases/"+c.ID+"/status", cred{Bearer: officerTok}, map[string]any{"status": "RESOLVED_FALSE_POSITIVE"}),
		http.StatusBadRequest, "VALIDATION_ERROR")

	// Four eyes.
	env = s.rest("POST", "/api/v1/cases/"+c.ID+"/resolution-proposals", cred{Bearer: officerTok}, map[string]any{"resolution": "FALSE_POSITIVE", "note": "salary"})
	var prop struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	env.decode(t, &prop)
	require.Equal(t, "PENDING", prop.Status)
	requireRESTError(t, s.rest("POST", "/api/v1/cases/"+c.ID+"/resolution-proposals/"+prop.ID+"/approve", cred{Bearer: officerTok}, map[string]any{}),
		http.StatusForbidden, "FORBIDDEN")
	s.rest("POST", "/api/v1/cases/"+c.ID+"/resolution-proposals/"+prop.ID+"/approve", cred{Bearer: admin}, map[string]any{}).decode(t, &c)
	require.Equal(t, "RESOLVED_FALSE_POSITIVE", c.Status)
	require.NotNil(t, c.ResolvedAt)

	// List with filters and paging.
	for i := range 3 {
		body := map[string]any{"type": "FRAUD_ALERT", "priority": "LOW", "title": fmt.Sprint("f", i), "description": "d"}
		require.Equal(t, http.StatusCreated, s.rest("POST", "/api/v1/cases", cred{Bearer: admin}, body).Status)
	}
	var page struct {
		Items      []caseJSON `json:"items"`
		Total      int        `json:"total"`
		Page       int        `json:"page"`
		Limit      int        `json:"limit"`
		TotalPages int        `json:"totalPages"`
	}
	s.rest("GET", "/api/v1/cases?type=FRAUD_ALERT&limit=2&page=2", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 3, page.Total)
	require.Equal(t, 2, page.TotalPages)
	require.Len(t, page.Items, 1)
	s.rest("GET", "/api/v1/cases?assigneeId="+analyst.ID, cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 1, page.Total)
	require.Equal(t, 20, page.Limit)
	s.rest("GET", "/api/v1/cases?status=RESOLVED_FALSE_POSITIVE&limit=500", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 1, page.Total)
	require.Equal(t, 100, page.Limit)
	requireRESTError(t, s.rest("GET", "/api/v1/cases?status=NOPE", cred{Bearer: admin}, nil), http.StatusBadRequest, "VALIDATION_ERROR")
	_ = officer
}

// TestCasesProtocols runs the core calls over Connect and gRPC with the same errors as REST.
func TestCasesProtocols(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, analystTok := s.userWithRole(f.ID, auth.RoleAnalyst)
	other := pgtest.Tenant(context.Background(), t, s.DB)
	for _, proto := range []string{"connect", "grpc"} {
		t.Run(proto, func(t *testing.T) {
			ctx := context.Background()
			cl := s.caseClient(proto, cred{Bearer: admin})
			c, err := cl.CreateCase(ctx, connect.NewRequest(&complydv1.CreateCaseRequest{Type: "PEP_MATCH", Priority: "MEDIUM", Title: "t", Description: "d"}))
			require.NoError(t, err)
			require.Equal(t, "OPEN", c.Msg.Status)
			ev, err := s.caseClient(proto, cred{Bearer: analystTok}).AddCaseNote(ctx, connect.NewRequest(&complydv1.AddCaseNoteRequest{Id: c.Msg.Id, Content: "n"}))
			require.NoError(t, err)
			require.Equal(t, "NOTE_ADDED", ev.Msg.EventType)

			_, err = cl.AssignCase(ctx, connect.NewRequest(&complydv1.AssignCaseRequest{Id: c.Msg.Id, AssigneeId: other.AdminID}))
			code, info := errorInfo(t, err)
			require.Equal(t, connect.CodeNotFound, code)
			require.Equal(t, "NOT_FOUND", info.Code)

			_, err = cl.UpdateCaseStatus(ctx, connect.NewRequest(&complydv1.UpdateCaseStatusRequest{Id: c.Msg.Id, Status: "PENDING_REVIEW"}))
			code, info = errorInfo(t, err)
			require.Equal(t, connect.CodeFailedPrecondition, code)
			require.Equal(t, "INVALID_STATUS_TRANSITION", info.Code)

			got, err := cl.GetCase(ctx, connect.NewRequest(&complydv1.GetCaseRequest{Id: c.Msg.Id}))
			require.NoError(t, err)
			require.Len(t, got.Msg.Timeline, 2)
			require.Nil(t, got.Msg.RelatedTransaction)
		})
	}
}

// TestCasePermissions checks the role × route table of every case route (docs/reference/specification.md
// part 5, docs/design/design-choices.md §4; AUDITOR read-only): an allowed role never gets 403, a refused role
// always gets 403 FORBIDDEN, and no credentials get 401.
func TestCasePermissions(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, adminTok := s.tenant()
	toks := map[auth.Role]string{auth.RoleBankAdmin: adminTok}
	for _, r := range []auth.Role{auth.RoleComplianceOfficer, auth.RoleAnalyst, auth.RoleAuditor} {
		_, toks[r] = s.userWithRole(f.ID, r)
	}
	var c caseJSON
	s.rest("POST", "/api/v1/cases", cred{Bearer: adminTok}, newCaseBody).decode(t, &c)
	all := []auth.Role{auth.RoleBankAdmin, auth.RoleComplianceOfficer, auth.RoleAnalyst, auth.RoleAuditor}
	writers := []auth.Role{auth.RoleBankAdmin, auth.RoleComplianceOfficer, auth.RoleAnalyst}
	officers := []auth.Role{auth.RoleBankAdmin, auth.RoleComplianceOfficer}
	routes := []struct {
		method, path string
		body         any
		allowed      []auth.Role
	}{
		{"POST", "/api/v1/cases", newCaseBody, writers},
		{"GET", "/api/v1/cases", nil, all},
		{"GET", "/api/v1/cases/" + c.ID, nil, all},
		{"PATCH", "/api/v1/cases/" + c.ID + "/status", map[string]any{"status": "OPEN"}, officers},
		{"PATCH", "/api/v1/cases/" + c.ID + "/assign", map[string]any{"assigneeId": f.AdminID}, officers},
		{"POST", "/api/v1/cases/" + c.ID + "/notes", map[string]any{"content": "n"}, writers},
		{"POST", "/api/v1/cases/" + c.ID + "/resolution-proposals", map[string]any{"resolution": "TRUE_POSITIVE"}, writers},
		{"GET", "/api/v1/cases/" + c.ID + "/resolution-proposals", nil, all},
		{"POST", "/api/v1/cases/" + c.ID + "/resolution-proposals/prop_x/approve", map[string]any{}, officers},
		{"POST", "/api/v1/cases/" + c.ID + "/resolution-proposals/prop_x/reject", map[string]any{"reason": "r"}, officers},
		{"POST", "/api/v1/cases/" + c.ID + "/interdictions", map[string]any{"action": "FREEZE"}, officers},
		{"GET", "/api/v1/cases/" + c.ID + "/interdictions", nil, all},
		{"POST", "/api/v1/interdictions/intd_x/confirm", map[string]any{}, officers},
		{"GET", "/api/v1/notifications", nil, all},
		{"POST", "/api/v1/notifications/ntf_x/read", map[string]any{}, all},
		{"GET", "/api/v1/tenants/me/webhooks", nil, []auth.Role{auth.RoleBankAdmin}},
		{"PATCH", "/api/v1/tenants/me/webhooks", map[string]any{}, []auth.Role{auth.RoleBankAdmin}},
		{"GET", "/api/v1/webhooks/deliveries", nil, []auth.Role{auth.RoleBankAdmin, auth.RoleAuditor}},
		{"POST", "/api/v1/webhooks/deliveries/whd_x/retry", map[string]any{}, []auth.Role{auth.RoleBankAdmin}},
	}
	for _, rt := range routes {
		for _, role := range all {
			env := s.rest(rt.method, rt.path, cred{Bearer: toks[role]}, rt.body)
			if contains(rt.allowed, role) {
				require.NotEqual(t, http.StatusForbidden, env.Status, "%s %s as %s: %s", rt.method, rt.path, role, env.Raw)
			} else {
				requireRESTError(t, env, http.StatusForbidden, "FORBIDDEN")
			}
		}
		requireRESTError(t, s.rest(rt.method, rt.path, cred{}, rt.body), http.StatusUnauthorized, "UNAUTHENTICATED")
	}
}

func contains(rs []auth.Role, r auth.Role) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// TestAutomaticCaseNotifiesOfficers: a case created by the screening entry point emails every
// active COMPLIANCE_OFFICER through the queued sender (a real SMTP listener) and shows in their
// notifications; marking one read works and another user's notification is NOT_FOUND.
func TestAutomaticCaseNotifiesOfficers(t *testing.T) {
	t.Parallel() // servers with workers get a database of their own (serverOpts.OwnDB)
	sink := smtptest.Start(t)
	sink.FailNext(1) // the retried sender gets through anyway
	m, err := smtp.New("smtp://"+sink.Addr+"?tls=none", "complyd@test.local")
	require.NoError(t, err)
	s := newTestServer(t, &serverOpts{Mailer: m, Workers: true})
	f, admin := s.tenant()
	o1, o1Tok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	o2, _ := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	pgtest.User(context.Background(), t, s.DB, f.ID, &pgtest.UserOpts{Role: auth.RoleComplianceOfficer, Inactive: true})
	_, analystTok := s.userWithRole(f.ID, auth.RoleAnalyst)

	// An automatic case, opened by a screening: this tenant has no KYC records, so the STRICT
	// trust mode blocks the sender and opens a case.
	out, env := s.screen(admin, screenBody(ext("auto-case"), "0123456789", 5_000))
	require.True(t, env.Success, "%s", env.Raw)
	require.NotNil(t, out.CaseID, "%s", env.Raw)
	var c struct {
		ID         string `json:"id"`
		CaseNumber string `json:"caseNumber"`
	}
	s.rest("GET", "/api/v1/cases/"+*out.CaseID, cred{Bearer: admin}, nil).decode(t, &c)

	var got []smtptest.Message
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		got = nil
		for _, msg := range sink.Messages() {
			if strings.Contains(msg.Data, c.CaseNumber) {
				got = append(got, msg)
			}
		}
		if len(got) >= 2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	var to []string
	for _, msg := range got {
		to = append(to, msg.To...)
	}
	require.ElementsMatch(t, []string{o1.Email, o2.Email}, to)

	var page struct {
		Items []struct {
			ID     string `json:"id"`
			Kind   string `json:"kind"`
			CaseID string `json:"caseId"`
			Read   bool   `json:"read"`
		} `json:"items"`
		Total int `json:"total"`
	}
	s.rest("GET", "/api/v1/notifications?unread=true", cred{Bearer: o1Tok}, nil).decode(t, &page)
	require.Equal(t, 1, page.Total)
	require.Equal(t, c.ID, page.Items[0].CaseID)
	require.Equal(t, "CASE_CREATED", page.Items[0].Kind)
	id := page.Items[0].ID
	requireRESTError(t, s.rest("POST", "/api/v1/notifications/"+id+"/read", cred{Bearer: analystTok}, map[string]any{}), http.StatusNotFound, "NOT_FOUND")
	s.rest("POST", "/api/v1/notifications/"+id+"/read", cred{Bearer: o1Tok}, map[string]any{}).decode(t, &page.Items[0])
	require.True(t, page.Items[0].Read)
	s.rest("GET", "/api/v1/notifications?unread=true", cred{Bearer: o1Tok}, nil).decode(t, &page)
	require.Equal(t, 0, page.Total)
	s.rest("GET", "/api/v1/notifications", cred{Bearer: analystTok}, nil).decode(t, &page)
	require.Equal(t, 0, page.Total)
}
