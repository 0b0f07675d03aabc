package app

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
)

// Issue 48 points 4 and 6: an approval shows its evidence (failed and missing checks, open
// cases), an approval over them records an override, a tenant setting refuses it instead, and
// every approved application is a customer reachable from it.

type evidenceCheck struct{ Kind, Status, Detail, Subject string }

type evidenceCase struct{ ID, CaseNumber, Type, Status string }

type evidenceOverride struct {
	ID, Notes, ActorID string
	Checks             []evidenceCheck
	OpenCases          []evidenceCase
}

type evidenceApp struct {
	ID, Status       string
	CustomerID       *string
	OpenChecks       []evidenceCheck
	OpenCases        []evidenceCase
	Overrides        []evidenceOverride
	EvidenceRequired bool
}

func (s *testServer) getEvidence(tok, path string) evidenceApp {
	s.t.Helper()
	var a evidenceApp
	s.rest("GET", path, cred{Bearer: tok}, nil).decode(s.t, &a)
	return a
}

func checkKinds(cs []evidenceCheck) map[string]string {
	out := map[string]string{}
	for _, c := range cs {
		out[c.Kind+"|"+c.Subject] = c.Status
	}
	return out
}

// weakKYC is a TIER_2 application (a BVN and a NIN: rule 4) with a verified BVN, no document, and
// a NIN check that did not match, which opened a KYC_REVIEW case.
func (s *testServer) weakKYC(tok string) string {
	s.t.Helper()
	a := s.createKYC(tok, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye",
		"bvn": adebayo["bvn"], "nin": adebayo["nin"], "dateOfBirth": adebayo["dateOfBirth"]})
	var v verifyOut
	s.verify(tok, a.ID, "bvn", bvnBody(adebayo)).decode(s.t, &v)
	require.True(s.t, v.IsMatch)
	wrong := ninBody(adebayo)
	wrong["firstName"], wrong["lastName"] = "Chukwuemeka", "Nwachukwu"
	s.verify(tok, a.ID, "nin", wrong).decode(s.t, &v)
	require.False(s.t, v.IsMatch)
	return a.ID
}

// approveKYC approves over proto and returns the override it recorded (nil for none) or the
// spec error code and the error's data.
func (s *testServer) approveKYC(proto, tok, id, notes string) (*evidenceOverride, string, map[string]any) {
	s.t.Helper()
	if proto == "rest" {
		env := s.rest("PATCH", "/api/v1/kyc/applications/"+id+"/approve", cred{Bearer: tok}, map[string]any{"notes": notes})
		if !env.Success {
			var data map[string]any
			require.NotNil(s.t, env.Error, "%s", env.Raw)
			if len(env.Error.Data) > 0 {
				require.NoError(s.t, json.Unmarshal(env.Error.Data, &data))
			}
			return nil, env.Error.Code, data
		}
		var out struct{ Override *evidenceOverride }
		env.decode(s.t, &out)
		return out.Override, "", nil
	}
	hc, opts := s.clientOpts(proto, cred{Bearer: tok})
	res, err := complydv1connect.NewKycServiceClient(hc, s.URL, opts...).ApproveApplication(context.Background(),
		connect.NewRequest(&complydv1.ApproveApplicationRequest{Id: id, Notes: &notes}))
	if err != nil {
		_, info := errorInfo(s.t, err)
		return nil, info.Code, info.Data.AsMap()
	}
	o := res.Msg.Override
	if o == nil {
		return nil, "", nil
	}
	out := &evidenceOverride{ID: o.Id, Notes: o.Notes, ActorID: o.ActorId}
	for _, c := range o.Checks {
		out.Checks = append(out.Checks, evidenceCheck{Kind: c.Kind, Status: c.Status, Detail: c.Detail, Subject: c.Subject})
	}
	for _, c := range o.OpenCases {
		out.OpenCases = append(out.OpenCases, evidenceCase{ID: c.Id, CaseNumber: c.CaseNumber, Type: c.Type, Status: c.Status})
	}
	return out, "", nil
}

// findCustomer calls FindCustomer over proto; "" when none is found (404).
func (s *testServer) findCustomer(proto, tok string, req *complydv1.FindCustomerRequest) string {
	s.t.Helper()
	if proto == "rest" {
		q := "applicationId=" + req.ApplicationId
		switch {
		case req.CaseId != "":
			q = "caseId=" + req.CaseId
		case req.TransactionId != "":
			q = "transactionId=" + req.TransactionId
		}
		env := s.rest("GET", "/api/v1/customers/find?"+q, cred{Bearer: tok}, nil)
		if env.Status == 404 {
			return ""
		}
		var out struct{ ID string }
		env.decode(s.t, &out)
		return out.ID
	}
	hc, opts := s.clientOpts(proto, cred{Bearer: tok})
	res, err := complydv1connect.NewCustomerServiceClient(hc, s.URL, opts...).FindCustomer(context.Background(), connect.NewRequest(req))
	if err != nil {
		if code, _ := errorInfo(s.t, err); code == connect.CodeNotFound {
			return ""
		}
		require.NoError(s.t, err)
	}
	return res.Msg.Id
}

