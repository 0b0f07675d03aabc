package app

import (
	"context"
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
)

type interdictionJSON struct {
	ID              string  `json:"id"`
	CaseID          string  `json:"caseId"`
	CaseNumber      string  `json:"caseNumber"`
	Action          string  `json:"action"`
	AccountNumber   string  `json:"accountNumber"`
	Status          string  `json:"status"`
	LiftReason      *string `json:"liftReason"`
	LiftRequestedBy *string `json:"liftRequestedBy"`
	LiftedBy        *string `json:"liftedBy"`
}

// interdict requests and confirms an interdiction on account from a new case, as tok.
func (s *testServer) interdict(tok, action, account string) interdictionJSON {
	s.t.Helper()
	env := s.rest("POST", "/api/v1/cases", cred{Bearer: tok}, newCaseBody)
	require.Equal(s.t, http.StatusCreated, env.Status, "%s", env.Raw)
	var c caseJSON
	env.decode(s.t, &c)
	env = s.rest("POST", "/api/v1/cases/"+c.ID+"/interdictions", cred{Bearer: tok},
		map[string]any{"action": action, "accountNumber": account, "reason": "court order FHC/L/CS/1/2026"})
	require.Equal(s.t, http.StatusCreated, env.Status, "%s", env.Raw)
	var in interdictionJSON
	env.decode(s.t, &in)
	return in
}

func (s *testServer) confirmInterdiction(tok, id string) {
	s.t.Helper()
	env := s.rest("POST", "/api/v1/interdictions/"+id+"/confirm", cred{Bearer: tok}, map[string]any{"reference": "CORE-" + id[len(id)-6:]})
	require.Equal(s.t, http.StatusOK, env.Status, "%s", env.Raw)
}

// interdictionRule returns the INTERDICTION rule's details of a verdict, "" when absent.
func interdictionRule(o screenOut) string {
	for _, r := range o.TriggeredRules {
		if r.Name == "Account interdiction in force" {
			return r.Details
		}
	}
	return ""
}

// transfer is a screening body from one account to another.
func transfer(from, to string) map[string]any {
	b := screenBody(ext("intd"), from, 25000)
	b["receiverAccountNumber"] = to
	return b
}

