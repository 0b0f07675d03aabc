package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

const sarGrounds = "Repeated third-party cash lodgements inconsistent with the customer's profile."

// TestReportFourEyesCountsEditors is issue 48 point 2 over /api/v1: an ANALYST drafts a SAR,
// an officer rewrites its narrative, the analyst submits, and that officer's approval (and
// rejection) is refused: whoever changed the report cannot decide it. A third person approves.
func TestReportFourEyesCountsEditors(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	s.reportSettings(admin, nil)
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	editor, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)

	sar, env := s.report(analyst, "POST", "/api/v1/reports", map[string]any{"type": "SAR", "customerAccount": newAccount(),
		"customerName": "Emeka Nwosu", "reason": sarGrounds})
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	_, env = s.report(officer, "PATCH", "/api/v1/reports/"+sar.ID, map[string]any{"narrative": "Rewritten by the officer: lodgements by three third parties.",
		"indicators": []string{"STR-STRUCT"}, "setIndicators": true}) // goAML requires an indicator (docs/guide/reports.md)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(analyst, "POST", "/api/v1/reports/"+sar.ID+"/submit", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	_, env = s.report(officer, "POST", "/api/v1/reports/"+sar.ID+"/approve", map[string]any{})
	requireRESTError(t, env, http.StatusForbidden, "FORBIDDEN")
	_, env = s.report(officer, "POST", "/api/v1/reports/"+sar.ID+"/reject", map[string]any{"reason": "mine"})
	requireRESTError(t, env, http.StatusForbidden, "FORBIDDEN")

	var got struct {
		Status       string   `json:"status"`
		Contributors []string `json:"contributors"`
	}
	s.rest("GET", "/api/v1/reports/"+sar.ID, cred{Bearer: admin}, nil).decode(t, &got)
	require.Equal(t, "PENDING_APPROVAL", got.Status)
	require.Contains(t, got.Contributors, editor.ID)
	require.Len(t, got.Contributors, 2)
	r, env := s.report(admin, "POST", "/api/v1/reports/"+sar.ID+"/approve", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "APPROVED", r.Status)
}