// TestKYCApprovalEvidence is issue 48 point 4 for KYC: the application lists what its tier
// lacks and its open KYC_REVIEW case; an approval over them records an override (who, which,
// the notes), shown on the application; with approvalEvidenceRequired the approval is refused
// with the list.
func TestKYCApprovalEvidence(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.credit(f, "20000", "PAY")
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			id := s.weakKYC(admin)
			path := "/api/v1/kyc/applications/" + id
			a := s.getEvidence(admin, path)
			kinds := checkKinds(a.OpenChecks)
			require.Equal(t, "MISSING", kinds["ID_DOCUMENT|"], "%+v", a.OpenChecks)
			require.Equal(t, "FAILED", kinds["VERIFIED_NIN|"], "%+v", a.OpenChecks)
			require.NotContains(t, kinds, "VERIFIED_BVN|", "the BVN is verified")
			require.Len(t, a.OpenCases, 1)
			require.Equal(t, "KYC_REVIEW", a.OpenCases[0].Type)
			require.False(t, a.EvidenceRequired)

			ov, code, _ := s.approveKYC(proto, admin, id, "Documents seen in branch")
			require.Empty(t, code)
			require.NotNil(t, ov, "an approval over open evidence records an override")
			require.Equal(t, "Documents seen in branch", ov.Notes)
			require.Equal(t, f.AdminID, ov.ActorID)
			require.Len(t, ov.OpenCases, 1)
			require.Equal(t, checkKinds(a.OpenChecks), checkKinds(ov.Checks))

			a = s.getEvidence(admin, path)
			require.Equal(t, "APPROVED", a.Status)
			require.Len(t, a.Overrides, 1)
			require.Equal(t, ov.ID, a.Overrides[0].ID)
			require.Equal(t, "Documents seen in branch", a.Overrides[0].Notes)
		})
	}

	// The override is in the audit log with the approval.
	var n int
	require.NoError(t, s.admin().QueryRow(context.Background(), `select count(*) from audit_events
		where tenant_id = $1 and action = 'kyc.approved' and after ? 'override'`, string(f.ID)).Scan(&n))
	require.Equal(t, len(protocols), n)

	// The tenant setting: the approval is refused with what is open, and nothing changes.
	env := s.rest("PATCH", "/api/v1/tenants/me/kyc-config", cred{Bearer: admin}, map[string]any{"approvalEvidenceRequired": true})
	require.True(t, env.Success, "%s", env.Raw)
	for _, proto := range protocols {
		t.Run("required/"+proto, func(t *testing.T) {
			id := s.weakKYC(admin)
			require.True(t, s.getEvidence(admin, "/api/v1/kyc/applications/"+id).EvidenceRequired)
			ov, code, data := s.approveKYC(proto, admin, id, "")
			require.Nil(t, ov)
			require.Equal(t, "INVALID_STATUS_TRANSITION", code)
			require.Equal(t, "APPROVED", data["to"])
			require.NotEmpty(t, data["openChecks"], "%v", data)
			require.Len(t, data["openCases"], 1)
			a := s.getEvidence(admin, "/api/v1/kyc/applications/"+id)
			require.NotEqual(t, "APPROVED", a.Status)
			require.Empty(t, a.Overrides)
		})
	}
}