// TestInterdictionsBite: a confirmed FREEZE BLOCKs the account's next transfer out and in,
// naming the interdiction; a REQUESTED one does not bite yet; a POST_NO_DEBIT account can
// receive but not send; a lift needs a second officer, stays in force until approved, and once
// lifted the account transfers again. The queue lists across cases with filters, over REST,
// Connect and gRPC, and the bank core gets interdiction.lifted.
func TestInterdictionsBite(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	officer, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	env := s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: admin},
		map[string]any{"webhookUrl": "http://127.0.0.1:9/hooks", "webhookSecret": "s3cret-s3cret"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	const frozen, pnd, other = "3000000001", "3000000002", "3000000003"
	fz := s.interdict(officerTok, "FREEZE", frozen)

	out, env := s.screen(admin, transfer(frozen, other))
	require.True(t, env.Success, "%s", env.Raw)
	require.Empty(t, interdictionRule(out), "a REQUESTED interdiction does not bite until the bank confirms it")

	s.confirmInterdiction(admin, fz.ID) // four eyes: not the requesting officer
	out, env = s.screen(admin, transfer(frozen, other))
	require.True(t, env.Success, "%s", env.Raw)
	require.Equal(t, "BLOCK", out.Outcome)
	require.Equal(t, "CRITICAL", out.RiskLevel)
	d := interdictionRule(out)
	require.Contains(t, d, fz.ID)
	require.Contains(t, d, "freeze")
	require.Contains(t, d, "sender account "+frozen)
	require.NotNil(t, out.CaseID, "a BLOCK opens a case")

	out, _ = s.screen(admin, transfer(other, frozen))
	require.Equal(t, "BLOCK", out.Outcome, "a frozen account receives nothing either")
	require.Contains(t, interdictionRule(out), "receiver account "+frozen)

	pn := s.interdict(admin, "POST_NO_DEBIT", pnd)
	s.confirmInterdiction(officerTok, pn.ID)
	out, _ = s.screen(admin, transfer(pnd, other))
	require.Equal(t, "BLOCK", out.Outcome, "post-no-debit: no debit")
	require.Contains(t, interdictionRule(out), pn.ID)
	out, _ = s.screen(admin, transfer(other, pnd))
	require.Empty(t, interdictionRule(out), "post-no-debit: credits are allowed")
	require.NotEqual(t, "BLOCK", out.Outcome)
	dep := screenBody(ext("intd"), pnd, 10000)
	dep["type"] = "CASH_DEPOSIT"
	out, _ = s.screen(admin, dep)
	require.Empty(t, interdictionRule(out), "a cash deposit credits the post-no-debit account")

	// Four-eyes lift.
	env = s.rest("POST", "/api/v1/interdictions/"+fz.ID+"/lift", cred{Bearer: officerTok}, map[string]any{})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	env = s.rest("POST", "/api/v1/interdictions/"+fz.ID+"/lift", cred{Bearer: officerTok}, map[string]any{"reason": "court order vacated"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var lifted interdictionJSON
	env.decode(t, &lifted)
	require.Equal(t, "LIFT_REQUESTED", lifted.Status)
	require.Equal(t, officer.ID, *lifted.LiftRequestedBy)
	out, _ = s.screen(admin, transfer(frozen, other))
	require.Equal(t, "BLOCK", out.Outcome, "still in force until a second officer approves")
	requireRESTError(t, s.rest("POST", "/api/v1/interdictions/"+fz.ID+"/lift/approve", cred{Bearer: officerTok}, map[string]any{}),
		http.StatusForbidden, "FORBIDDEN")
	env = s.rest("POST", "/api/v1/interdictions/"+fz.ID+"/lift/approve", cred{Bearer: admin}, map[string]any{"note": "checked the order"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env.decode(t, &lifted)
	require.Equal(t, "LIFTED", lifted.Status)
	requireRESTError(t, s.rest("POST", "/api/v1/interdictions/"+fz.ID+"/lift/approve", cred{Bearer: officerTok}, map[string]any{}),
		http.StatusConflict, "CONFLICT")
	out, _ = s.screen(admin, transfer(frozen, other))
	require.Empty(t, interdictionRule(out), "a lifted interdiction no longer bites")
	require.NotEqual(t, "BLOCK", out.Outcome)

	// A rejected lift leaves the interdiction in force.
	env = s.rest("POST", "/api/v1/interdictions/"+pn.ID+"/lift", cred{Bearer: admin}, map[string]any{"reason": "customer asked"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env = s.rest("POST", "/api/v1/interdictions/"+pn.ID+"/lift/reject", cred{Bearer: officerTok}, map[string]any{"reason": "order still valid"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env.decode(t, &lifted)
	require.Equal(t, "CONFIRMED", lifted.Status)
	out, _ = s.screen(admin, transfer(pnd, other))
	require.Equal(t, "BLOCK", out.Outcome)

	// The case timeline has the lift, and the bank core is told.
	env = s.rest("GET", "/api/v1/cases/"+fz.CaseID, cred{Bearer: admin}, nil)
	require.Contains(t, string(env.Data), "INTERDICTION_LIFT_REQUESTED")
	require.Contains(t, string(env.Data), "INTERDICTION_LIFTED")
	env = s.rest("GET", "/api/v1/webhooks/deliveries", cred{Bearer: admin}, nil)
	require.Contains(t, string(env.Data), "interdiction.lifted")
	env = s.rest("GET", "/api/v1/audit-events?limit=100", cred{Bearer: admin}, nil)
	if env.Status == http.StatusOK {
		require.Contains(t, string(env.Data), "case.interdiction_lifted")
	}

	// The queue across cases, with filters, on every protocol.
	for _, proto := range protocols {
		var items []*complydv1.Interdiction
		if proto == "rest" {
			env = s.rest("GET", "/api/v1/interdictions?inForce=true", cred{Bearer: officerTok}, nil)
			require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
			require.Contains(t, string(env.Data), pn.ID)
			require.NotContains(t, string(env.Data), fz.ID)
			require.Contains(t, string(env.Raw), `"total":1`)
			continue
		}
		hc, opts := s.clientOpts(proto, cred{Bearer: officerTok})
		cl := complydv1connect.NewInterdictionServiceClient(hc, s.URL, opts...)
		res, err := cl.ListInterdictionQueue(context.Background(), connect.NewRequest(&complydv1.ListInterdictionQueueRequest{Status: strp("LIFTED")}))
		require.NoError(t, err, proto)
		items = res.Msg.Items
		require.Len(t, items, 1, proto)
		require.Equal(t, fz.ID, items[0].Id)
		require.True(t, strings.HasPrefix(items[0].CaseNumber, "CASE-"), items[0].CaseNumber)
		require.Equal(t, officer.ID, items[0].LiftRequestedBy.GetValue())
		res, err = cl.ListInterdictionQueue(context.Background(), connect.NewRequest(&complydv1.ListInterdictionQueueRequest{AccountNumber: strp(pnd)}))
		require.NoError(t, err, proto)
		require.Len(t, res.Msg.Items, 1)
		require.EqualValues(t, 1, res.Msg.Total)
	}
	env = s.rest("GET", "/api/v1/interdictions/"+fz.ID, cred{Bearer: officerTok}, nil)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var one interdictionJSON
	env.decode(t, &one)
	require.Equal(t, "LIFTED", one.Status)
	require.True(t, strings.HasPrefix(one.CaseNumber, "CASE-"), one.CaseNumber)
	require.Equal(t, "court order vacated", *one.LiftReason)
	require.NotNil(t, one.LiftedBy)

	// Another tenant sees none of it.
	_, otherAdmin := s.tenant()
	requireRESTError(t, s.rest("GET", "/api/v1/interdictions/"+fz.ID, cred{Bearer: otherAdmin}, nil), http.StatusNotFound, "NOT_FOUND")
	requireRESTError(t, s.rest("POST", "/api/v1/interdictions/"+pn.ID+"/lift", cred{Bearer: otherAdmin}, map[string]any{"reason": "x"}),
		http.StatusNotFound, "NOT_FOUND")
	env = s.rest("GET", "/api/v1/interdictions", cred{Bearer: otherAdmin}, nil)
	require.Contains(t, string(env.Raw), `"total":0`)
}

// TestInterdictionReachesSecondInstance: two service instances on one database, each with its
// in-memory interdiction cache warmed; a confirmation made through one blocks the account's
// next screening on the other within a second, and a lift approved on one frees it on the
// other within a second (LISTEN/NOTIFY).
func TestInterdictionReachesSecondInstance(t *testing.T) {
	t.Parallel()
	a := newTestServer(t, nil)
	b := newTestServer(t, nil)
	f, admin := a.kycTenant()
	_, officerTok := a.userWithRole(f.ID, auth.RoleComplianceOfficer)
	const acct, other = "3100000001", "3100000002"

	out, env := b.screen(admin, transfer(acct, other)) // b caches "nothing in force" for the tenant
	require.True(t, env.Success, "%s", env.Raw)
	require.Empty(t, interdictionRule(out))

	in := a.interdict(officerTok, "FREEZE", acct)
	a.confirmInterdiction(admin, in.ID)
	confirmed := time.Now()
	within := func(want bool) time.Duration {
		for {
			out, env := b.screen(admin, transfer(acct, other))
			require.True(t, env.Success, "%s", env.Raw)
			if (interdictionRule(out) != "") == want {
				return time.Since(confirmed)
			}
			require.Less(t, time.Since(confirmed), time.Second, "instance b still screens with the old interdictions")
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Logf("freeze seen on the second instance after %s", within(true))

	env = a.rest("POST", "/api/v1/interdictions/"+in.ID+"/lift", cred{Bearer: officerTok}, map[string]any{"reason": "order vacated"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env = a.rest("POST", "/api/v1/interdictions/"+in.ID+"/lift/approve", cred{Bearer: admin}, map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	confirmed = time.Now()
	t.Logf("lift seen on the second instance after %s", within(false))
}

// TestInterdictionConfirmFourEyes is issue 48 point 5: the officer who requested an interdiction
// cannot confirm it (403, over every protocol); another officer (the bank's operations in the
// dashboard) can, with the core banking reference.
func TestInterdictionConfirmFourEyes(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	_, officerTok := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	for i, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			in := s.interdict(officerTok, "FREEZE", fmt.Sprintf("320000000%d", i))
			ref := "CBS-" + proto
			confirm := func(tok string) (string, string) {
				if proto == "rest" {
					env := s.rest("POST", "/api/v1/interdictions/"+in.ID+"/confirm", cred{Bearer: tok}, map[string]any{"reference": ref})
					if !env.Success {
						return "", env.Error.Code
					}
					var out interdictionJSON
					env.decode(t, &out)
					return out.Status, ""
				}
				hc, opts := s.clientOpts(proto, cred{Bearer: tok})
				res, err := complydv1connect.NewCaseServiceClient(hc, s.URL, opts...).ConfirmInterdiction(context.Background(),
					connect.NewRequest(&complydv1.ConfirmInterdictionRequest{Id: in.ID, Reference: &ref}))
				if err != nil {
					_, info := errorInfo(t, err)
					return "", info.Code
				}
				return res.Msg.Status, ""
			}
			_, code := confirm(officerTok)
			require.Equal(t, "FORBIDDEN", code, "the requester cannot confirm")
			st, code := confirm(admin)
			require.Empty(t, code)
			require.Equal(t, "CONFIRMED", st)
		})
	}

	// The core banking system confirms over the API with its key (the bank's machine, not the
	// requester), with its reference.
	var key struct{ Key string }
	s.rest("POST", "/api/v1/auth/api-keys", cred{Bearer: admin}, map[string]any{"name": "core-banking"}).decode(t, &key)
	in := s.interdict(officerTok, "POST_NO_DEBIT", "3300000001")
	var out interdictionJSON
	s.rest("POST", "/api/v1/interdictions/"+in.ID+"/confirm", cred{APIKey: key.Key}, map[string]any{"reference": "CBS-CORE-1"}).decode(t, &out)
	require.Equal(t, "CONFIRMED", out.Status)
}
