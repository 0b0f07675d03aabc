package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/xmllint"
)

// reportOut is the API view of a report as the tests read it.
type reportOut struct {
	ID              string   `json:"id"`
	Type            string   `json:"type"`
	Status          string   `json:"status"`
	Origin          string   `json:"origin"`
	CustomerAccount string   `json:"customerAccount"`
	CaseID          *string  `json:"caseId"`
	TransactionIDs  []string `json:"transactionIds"`
	Rules           []string `json:"rules"`
	Reason          string   `json:"reason"`
	Action          string   `json:"action"`
	Narrative       string   `json:"narrative"`
	DeadlineAt      string   `json:"deadlineAt"`
	FilingReference *string  `json:"filingReference"`
	FilingMethod    *string  `json:"filingMethod"`
	Timeline        []struct {
		Action string `json:"action"`
	} `json:"timeline"`
}

type reportList struct {
	Items []reportOut `json:"items"`
	Total int         `json:"total"`
}

func (s *testServer) reports(token, query string) reportList {
	s.t.Helper()
	env := s.rest("GET", "/api/v1/reports"+query, cred{Bearer: token}, nil)
	require.Equal(s.t, http.StatusOK, env.Status, "%s", env.Raw)
	var l reportList
	env.decode(s.t, &l)
	return l
}

func (s *testServer) report(token, method, path string, body any) (reportOut, envelope) {
	s.t.Helper()
	env := s.rest(method, path, cred{Bearer: token}, body)
	var r reportOut
	if env.Success {
		env.decode(s.t, &r)
	}
	return r, env
}

// reportSettings configures the tenant's goAML identity (and optionally deadlines and a filing URL).
func (s *testServer) reportSettings(admin string, extra map[string]any) {
	s.t.Helper()
	body := map[string]any{"rentityId": "4711", "rentityBranch": "Head office", "institutionName": "Test Bank Plc", "institutionCode": "999",
		"reportingPerson": map[string]any{"firstName": "Ngozi", "lastName": "Eze", "email": "mlro@bank.test", "phone": "+2348012345678",
			"occupation": "MLRO"},
		"location": map[string]any{"address": "1 Marina", "city": "Lagos", "state": "Lagos", "countryCode": "NG"}}
	for k, v := range extra {
		body[k] = v
	}
	env := s.rest("PUT", "/api/v1/tenants/me/report-settings", cred{Bearer: admin}, body)
	require.Equal(s.t, http.StatusOK, env.Status, "%s", env.Raw)
}

func cashBody(account string, amount float64) map[string]any {
	b := screenBody(ext("cash"), account, amount)
	b["type"], b["channel"] = "CASH_DEPOSIT", "BRANCH"
	return b
}