// TestKYBApprovalEvidence is issue 48 point 4 for KYB: a company whose two director checks
// failed (no BVN or NIN to check them with) shows them, and its approval records the override.
func TestKYBApprovalEvidence(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.credit(f, "20000", "PAY")
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			body := map[string]any{"companyName": "Lagos Fresh Foods Limited", "rcNumber": "RC1234567",
				"directors":        []map[string]any{{"name": "Adebayo Oluwaseun Ogunleye"}, {"name": "Funmilayo Adeyemi"}},
				"beneficialOwners": []map[string]any{{"name": "Adebayo Oluwaseun Ogunleye", "percentage": 60}}}
			k := s.createKYB(admin, body)
			require.True(t, s.kybStep(admin, k.ID, "run-screening", map[string]any{}).Success)
			path := "/api/v1/kyc/kyb/applications/" + k.ID
			a := s.getEvidence(admin, path)
			kinds := checkKinds(a.OpenChecks)
			require.Equal(t, "FAILED", kinds["DIRECTOR_CHECK|Adebayo Oluwaseun Ogunleye"], "%+v", a.OpenChecks)
			require.Equal(t, "FAILED", kinds["DIRECTOR_CHECK|Funmilayo Adeyemi"], "%+v", a.OpenChecks)

			var ov *complydv1.EvidenceOverride
			if proto == "rest" {
				env := s.rest("PATCH", path+"/approve", cred{Bearer: admin}, map[string]any{"notes": "Directors known to the branch"})
				require.True(t, env.Success, "%s", env.Raw)
				var out struct{ Override *evidenceOverride }
				env.decode(t, &out)
				require.NotNil(t, out.Override)
				require.Len(t, out.Override.Checks, 2)
			} else {
				hc, opts := s.clientOpts(proto, cred{Bearer: admin})
				notes := "Directors known to the branch"
				res, err := complydv1connect.NewKybServiceClient(hc, s.URL, opts...).ApproveKybApplication(context.Background(),
					connect.NewRequest(&complydv1.ApproveKybApplicationRequest{Id: k.ID, Notes: &notes}))
				require.NoError(t, err)
				ov = res.Msg.Override
				require.NotNil(t, ov)
				require.Len(t, ov.Checks, 2)
			}
			a = s.getEvidence(admin, path)
			require.Len(t, a.Overrides, 1)
			require.Equal(t, "Directors known to the branch", a.Overrides[0].Notes)
			// Point 6: the approved company is a customer, found from its application.
			require.NotNil(t, a.CustomerID)
			require.Equal(t, *a.CustomerID, s.findCustomer(proto, admin, &complydv1.FindCustomerRequest{ApplicationId: k.ID}))
		})
	}

	// The override is in the audit log with the approval.
	var n int
	require.NoError(t, s.admin().QueryRow(context.Background(), `select count(*) from audit_events
		where tenant_id = $1 and action = 'kyb.approved' and after ? 'override'`, string(f.ID)).Scan(&n))
	require.Equal(t, len(protocols), n)

	// The tenant setting refuses the approval with the failed director checks, in every
	// transport, and nothing changes.
	env := s.rest("PATCH", "/api/v1/tenants/me/kyc-config", cred{Bearer: admin}, map[string]any{"approvalEvidenceRequired": true})
	require.True(t, env.Success, "%s", env.Raw)
	for _, proto := range protocols {
		t.Run("required/"+proto, func(t *testing.T) {
			k := s.createKYB(admin, map[string]any{"companyName": "Lagos Fresh Foods Limited", "rcNumber": "RC1234567",
				"directors": []map[string]any{{"name": "Adebayo Oluwaseun Ogunleye"}}})
			require.True(t, s.kybStep(admin, k.ID, "run-screening", map[string]any{}).Success)
			path := "/api/v1/kyc/kyb/applications/" + k.ID
			require.True(t, s.getEvidence(admin, path).EvidenceRequired)
			var code string
			var data map[string]any
			if proto == "rest" {
				env := s.rest("PATCH", path+"/approve", cred{Bearer: admin}, map[string]any{"notes": "known"})
				require.False(t, env.Success, "%s", env.Raw)
				code = env.Error.Code
				require.NoError(t, json.Unmarshal(env.Error.Data, &data))
			} else {
				hc, opts := s.clientOpts(proto, cred{Bearer: admin})
				_, err := complydv1connect.NewKybServiceClient(hc, s.URL, opts...).ApproveKybApplication(context.Background(),
					connect.NewRequest(&complydv1.ApproveKybApplicationRequest{Id: k.ID, Notes: new("known")}))
				_, info := errorInfo(t, err)
				code, data = info.Code, info.Data.AsMap()
			}
			require.Equal(t, "INVALID_STATUS_TRANSITION", code)
			var kinds []string
			for _, c := range data["openChecks"].([]any) {
				kinds = append(kinds, c.(map[string]any)["kind"].(string)+" "+c.(map[string]any)["status"].(string))
			}
			require.ElementsMatch(t, []string{"DIRECTOR_CHECK FAILED", "BENEFICIAL_OWNERS MISSING"}, kinds, "%v", data)
			a := s.getEvidence(admin, path)
			require.NotEqual(t, "APPROVED", a.Status)
			require.Empty(t, a.Overrides)
			require.Nil(t, a.CustomerID)
		})
	}
}