// TestReportFourEyesBeforeValidation: a contributor's approval of a report goAML would still
// reject is refused for who they are (403), not answered with the report's missing fields.
func TestReportFourEyesBeforeValidation(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	s.reportSettings(admin, nil)
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	sar, env := s.report(officer, "POST", "/api/v1/reports", map[string]any{"type": "SAR", "customerAccount": newAccount(),
		"customerName": "Emeka Nwosu", "reason": sarGrounds}) // no indicator: goAML would reject it
	require.Equal(t, http.StatusCreated, env.Status, "%s", env.Raw)
	_, env = s.report(officer, "POST", "/api/v1/reports/"+sar.ID+"/submit", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(officer, "POST", "/api/v1/reports/"+sar.ID+"/approve", map[string]any{})
	requireRESTError(t, env, http.StatusForbidden, "FORBIDDEN")
	_, env = s.report(admin, "POST", "/api/v1/reports/"+sar.ID+"/approve", map[string]any{})
	requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
}

// TestReportFourEyesCountsEditorsConnect is the same refusal over Connect and gRPC.
func TestReportFourEyesCountsEditorsConnect(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	s.reportSettings(admin, nil)
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	for _, proto := range []string{"connect", "grpc"} {
		ctx := context.Background()
		client := func(tok string) complydv1connect.ReportServiceClient {
			hc, opts := s.clientOpts(proto, cred{Bearer: tok})
			return complydv1connect.NewReportServiceClient(hc, s.URL, opts...)
		}
		acct, name, reason := newAccount(), "Emeka Nwosu", sarGrounds
		sar, err := client(analyst).CreateReport(ctx, connect.NewRequest(&complydv1.CreateReportRequest{Type: "SAR",
			CustomerAccount: &acct, CustomerName: &name, Reason: &reason}))
		require.NoError(t, err, proto)
		narrative := "Rewritten by the officer."
		_, err = client(officer).UpdateReport(ctx, connect.NewRequest(&complydv1.UpdateReportRequest{Id: sar.Msg.Id, Narrative: &narrative,
			Indicators: []string{"STR-STRUCT"}, SetIndicators: true}))
		require.NoError(t, err, proto)
		_, err = client(analyst).SubmitReport(ctx, connect.NewRequest(&complydv1.SubmitReportRequest{Id: sar.Msg.Id}))
		require.NoError(t, err, proto)
		_, err = client(officer).ApproveReport(ctx, connect.NewRequest(&complydv1.ApproveReportRequest{Id: sar.Msg.Id}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodePermissionDenied, code, proto)
		require.Equal(t, "FORBIDDEN", info.Code, proto)
		ok, err := client(admin).ApproveReport(ctx, connect.NewRequest(&complydv1.ApproveReportRequest{Id: sar.Msg.Id}))
		require.NoError(t, err, proto)
		require.Equal(t, "APPROVED", ok.Msg.Status)
	}
}

// slowFIU is a filing endpoint on 127.0.0.1 that answers after delay, recording every
// submission's report id and idempotency key.
type slowFIU struct {
	*httptest.Server
	mu       sync.Mutex
	keys     []string
	ids      []string
	answer   func(n int) (int, string) // status and body of the nth submission (1-based)
	inFlight chan struct{}
}

func newSlowFIU(t *testing.T, delay time.Duration, answer func(n int) (int, string)) *slowFIU {
	f := &slowFIU{answer: answer, inFlight: make(chan struct{}, 16)}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.keys = append(f.keys, r.Header.Get("Idempotency-Key"))
		f.ids = append(f.ids, r.Header.Get("X-Report-Id"))
		n := len(f.keys)
		f.mu.Unlock()
		f.inFlight <- struct{}{}
		time.Sleep(delay)
		status, body := f.answer(n)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *slowFIU) submissions() ([]string, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ids...), append([]string(nil), f.keys...)
}

// approvedCTR drafts a CTR through a screening and has it approved by four eyes.
func (s *testServer) approvedCTR(admin, officer string) string {
	s.t.Helper()
	account := newAccount()
	_, env := s.screen(admin, cashBody(account, 5_000_000))
	require.Equal(s.t, http.StatusOK, env.Status, "%s", env.Raw)
	id := s.reports(admin, "?type=CTR&customerAccount="+account).Items[0].ID
	_, env = s.report(officer, "POST", "/api/v1/reports/"+id+"/submit", map[string]any{})
	require.Equal(s.t, http.StatusOK, env.Status, "%s", env.Raw)
	_, env = s.report(admin, "POST", "/api/v1/reports/"+id+"/approve", map[string]any{})
	require.Equal(s.t, http.StatusOK, env.Status, "%s", env.Raw)
	return id
}

// TestReportFiledOnce is issue 48 point 3: two simultaneous file calls against an endpoint that
// answers in 2 s send the report exactly once; the second call is answered at once with 409 and
// the report in FILING; the first gets FILED with the endpoint's reference.
func TestReportFiledOnce(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	fiu := newSlowFIU(t, 2*time.Second, func(int) (int, string) { return http.StatusOK, `{"reference":"NFIU-2026-000777"}` })
	s.reportSettings(admin, map[string]any{"filingUrl": fiu.URL + "/goaml/upload"})
	id := s.approvedCTR(admin, officer)

	first := make(chan envelope, 1)
	go func() {
		first <- s.rest("POST", "/api/v1/reports/"+id+"/file", cred{Bearer: officer}, map[string]any{})
	}()
	<-fiu.inFlight // the first call has claimed the report and is sending it
	start := time.Now()
	env := s.rest("POST", "/api/v1/reports/"+id+"/file", cred{Bearer: admin}, map[string]any{})
	require.Less(t, time.Since(start), time.Second, "the second call is answered at once")
	requireRESTError(t, env, http.StatusConflict, "CONFLICT")
	var data struct {
		Status string `json:"status"`
	}
	require.NoError(t, json.Unmarshal(env.Error.Data, &data))
	require.Equal(t, "FILING", data.Status)

	env = <-first
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var r struct {
		Status          string `json:"status"`
		FilingReference string `json:"filingReference"`
		FilingAttempt   int    `json:"filingAttempt"`
		FilingAnswer    struct {
			IdempotencyKey string `json:"idempotencyKey"`
			StatusCode     int    `json:"statusCode"`
		} `json:"filingAnswer"`
	}
	env.decode(t, &r)
	require.Equal(t, "FILED", r.Status)
	require.Equal(t, "NFIU-2026-000777", r.FilingReference)
	require.Equal(t, id+"-1", r.FilingAnswer.IdempotencyKey)
	ids, keys := fiu.submissions()
	require.Equal(t, []string{id}, ids, "exactly one submission")
	require.Equal(t, []string{id + "-1"}, keys)
	requireRESTError(t, s.rest("POST", "/api/v1/reports/"+id+"/file", cred{Bearer: officer}, map[string]any{}),
		http.StatusConflict, "INVALID_STATUS_TRANSITION")
	ids, _ = fiu.submissions()
	require.Len(t, ids, 1)
}

// TestReportFilingUnusableAnswer: an endpoint that accepts the report (2xx) but answers a
// reference over 255 characters leaves the report FILING_FAILED with the answer recorded (no
// reference is thrown away silently), and the report is never sent again: the endpoint has it,
// so a retry without a reference is refused at once (409 CONFLICT over REST, FailedPrecondition
// over Connect and gRPC, the answer in data) and the endpoint sees one submission; the officer
// files it with the reference read on the goAML portal. A 5xx (the endpoint did not take it) is
// retried with the same idempotency key.
func TestReportFilingUnusableAnswer(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	long := strings.Repeat("R", 300)
	var failing string // the report whose first submission the endpoint answers with a 502
	var fiu *slowFIU
	fiu = newSlowFIU(t, 10*time.Millisecond, func(n int) (int, string) {
		ids, _ := fiu.submissions()
		id := ids[n-1]
		switch {
		case id == failing && slices.Index(ids, id) == n-1:
			return http.StatusBadGateway, "upstream down"
		case id == failing:
			return http.StatusOK, `{"reference":"NFIU-2026-000901"}`
		}
		return http.StatusOK, `{"reference":"` + long + `"}`
	})
	s.reportSettings(admin, map[string]any{"filingUrl": fiu.URL + "/goaml/upload"})
	accepted := s.approvedCTR(admin, officer)
	failing = s.approvedCTR(admin, officer)
	countFor := func(id string) (n int, keys []string) {
		ids, ks := fiu.submissions()
		for i := range ids {
			if ids[i] == id {
				n++
				keys = append(keys, ks[i])
			}
		}
		return n, keys
	}

	env := s.rest("POST", "/api/v1/reports/"+accepted+"/file", cred{Bearer: officer}, map[string]any{})
	requireRESTError(t, env, http.StatusServiceUnavailable, "PROVIDER_UNAVAILABLE")
	type answerJSON struct {
		IdempotencyKey string `json:"idempotencyKey"`
		StatusCode     int    `json:"statusCode"`
		BodyExcerpt    string `json:"bodyExcerpt"`
		Error          string `json:"error"`
	}
	var got struct {
		Status       string     `json:"status"`
		FilingAnswer answerJSON `json:"filingAnswer"`
	}
	s.rest("GET", "/api/v1/reports/"+accepted, cred{Bearer: officer}, nil).decode(t, &got)
	require.Equal(t, "FILING_FAILED", got.Status)
	require.Equal(t, 200, got.FilingAnswer.StatusCode)
	require.Contains(t, got.FilingAnswer.BodyExcerpt, long, "the endpoint's reference is kept in the answer")
	require.Contains(t, got.FilingAnswer.Error, "300 characters")

	// The endpoint accepted it: a retry is refused at once, in every transport, and sends nothing.
	env = s.rest("POST", "/api/v1/reports/"+accepted+"/file", cred{Bearer: admin}, map[string]any{})
	requireRESTError(t, env, http.StatusConflict, "CONFLICT")
	var data struct {
		Reason       string     `json:"reason"`
		Status       string     `json:"status"`
		FilingAnswer answerJSON `json:"filingAnswer"`
	}
	require.NoError(t, json.Unmarshal(env.Error.Data, &data))
	require.Equal(t, "ACCEPTED_BY_ENDPOINT", data.Reason)
	require.Equal(t, "FILING_FAILED", data.Status)
	require.Equal(t, 200, data.FilingAnswer.StatusCode)
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: officer})
		rc := complydv1connect.NewReportServiceClient(hc, s.URL, opts...)
		_, err := rc.FileReport(context.Background(), connect.NewRequest(&complydv1.FileReportRequest{Id: accepted}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeFailedPrecondition, code, proto)
		require.Equal(t, "CONFLICT", info.Code, proto)
		require.Equal(t, "ACCEPTED_BY_ENDPOINT", info.Data.AsMap()["reason"], proto)
	}
	n, keys := countFor(accepted)
	require.Equal(t, 1, n, "the endpoint saw the report once: %v", keys)

	// The officer files it with the reference read on the goAML portal (Connect).
	hc, opts := s.clientOpts("connect", cred{Bearer: officer})
	rc := complydv1connect.NewReportServiceClient(hc, s.URL, opts...)
	filed, err := rc.FileReport(context.Background(), connect.NewRequest(&complydv1.FileReportRequest{Id: accepted, Reference: new("NFIU-PORTAL-42")}))
	require.NoError(t, err)
	require.Equal(t, "FILED", filed.Msg.Status)
	n, _ = countFor(accepted)
	require.Equal(t, 1, n)

	// A 5xx: the endpoint did not take it; the retry re-sends it with the same key and files it.
	requireRESTError(t, s.rest("POST", "/api/v1/reports/"+failing+"/file", cred{Bearer: officer}, map[string]any{}),
		http.StatusServiceUnavailable, "PROVIDER_UNAVAILABLE")
	s.rest("GET", "/api/v1/reports/"+failing, cred{Bearer: officer}, nil).decode(t, &got)
	require.Equal(t, "FILING_FAILED", got.Status)
	require.Equal(t, 502, got.FilingAnswer.StatusCode)
	require.Equal(t, "upstream down", got.FilingAnswer.BodyExcerpt)
	r, env := s.report(officer, "POST", "/api/v1/reports/"+failing+"/file", map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "FILED", r.Status)
	require.Equal(t, "HTTP", *r.FilingMethod)
	_, keys = countFor(failing)
	require.Equal(t, []string{failing + "-1", failing + "-1"}, keys)
}