// TestReportsDraftedInTheScreeningCommit: a cash deposit of 5,000,000 NGN drafts a CTR (and, at
// 80% of the threshold, AML-003's STR linked to its case) in the screening's commit; a second
// deposit of the day joins the same CTR; a USD transfer abroad drafts an FTR; a structuring
// pattern an STR linked to its case; each draft carries the tenant's deadline.
func TestReportsDraftedInTheScreeningCommit(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	s.reportSettings(admin, map[string]any{"deadlineHours": map[string]any{"ctr": 48}})
	env := s.rest("PATCH", "/api/v1/tenants/me/fx-rates", cred{Bearer: admin},
		map[string]any{"rates": []map[string]string{{"currency": "USD", "rateToNgn": "1500"}}})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	account := newAccount()
	out, env := s.screen(admin, cashBody(account, 5_000_000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Contains(t, out.Actions, "GENERATE_CTR")
	ctrs := s.reports(admin, "?type=CTR&customerAccount="+account)
	require.Equal(t, 1, ctrs.Total, "the CTR draft is committed with the screening")
	ctr := ctrs.Items[0]
	require.Equal(t, "DRAFT", ctr.Status)
	require.Equal(t, "SCREENING", ctr.Origin)
	require.Equal(t, []string{out.TransactionID}, ctr.TransactionIDs)
	require.Contains(t, ctr.Rules, "AML-001")
	deadline, err := time.Parse(time.RFC3339, ctr.DeadlineAt)
	require.NoError(t, err)
	require.Equal(t, reports.EndOfDay(reports.DayOf(time.Now())).Add(48*time.Hour).UTC(), deadline.UTC(), "the tenant's CTR deadline")
	// AML-003 (a single cash amount at 80% of its threshold) asks for an STR, linked to the case.
	require.NotNil(t, out.CaseID)
	strs := s.reports(admin, "?type=STR&customerAccount="+account)
	require.Equal(t, 1, strs.Total)
	require.Equal(t, *out.CaseID, *strs.Items[0].CaseID)

	// A second qualifying deposit of the day joins the day's CTR (one per customer per day).
	out2, env := s.screen(admin, cashBody(account, 6_000_000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	ctrs = s.reports(admin, "?type=CTR&customerAccount="+account)
	require.Equal(t, 1, ctrs.Total)
	require.ElementsMatch(t, []string{out.TransactionID, out2.TransactionID}, ctrs.Items[0].TransactionIDs)

	// A small APPROVE transfer drafts nothing.
	quiet := newAccount()
	_, env = s.screen(admin, screenBody(ext("quiet"), quiet, 1000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Zero(t, s.reports(admin, "?customerAccount="+quiet).Total)

	// A USD transfer abroad: an FTR.
	abroad := newAccount()
	b := screenBody(ext("ftr"), abroad, 2000)
	b["type"], b["currency"], b["receiverCountry"], b["receiverAccountNumber"] = "INTERNATIONAL_TRANSFER", "USD", "GB", "GB29NWBK60161331926819"
	out3, env := s.screen(admin, b)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Contains(t, out3.Actions, "GENERATE_FTR")
	ftrs := s.reports(admin, "?type=FTR&customerAccount="+abroad)
	require.Equal(t, 1, ftrs.Total)
	require.Equal(t, []string{out3.TransactionID}, ftrs.Items[0].TransactionIDs)

	// Structuring: a third transfer in 24 hours whose sum exceeds the threshold: an STR linked
	// to the case the screening opened.
	structured := newAccount()
	now := time.Now().UTC()
	s.history(f.ID, structured, now.Add(-2*time.Hour), "4700000")
	s.history(f.ID, structured, now.Add(-3*time.Hour), "4700000.01")
	out4, env := s.screen(admin, screenBody(ext("struct"), structured, 600_000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.NotNil(t, out4.CaseID, "%s", env.Raw)
	strs = s.reports(admin, "?type=STR&customerAccount="+structured)
	require.Equal(t, 1, strs.Total)
	require.Equal(t, *out4.CaseID, *strs.Items[0].CaseID)
	require.Contains(t, strs.Items[0].Rules, "AML-003")
	require.Equal(t, 1, s.reports(admin, "?caseId="+*out4.CaseID).Total)

	// Another tenant sees none of them.
	_, other := s.tenant()
	require.Zero(t, s.reports(other, "").Total)
	_, env = s.report(other, "GET", "/api/v1/reports/"+ctr.ID, nil)
	requireRESTError(t, env, http.StatusNotFound, "NOT_FOUND")
}

// TestReportsFourEyesAndFiling: the preparer cannot approve; analysts cannot approve or file;
// an approved report exports valid goAML XML and is filed manually or through the tenant's
// endpoint (a test server); a filed report never changes, and a correction references it.
func TestReportsFourEyesAndFiling(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	var mu sync.Mutex
	var got struct {
		body, auth, id, ctype string
	}
	nfiu := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got.body, got.auth, got.id, got.ctype = string(b), r.Header.Get("Authorization"), r.Header.Get("X-Report-Id"), r.Header.Get("Content-Type")
		mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]string{"reference": "NFIU-2026-000123"})
	}))
	t.Cleanup(nfiu.Close)
	s.reportSettings(admin, nil)
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)

	account := newAccount()
	_, env := s.screen(admin, cashBody(account, 5_000_000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	ctr := s.reports(admin, "?type=CTR&customerAccount="+account).Items[0]

	// The officer edits and submits: the officer is its preparer.
	r, env := s.report(officer, "PATCH", "/api/v1/reports/"+ctr.ID, map[string]any{"action": "Customer contacted; source of funds documented."})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "Customer contacted; source of funds documented.", r.Action)
	_, env = s.report(auditor, "POST", "/api/v1/reports/"+ctr.ID+"/submit", map[string]any{})
	requireRESTError(t, env, http.StatusForbidden, "FORBIDDEN")
	r, env = s.report(officer, "POST", "/api/v1/reports/"+ctr.ID+"/submit", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "PENDING_APPROVAL", r.Status)
	_, env = s.report(officer, "POST", "/api/v1/reports/"+ctr.ID+"/approve", map[string]any{})
	requireRESTError(t, env, http.StatusForbidden, "FORBIDDEN") // four eyes
	require.Contains(t, string(env.Raw), "four eyes")
	_, env = s.report(analyst, "POST", "/api/v1/reports/"+ctr.ID+"/approve", map[string]any{})
	requireRESTError(t, env, http.StatusForbidden, "FORBIDDEN") // role
	// Rejected back to DRAFT with a reason, resubmitted, approved by another officer.
	r, env = s.report(admin, "POST", "/api/v1/reports/"+ctr.ID+"/reject", map[string]any{"reason": "add the teller's note"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "DRAFT", r.Status)
	_, env = s.report(officer, "POST", "/api/v1/reports/"+ctr.ID+"/submit", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(officer, "GET", "/api/v1/reports/"+ctr.ID+"/download", nil)
	requireRESTError(t, env, http.StatusConflict, "CONFLICT") // not approved yet
	r, env = s.report(admin, "POST", "/api/v1/reports/"+ctr.ID+"/approve", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "APPROVED", r.Status)

	// The XML passes the checks; the HTML rendering carries the same facts.
	var dl struct{ Filename, ContentType, Content string }
	env = s.rest("GET", "/api/v1/reports/"+ctr.ID+"/download", cred{Bearer: auditor}, nil)
	env.decode(t, &dl)
	require.Equal(t, "application/xml", dl.ContentType)
	require.Empty(t, reports.CheckCodes([]byte(dl.Content), reports.DefaultCodes))
	require.Contains(t, dl.Content, "<report_code>CTR</report_code>")
	require.Contains(t, dl.Content, "<rentity_id>4711</rentity_id>")
	require.Contains(t, dl.Content, "<amount_local>5000000.00</amount_local>")
	require.Contains(t, dl.Content, "<t_to>\n      <to_funds_code>E</to_funds_code>\n      <to_account>\n        <institution_name>Test Bank Plc</institution_name>")
	env = s.rest("GET", "/api/v1/reports/"+ctr.ID+"/download?format=HTML", cred{Bearer: auditor}, nil)
	env.decode(t, &dl)
	require.Equal(t, "text/html; charset=utf-8", dl.ContentType)
	require.Contains(t, dl.Content, account)

	// Filing without a reference and without an endpoint is refused; with one it is filed.
	_, env = s.report(officer, "POST", "/api/v1/reports/"+ctr.ID+"/file", map[string]any{})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	_, env = s.report(analyst, "POST", "/api/v1/reports/"+ctr.ID+"/file", map[string]any{"reference": "X"})
	requireRESTError(t, env, http.StatusForbidden, "FORBIDDEN")
	r, env = s.report(officer, "POST", "/api/v1/reports/"+ctr.ID+"/file", map[string]any{"reference": "NFIU-MANUAL-1"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "FILED", r.Status)
	require.Equal(t, "MANUAL", *r.FilingMethod)
	var actions []string
	for _, e := range r.Timeline {
		actions = append(actions, e.Action)
	}
	require.Equal(t, []string{"CREATED", "UPDATED", "SUBMITTED", "REJECTED", "SUBMITTED", "APPROVED", "FILED"}, actions)

	// A filed report is immutable.
	_, env = s.report(admin, "PATCH", "/api/v1/reports/"+ctr.ID, map[string]any{"narrative": "changed"})
	requireRESTError(t, env, http.StatusConflict, "CONFLICT")
	_, env = s.report(officer, "POST", "/api/v1/reports/"+ctr.ID+"/file", map[string]any{"reference": "AGAIN"})
	requireRESTError(t, env, http.StatusConflict, "INVALID_STATUS_TRANSITION")
	_, env = s.report(admin, "POST", "/api/v1/reports/"+ctr.ID+"/reject", map[string]any{"reason": "x"})
	requireRESTError(t, env, http.StatusConflict, "INVALID_STATUS_TRANSITION")
	var n int
	require.NoError(t, s.admin().QueryRow(context.Background(), "select count(*) from reports where id = $1 and narrative <> 'changed' and status = 'FILED'", ctr.ID).Scan(&n))
	require.Equal(t, 1, n)

	// A correction is a new report referencing it; its XML carries the NFIU's reference.
	corr, env := s.report(officer, "POST", "/api/v1/reports", map[string]any{"type": "CTR", "correctsReportId": ctr.ID})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	require.Equal(t, ctr.TransactionIDs, corr.TransactionIDs)
	require.NotEmpty(t, corr.Narrative, "the deterministic narrative is drafted")
	_, env = s.report(officer, "POST", "/api/v1/reports/"+corr.ID+"/submit", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(admin, "POST", "/api/v1/reports/"+corr.ID+"/approve", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	// Filing through the tenant's endpoint.
	s.reportSettings(admin, map[string]any{"filingUrl": nfiu.URL + "/goaml/upload", "filingToken": "s3cret"})
	r, env = s.report(officer, "POST", "/api/v1/reports/"+corr.ID+"/file", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "FILED", r.Status)
	require.Equal(t, "HTTP", *r.FilingMethod)
	require.Equal(t, "NFIU-2026-000123", *r.FilingReference)
	mu.Lock()
	require.Equal(t, "Bearer s3cret", got.auth)
	require.Equal(t, corr.ID, got.id)
	require.Equal(t, "application/xml", got.ctype)
	require.Contains(t, got.body, "<fiu_ref_number>NFIU-MANUAL-1</fiu_ref_number>")
	require.Empty(t, reports.CheckCodes([]byte(got.body), reports.DefaultCodes))
	mu.Unlock()
	env = s.rest("GET", "/api/v1/tenants/me/report-settings", cred{Bearer: admin}, nil)
	require.Contains(t, string(env.Raw), `"filingTokenSet":true`)
	require.NotContains(t, string(env.Raw), "s3cret")
	var stored string
	require.NoError(t, s.admin().QueryRow(context.Background(), "select filing_token from report_settings where tenant_id = $1", string(f.ID)).Scan(&stored))
	require.NotContains(t, stored, "s3cret", "the token is sealed at rest")
}

// TestReportsEachTypeExports: a CTR, an STR, an FTR and a SAR (drafted by hand, and from a case
// resolved as suspicious) each pass the goAML checks once approved; a report whose reason is
// too thin names the field and cannot be approved.
func TestReportsEachTypeExports(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	s.reportSettings(admin, nil)
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	env := s.rest("PATCH", "/api/v1/tenants/me/fx-rates", cred{Bearer: admin},
		map[string]any{"rates": []map[string]string{{"currency": "USD", "rateToNgn": "1500"}}})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	schema := publicSchema(t)

	// approve submits, approves and downloads a report: the XML validates against the goAML
	// 5.0.1 schema in structure (xmllint, enumerations stripped) and the default code list.
	approve := func(id string) string {
		t.Helper()
		_, env := s.report(officer, "POST", "/api/v1/reports/"+id+"/submit", map[string]any{})
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		_, env = s.report(admin, "POST", "/api/v1/reports/"+id+"/approve", map[string]any{})
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		var dl struct{ Content string }
		env = s.rest("GET", "/api/v1/reports/"+id+"/download", cred{Bearer: officer}, nil)
		env.decode(t, &dl)
		problems, err := schema.Validate(context.Background(), "", []byte(dl.Content))
		require.NoError(t, err)
		require.Empty(t, problems, dl.Content)
		require.Empty(t, reports.CheckCodes([]byte(dl.Content), reports.DefaultCodes), dl.Content)
		return dl.Content
	}
	account := newAccount()
	_, env = s.screen(admin, cashBody(account, 5_000_000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	ctr := s.reports(admin, "?type=CTR&customerAccount="+account).Items[0]
	xml := approve(ctr.ID)
	require.Contains(t, xml, "<report_code>CTR</report_code>")
	require.Contains(t, xml, "<tph_country_prefix>234</tph_country_prefix>")
	require.Contains(t, xml, "<location>")

	// A transfer CTR: the receiver's bank is another's, named by its code, never the tenant's.
	trf := newAccount()
	b := screenBody(ext("trf"), trf, 10_500_000)
	b["receiverBankCode"], b["receiverAccountNumber"], b["receiverName"] = "058", "0987654321", "Tunde Fashola"
	_, env = s.screen(admin, b)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	xml = approve(s.reports(admin, "?type=CTR&customerAccount="+trf).Items[0].ID)
	require.Contains(t, xml, "<institution_name>Not known (bank code 058)</institution_name>")
	require.NotContains(t, xml, "<to_account>\n        <institution_name>Test Bank Plc</institution_name>")

	// The STR of the structuring pattern, with the officer's narrative and action in its XML.
	str := s.reports(admin, "?type=STR&customerAccount="+account).Items[0]
	narrative := "Three cash lodgements within a day, each kept just below the threshold; the customer could not explain the source."
	_, env = s.report(officer, "PATCH", "/api/v1/reports/"+str.ID, map[string]any{"narrative": narrative, "action": "Account placed on post-no-debit."})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	xml = approve(str.ID)
	require.Contains(t, xml, "<indicator>STR-STRUCT</indicator>")
	require.Contains(t, xml, "<reason>"+narrative+"</reason>")
	require.Contains(t, xml, "<action>Account placed on post-no-debit.</action>")
	require.NotContains(t, xml, "Drafted by the screening")

	abroad := newAccount()
	b = screenBody(ext("ftr"), abroad, 2000)
	b["type"], b["currency"], b["receiverCountry"], b["receiverAccountNumber"] = "INTERNATIONAL_TRANSFER", "USD", "GB", "GB29NWBK60161331926819"
	_, env = s.screen(admin, b)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	xml = approve(s.reports(admin, "?type=FTR&customerAccount="+abroad).Items[0].ID)
	require.Contains(t, xml, "<to_country>GB</to_country>")
	require.Contains(t, xml, "<foreign_currency_code>USD</foreign_currency_code>")
	require.Contains(t, xml, "<institution_name>Not known</institution_name>")

	// A SAR by hand: too thin a reason and no indicator are named by element, and approval is
	// refused; with grounds and an indicator it exports.
	sar, env := s.report(officer, "POST", "/api/v1/reports", map[string]any{"type": "SAR", "customerAccount": newAccount(),
		"customerName": "Emeka Nwosu", "reason": "odd", "narrative": "odd"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	var v struct {
		Valid    bool
		Problems []struct{ Field, Message string }
	}
	env = s.rest("GET", "/api/v1/reports/"+sar.ID+"/validation", cred{Bearer: officer}, nil)
	env.decode(t, &v)
	require.False(t, v.Valid)
	require.Equal(t, "report/reason", v.Problems[0].Field)
	_, env = s.report(officer, "POST", "/api/v1/reports/"+sar.ID+"/submit", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(admin, "POST", "/api/v1/reports/"+sar.ID+"/approve", map[string]any{})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), "report/reason")
	require.Contains(t, string(env.Raw), "report/report_indicators")
	_, env = s.report(admin, "POST", "/api/v1/reports/"+sar.ID+"/reject", map[string]any{"reason": "state the grounds"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(officer, "PATCH", "/api/v1/reports/"+sar.ID, map[string]any{"narrative": "Repeated third-party cash lodgements inconsistent with the customer's profile.",
		"indicators": []string{"STR-STRUCT"}, "setIndicators": true})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Contains(t, approve(sar.ID), "<activity>")

	// A correction of the filed CTR carries the NFIU's reference of the report it corrects.
	_, env = s.report(admin, "POST", "/api/v1/reports/"+ctr.ID+"/file", map[string]any{"reference": "NFIU-2026-000123"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	corr, env := s.report(officer, "POST", "/api/v1/reports", map[string]any{"type": "CTR", "correctsReportId": ctr.ID})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	require.Contains(t, approve(corr.ID), "<fiu_ref_number>NFIU-2026-000123</fiu_ref_number>")

	// An STR drafted from a case (POST /cases/{id}/reports) with its transaction and notes.
	c := s.rest("POST", "/api/v1/cases", cred{Bearer: officer}, map[string]any{"type": "AML_ALERT", "priority": "HIGH",
		"title": "Structured lodgements", "description": "Cash split below the threshold", "relatedTransactionId": str.TransactionIDs[0]})
	require.Equal(t, http.StatusCreated, c.Status, "%s", c.Raw)
	var cs struct{ ID string }
	c.decode(t, &cs)
	e := s.rest("POST", "/api/v1/cases/"+cs.ID+"/notes", cred{Bearer: officer}, map[string]any{"content": "Teller confirmed the split"})
	require.Equal(t, http.StatusCreated, e.Status, "%s", e.Raw)
	fromCase, env := s.report(officer, "POST", "/api/v1/cases/"+cs.ID+"/reports", map[string]any{"type": "STR"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	require.Equal(t, "CASE", fromCase.Origin)
	require.Contains(t, fromCase.Narrative, "Teller confirmed the split")
	xml = approve(fromCase.ID)
	require.Contains(t, xml, "Teller confirmed the split")

	// Filing validates again: an approved report whose settings lost the branch is not filed.
	again, env := s.report(officer, "POST", "/api/v1/cases/"+cs.ID+"/reports", map[string]any{"type": "STR"})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	approve(again.ID)
	s.reportSettings(admin, map[string]any{"rentityBranch": ""})
	_, env = s.report(admin, "POST", "/api/v1/reports/"+again.ID+"/file", map[string]any{"reference": "NFIU-2026-000124"})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Contains(t, string(env.Raw), "report/rentity_branch")

	// A case resolved as suspicious drafts its SAR (no transaction on the case).
	c = s.rest("POST", "/api/v1/cases", cred{Bearer: officer}, map[string]any{"type": "AML_ALERT", "priority": "HIGH",
		"title": "Walk-in customer", "description": "Unexplained funds"})
	require.Equal(t, http.StatusCreated, c.Status, "%s", c.Raw)
	c.decode(t, &cs)
	for _, st := range []map[string]any{{"status": "IN_PROGRESS"}, {"status": "PENDING_REVIEW"},
		{"status": "RESOLVED_TRUE_POSITIVE", "resolutionNote": "confirmed suspicious"}} {
		e := s.rest("PATCH", "/api/v1/cases/"+cs.ID+"/status", cred{Bearer: admin}, st)
		require.Equal(t, http.StatusOK, e.Status, "%s", e.Raw)
	}
	l := s.reports(admin, "?caseId="+cs.ID)
	require.Equal(t, 1, l.Total)
	require.Equal(t, "SAR", l.Items[0].Type)
	require.Equal(t, "CASE", l.Items[0].Origin)
	require.True(t, strings.Contains(l.Items[0].Reason, "confirmed suspicious"))
}

// publicSchema is the goAML 5.0.1 schema's structure-only validator.
func publicSchema(t *testing.T) *xmllint.Validator {
	t.Helper()
	v, err := xmllint.New("", []xmllint.Schema{{XSD: reports.PublicSchema}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = v.Close() })
	return v
}

// TestReportDeadlines: reports inside the tenant's near-deadline window are listed, soonest first.
func TestReportDeadlines(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	s.reportSettings(admin, map[string]any{"deadlineHours": map[string]any{"ctr": 1}, "nearDeadlineHours": 48})
	account := newAccount()
	_, env := s.screen(admin, cashBody(account, 5_000_000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	env = s.rest("GET", "/api/v1/reports/deadlines", cred{Bearer: admin}, nil)
	var l reportList
	env.decode(t, &l)
	// The CTR (1 h after the end of the day) and AML-003's STR (the 24 h default), soonest first.
	require.Equal(t, 2, l.Total, "%s", env.Raw)
	require.Equal(t, "CTR", l.Items[0].Type)
	require.Equal(t, "STR", l.Items[1].Type)

	// The sweep notifies the compliance officers once per report.
	store := postgres.NewReportStore(s.DB)
	n, err := store.NotifyDeadlines(context.Background(), time.Now())
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 2) // this tenant's two (other tests' tenants share the database)
	var inbox struct {
		Items []struct{ Kind, Title, Message string } `json:"items"`
	}
	deadlineNotes := func() int {
		s.rest("GET", "/api/v1/notifications", cred{Bearer: officer}, nil).decode(t, &inbox)
		k := 0
		for _, it := range inbox.Items {
			if it.Kind == "REPORT_DEADLINE" { // the screening's case notified the officer too
				require.Contains(t, it.Message, account)
				k++
			}
		}
		return k
	}
	require.Equal(t, 2, deadlineNotes())
	_, err = store.NotifyDeadlines(context.Background(), time.Now())
	require.NoError(t, err)
	require.Equal(t, 2, deadlineNotes(), "notified once")

	s.reportSettings(admin, map[string]any{"deadlineHours": map[string]any{"ctr": 1}, "nearDeadlineHours": 1})
	env = s.rest("GET", "/api/v1/reports/deadlines", cred{Bearer: admin}, nil)
	env.decode(t, &l)
	require.Zero(t, l.Total, "%s", env.Raw) // both beyond a 1 h window (the day ends later than now)
}

// TestReportsConcurrentDraftsOneCTR: concurrent qualifying deposits of one customer on one day
// all land in a single CTR draft (the upsert key), none lost, none duplicated.
func TestReportsConcurrentDraftsOneCTR(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	account := newAccount()
	const n = 12
	ids := make(chan string, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			out, env := s.screen(admin, cashBody(account, 5_000_000))
			if env.Status == http.StatusOK {
				ids <- out.TransactionID
			}
		})
	}
	wg.Wait()
	close(ids)
	var want []string
	for id := range ids {
		want = append(want, id)
	}
	require.Len(t, want, n)
	ctrs := s.reports(admin, "?type=CTR&customerAccount="+account)
	require.Equal(t, 1, ctrs.Total)
	require.ElementsMatch(t, want, ctrs.Items[0].TransactionIDs)
	strs := s.reports(admin, "?type=STR&customerAccount="+account)
	require.Equal(t, 1, strs.Total)
	require.Len(t, strs.Items[0].TransactionIDs, n)
}

// TestReportFilingURLGuarded: without private addresses allowed, a filing endpoint on loopback,
// a private network or cloud metadata is refused when saved (the outbound guard of webhooks).
func TestReportFilingURLGuarded(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.WebhookAllowPrivate = false }})
	_, admin := s.tenant()
	for _, u := range []string{"http://127.0.0.1:8080/goaml", "https://10.0.0.5/goaml", "https://169.254.169.254/latest", "http://nfiu.example/goaml"} {
		env := s.rest("PUT", "/api/v1/tenants/me/report-settings", cred{Bearer: admin}, map[string]any{"rentityId": "4711", "filingUrl": u})
		requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
		require.Contains(t, string(env.Raw), "filingUrl", u)
	}
	env := s.rest("PUT", "/api/v1/tenants/me/report-settings", cred{Bearer: admin}, map[string]any{"rentityId": "4711", "filingUrl": "https://goaml.nfiu.example/upload"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
}

// TestReportsOverConnectAndGRPC: the same ReportService answers Connect and gRPC clients, with
// the four-eyes refusal as PermissionDenied carrying FORBIDDEN.
func TestReportsOverConnectAndGRPC(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	s.reportSettings(admin, nil)
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	account := newAccount()
	_, env := s.screen(admin, cashBody(account, 5_000_000))
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: officer})
		c := complydv1connect.NewReportServiceClient(hc, s.URL, opts...)
		ctx := context.Background()
		l, err := c.ListReports(ctx, connect.NewRequest(&complydv1.ListReportsRequest{Type: ptr("CTR"), CustomerAccount: &account}))
		require.NoError(t, err, proto)
		require.Len(t, l.Msg.Items, 1, proto)
		id := l.Msg.Items[0].Id
		if proto == "connect" {
			r, err := c.SubmitReport(ctx, connect.NewRequest(&complydv1.SubmitReportRequest{Id: id}))
			require.NoError(t, err)
			require.Equal(t, "PENDING_APPROVAL", r.Msg.Status)
		}
		_, err = c.ApproveReport(ctx, connect.NewRequest(&complydv1.ApproveReportRequest{Id: id}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodePermissionDenied, code, proto)
		require.Equal(t, "FORBIDDEN", info.Code, proto)
		g, err := c.GetReport(ctx, connect.NewRequest(&complydv1.GetReportRequest{Id: id}))
		require.NoError(t, err, proto)
		require.Equal(t, "PENDING_APPROVAL", g.Msg.Status)
		require.Equal(t, "CTR", g.Msg.Type)
	}
}

func ptr[T any](v T) *T { return &v }