// TestApprovedApplicationsAreCustomers is issue 48 point 6: an approved KYC applicant is a
// customer (listed by GET /customers, with its accounts seen in screening), reachable from the
// application, its case and its transaction; applications approved before migration 0027 are
// linked by LinkApprovedCustomers.
func TestApprovedApplicationsAreCustomers(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.credit(f, "20000", "PAY")
	id := s.weakKYC(admin)
	caseID := s.getEvidence(admin, "/api/v1/kyc/applications/"+id).OpenCases[0].ID
	_, code, _ := s.approveKYC("rest", admin, id, "ok")
	require.Empty(t, code)
	a := s.getEvidence(admin, "/api/v1/kyc/applications/"+id)
	require.NotNil(t, a.CustomerID, "the approval makes the applicant a customer")
	cid := *a.CustomerID

	var list struct {
		Items []struct{ ID, DisplayName, Bvn string }
	}
	env := s.rest("GET", "/api/v1/customers", cred{Bearer: admin}, nil)
	env.decode(t, &list)
	require.Len(t, list.Items, 1, "%s", env.Raw)
	require.Equal(t, cid, list.Items[0].ID)

	// A transaction of the applicant's BVN: the customer's account, and the customer found from it.
	var scr struct{ TransactionID string }
	env = s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, map[string]any{"externalId": "EV-1", "type": "TRANSFER",
		"channel": "MOBILE_APP", "amount": 1000, "currency": "NGN", "senderAccountNumber": "1000000001", "senderName": "Adebayo Ogunleye",
		"senderBvn": adebayo["bvn"], "receiverName": "Chinedu Obi", "receiverAccountNumber": "2000000001", "timestamp": time.Now().UTC().Format(time.RFC3339)})
	require.True(t, env.Success, "%s", env.Raw)
	env.decode(t, &scr)
	require.NotEmpty(t, scr.TransactionID, "%s", env.Raw)
	var ovw struct {
		Accounts []struct{ Account string }
	}
	s.rest("GET", "/api/v1/customers/"+cid+"/overview", cred{Bearer: admin}, nil).decode(t, &ovw)
	require.Len(t, ovw.Accounts, 1)
	require.Equal(t, "1000000001", ovw.Accounts[0].Account)

	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			require.Equal(t, cid, s.findCustomer(proto, admin, &complydv1.FindCustomerRequest{ApplicationId: id}))
			require.Equal(t, cid, s.findCustomer(proto, admin, &complydv1.FindCustomerRequest{CaseId: caseID}))
			require.Equal(t, cid, s.findCustomer(proto, admin, &complydv1.FindCustomerRequest{TransactionId: scr.TransactionID}))
			// Another tenant's application is not found.
			_, other := s.tenant()
			require.Empty(t, s.findCustomer(proto, other, &complydv1.FindCustomerRequest{ApplicationId: id}))
		})
	}

	// A transaction whose sender is nobody's customer is known: it answers an empty customer
	// (200), not 404, which the browser logged as a console error on every such transaction
	// page (screens.spec); an id the tenant does not have is still 404.
	env = s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, map[string]any{"externalId": "EV-NOBODY", "type": "TRANSFER",
		"channel": "MOBILE_APP", "amount": 1000, "currency": "NGN", "senderAccountNumber": "1000000009", "senderName": "Nobody Known",
		"receiverName": "Chinedu Obi", "receiverAccountNumber": "2000000001", "timestamp": time.Now().UTC().Format(time.RFC3339)})
	require.True(t, env.Success, "%s", env.Raw)
	var nobody struct{ TransactionID string }
	env.decode(t, &nobody)
	found := s.rest("GET", "/api/v1/customers/find?transactionId="+nobody.TransactionID, cred{Bearer: admin}, nil)
	require.Equal(t, 200, found.Status, "%s", found.Raw)
	require.Empty(t, s.findCustomer("connect", admin, &complydv1.FindCustomerRequest{TransactionId: nobody.TransactionID}))
	missing := s.rest("GET", "/api/v1/customers/find?transactionId=8b0f6f0e-6a55-4c34-9a57-3c1b2f1d9e01", cred{Bearer: admin}, nil)
	require.Equal(t, 404, missing.Status, "%s", missing.Raw)

	// The backfill: an application approved before migration 0027 (no customer_id, no profile).
	db := s.admin()
	ctx := context.Background()
	_, err := db.Exec(ctx, `update kyc_applications set customer_id = null where id = $1`, id)
	require.NoError(t, err)
	for _, q := range []string{`delete from customer_risk_queue where customer_id = $1`, `delete from customer_risk_history where customer_id = $1`,
		`delete from customer_risk where customer_id = $1`, `delete from customer_profiles where id = $1`} {
		_, err = db.Exec(ctx, q, cid)
		require.NoError(t, err, q)
	}
	n, err := applicationstore.LinkApprovedCustomers(ctx, s.DB)
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 1)
	a = s.getEvidence(admin, "/api/v1/kyc/applications/"+id)
	require.NotNil(t, a.CustomerID)
	s.rest("GET", "/api/v1/customers", cred{Bearer: admin}, nil).decode(t, &list)
	require.Len(t, list.Items, 1)
	require.Equal(t, *a.CustomerID, list.Items[0].ID)
	n, err = applicationstore.LinkApprovedCustomers(ctx, s.DB)
	require.NoError(t, err)
	require.Zero(t, n, "idempotent")
}
