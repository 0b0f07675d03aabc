package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
)

type kybApp struct {
	ID, Status, CompanyName string
	RcNumber, RiskLevel     *string
	Notes                   *string
	CacVerified             bool
	DirectorsVerified       bool
	BeneficialOwnersClean   bool
	ProfileID               *string `json:"profileId"`
	Directors               []struct {
		Name     string
		Bvn      *string
		Verified bool
	}
	BeneficialOwners []struct {
		Name       string
		Percentage float64
		Clean      *bool
	}
	Checks []struct {
		CheckType, Subject, Charged string
		Passed                      bool
	}
	Documents []struct{ ID, DocumentType string }
}

// Lagos Fresh Foods Limited in the sandbox registry: directors and owners are registry people.
var lagosFresh = map[string]any{
	"companyName": "Lagos Fresh Foods Limited", "rcNumber": "RC1234567", "address": "12 Allen Avenue, Ikeja",
	"incorporationDate": "2015-06-10",
	"directors": []map[string]any{
		{"name": "Adebayo Oluwaseun Ogunleye", "bvn": "22234567801", "nationality": "Nigerian"},
		{"name": "Funmilayo Adeyemi", "bvn": "22234567804", "nationality": "Nigerian"},
	},
	"beneficialOwners": []map[string]any{
		{"name": "Adebayo Oluwaseun Ogunleye", "percentage": 60},
		{"name": "Funmilayo Adeyemi", "percentage": 40},
	},
}

func (s *testServer) createKYB(tok string, body map[string]any) kybApp {
	s.t.Helper()
	return createApplication[kybApp](s, "/api/v1/kyc/kyb/applications", tok, body)
}

func (s *testServer) getKYB(tok, id string) kybApp {
	s.t.Helper()
	return getApplication[kybApp](s, "/api/v1/kyc/kyb/applications/"+id, tok)
}

func (s *testServer) kybStep(tok, id, step string, body any) envelope {
	s.t.Helper()
	return s.rest("POST", "/api/v1/kyc/kyb/applications/"+id+"/"+step, cred{Bearer: tok}, body)
}

// kybEvents returns the kyb.status_changed webhooks queued for the tenant, oldest first.
func (s *testServer) kybEvents(tenantID tenancy.TenantID) [][2]string {
	s.t.Helper()
	rows, err := s.admin().Query(context.Background(), `select payload from webhook_deliveries where tenant_id = $1 and event = 'kyb.status_changed'
		order by created_at, id`, string(tenantID))
	require.NoError(s.t, err)
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var raw []byte
		require.NoError(s.t, rows.Scan(&raw))
		var p struct {
			Data struct{ PreviousStatus, Status string }
		}
		require.NoError(s.t, json.Unmarshal(raw, &p))
		out = append(out, [2]string{p.Data.PreviousStatus, p.Data.Status})
	}
	return out
}

func TestKYBCreateListDetailPatch(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)

	a := s.createKYB(admin, lagosFresh)
	require.Regexp(t, `^kyb_[0-9a-f]{32}$`, a.ID)
	require.Equal(t, "PENDING", a.Status)
	require.Len(t, a.Directors, 2)
	require.Nil(t, a.RiskLevel)
	b := s.createKYB(admin, map[string]any{"companyName": "Kano Agro Commodities Limited"})
	require.Nil(t, b.RcNumber)

	for _, bad := range []map[string]any{
		{"rcNumber": "RC1"},
		{"companyName": "X", "rcNumber": "RC12AB"},
		{"companyName": "X", "incorporationDate": "2015-02-30"},
		{"companyName": "X", "directors": []map[string]any{{"bvn": "22234567801"}}},
		{"companyName": "X", "beneficialOwners": []map[string]any{{"name": "A", "percentage": 70}, {"name": "B", "percentage": 40}}},
	} {
		requireRESTError(t, s.rest("POST", "/api/v1/kyc/kyb/applications", cred{Bearer: admin}, bad), 400, "VALIDATION_ERROR")
	}
	requireRESTError(t, s.rest("POST", "/api/v1/kyc/kyb/applications", cred{Bearer: auditor}, lagosFresh), 403, "FORBIDDEN")

	var page struct {
		Items             []kybApp
		Total, TotalPages int
	}
	s.rest("GET", "/api/v1/kyc/kyb/applications?limit=1", cred{Bearer: auditor}, nil).decode(t, &page)
	require.Equal(t, 2, page.Total)
	require.Equal(t, b.ID, page.Items[0].ID, "newest first")
	s.rest("GET", "/api/v1/kyc/kyb/applications?status=APPROVED", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 0, page.Total)
	requireRESTError(t, s.rest("GET", "/api/v1/kyc/kyb/applications?status=NOPE", cred{Bearer: admin}, nil), 400, "VALIDATION_ERROR")

	env := s.rest("PATCH", "/api/v1/kyc/kyb/applications/"+b.ID, cred{Bearer: admin}, map[string]any{"rcNumber": "RC7654321",
		"businessActivity": "Agro commodities", "notes": "walk-in"})
	var pb kybApp
	env.decode(t, &pb)
	require.Equal(t, "RC7654321", *pb.RcNumber)

	// Another tenant: NOT_FOUND on every protocol.
	_, other := s.tenant()
	requireOwnTenantOnly(t, s, "/api/v1/kyc/kyb/applications/"+a.ID, admin, other,
		func(hc connect.HTTPClient, opts []connect.ClientOption) (*connect.Response[complydv1.KybApplication], error) {
			return complydv1connect.NewKybServiceClient(hc, s.URL, opts...).GetKybApplication(context.Background(),
				connect.NewRequest(&complydv1.GetKybApplicationRequest{Id: a.ID}))
		},
		func(m *complydv1.KybApplication) { require.Equal(t, "Lagos Fresh Foods Limited", m.CompanyName) })
}

func TestKYBHappyPathMilestonesAndDecisions(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	s.credit(f, "1000", "KYB-1")

	a := s.createKYB(analyst, lagosFresh)

	// verify-cac: found, active, same name → CAC_VERIFIED; charged.
	env := s.kybStep(analyst, a.ID, "verify-cac", map[string]any{"rcNumber": "RC1234567"})
	var cac struct {
		Found, Verified bool
		Confidence      float64
		NewStatus       string
		Charged         string
		Balance         string
		Company         struct {
			RcNumber, CompanyName, Address, RegistrationDate string
			Directors                                        []struct{ Name, Nationality, AppointmentDate string }
			BeneficialOwners                                 []struct {
				Name       string
				Percentage float64
			}
		}
	}
	env.decode(t, &cac)
	require.True(t, cac.Found)
	require.True(t, cac.Verified)
	require.InDelta(t, 1.0, cac.Confidence, 0.001)
	require.Equal(t, "CAC_VERIFIED", cac.NewStatus)
	require.Equal(t, "100.00", cac.Charged)
	require.Equal(t, "900.00", cac.Balance)
	require.Equal(t, "Lagos Fresh Foods Limited", cac.Company.CompanyName)
	require.Len(t, cac.Company.Directors, 2)
	require.Equal(t, 60.0, cac.Company.BeneficialOwners[0].Percentage)

	// verify-directors: both by BVN; the caller's verified:false is ignored.
	env = s.kybStep(analyst, a.ID, "verify-directors", map[string]any{"directors": []map[string]any{
		{"name": "Adebayo Oluwaseun Ogunleye", "bvn": "22234567801", "verified": false},
		{"name": "Funmilayo Adeyemi", "bvn": "22234567804"},
	}})
	var dirs struct {
		AllVerified bool
		NewStatus   string
		Charged     string
		Directors   []struct {
			Name, Charged string
			Bvn           *string
			Verified      bool
		}
	}
	env.decode(t, &dirs)
	require.True(t, dirs.AllVerified, "%s", env.Raw)
	require.Equal(t, "DIRECTORS_VERIFIED", dirs.NewStatus)
	require.Equal(t, "200.00", dirs.Charged)
	require.Equal(t, "22234567801", *dirs.Directors[0].Bvn)

	// screen-beneficial-owners: nobody listed → clean; the caller's clean:false/hits ignored.
	env = s.kybStep(analyst, a.ID, "screen-beneficial-owners", map[string]any{"beneficialOwners": []map[string]any{
		{"name": "Adebayo Oluwaseun Ogunleye", "clean": false, "hits": []any{map[string]any{"list": "made-up"}}},
		{"name": "Funmilayo Adeyemi", "clean": true},
	}})
	var owners struct {
		AllClean         bool
		NewStatus        string
		BeneficialOwners []struct {
			Name  string
			Clean bool
			Hits  []any
		}
	}
	env.decode(t, &owners)
	require.True(t, owners.AllClean)
	require.Empty(t, owners.BeneficialOwners[0].Hits)
	require.Equal(t, "BENEFICIAL_OWNERS_VERIFIED", owners.NewStatus)

	// run-screening: all three clean → SCREENING_PASSED (charges 1 CAC + 2 directors).
	env = s.kybStep(analyst, a.ID, "run-screening", map[string]any{})
	var run struct {
		Passed             bool
		NewStatus, Charged string
		Balance            string
	}
	env.decode(t, &run)
	require.True(t, run.Passed, "%s", env.Raw)
	require.Equal(t, "SCREENING_PASSED", run.NewStatus)
	require.Equal(t, "300.00", run.Charged)
	require.Equal(t, "400.00", run.Balance)

	// A later failing step never lowers the status.
	env = s.kybStep(analyst, a.ID, "verify-directors", map[string]any{"directors": []map[string]any{{"name": "Nobody Known"}}})
	env.decode(t, &dirs)
	require.False(t, dirs.AllVerified)
	require.Equal(t, "SCREENING_PASSED", dirs.NewStatus)

	d := s.getKYB(admin, a.ID)
	require.Equal(t, "SCREENING_PASSED", d.Status)
	require.NotEmpty(t, d.Checks)
	require.Equal(t, "CAC", d.Checks[0].CheckType)
	require.Equal(t, "100.00", d.Checks[0].Charged)

	// Approve is for officers only; then approve, and a second decision is 409 with {from,to,allowed}.
	requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/kyb/applications/"+a.ID+"/approve", cred{Bearer: analyst}, map[string]any{}), 403, "FORBIDDEN")
	env = s.rest("PATCH", "/api/v1/kyc/kyb/applications/"+a.ID+"/approve", cred{Bearer: admin}, map[string]any{})
	var dec struct {
		ID, Status, UpdatedAt string
		RiskLevel             *string
	}
	env.decode(t, &dec)
	require.Equal(t, "APPROVED", dec.Status)
	require.Equal(t, "LOW", *dec.RiskLevel)
	env = s.rest("PATCH", "/api/v1/kyc/kyb/applications/"+a.ID+"/reject", cred{Bearer: admin}, map[string]any{"reason": "late"})
	requireDecided(t, env, "APPROVED", "REJECTED")
	// Steps on a decided application are 409 before anything is charged.
	requireRESTError(t, s.kybStep(admin, a.ID, "verify-cac", map[string]any{"rcNumber": "RC1234567"}), 409, "INVALID_STATUS_TRANSITION")

	// Screening pipeline's stored KYB status by RC number (any spelling).
	st := applicationstore.NewKYBStore(s.DB)
	got, err := st.StoredKYB(context.Background(), f.ID, "rc 1234567")
	require.NoError(t, err)
	require.True(t, got.Found)
	require.Equal(t, "APPROVED", got.Status)
	got, err = st.StoredKYB(context.Background(), f.ID, "RC0000001")
	require.NoError(t, err)
	require.False(t, got.Found)

	// Audit and webhooks of every status change.
	var n int
	require.NoError(t, s.admin().QueryRow(context.Background(), `select count(*) from audit_events where tenant_id = $1 and action like 'kyb.%'`,
		string(f.ID)).Scan(&n))
	require.GreaterOrEqual(t, n, 8)
}

func TestKYBFailurePaths(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.credit(f, "2000", "KYB-F")

	// Company not found: charged, status kept, found false.
	a := s.createKYB(admin, map[string]any{"companyName": "Ghost Ventures Limited", "rcNumber": "RC1111111"})
	env := s.kybStep(admin, a.ID, "verify-cac", map[string]any{"rcNumber": "RC1111111"})
	var cac struct {
		Found, Verified bool
		Reason          *string
		NewStatus       string
		Charged         string
		Company         *struct{ CompanyName string }
	}
	env.decode(t, &cac)
	require.False(t, cac.Found)
	require.Nil(t, cac.Company)
	require.Equal(t, "NOT_FOUND", *cac.Reason)
	require.Equal(t, "PENDING", cac.NewStatus)
	require.Equal(t, "100.00", cac.Charged)
	// The body's RC number is the one looked up (issue 12 finding 7): one the registry does not
	// know leaves the application's own; one it knows is recorded on the application, audited,
	// and judged like any other (here another company's name: not verified, status kept).
	s.kybStep(admin, a.ID, "verify-cac", map[string]any{"rcNumber": "RC2222222"}).decode(t, &cac)
	require.False(t, cac.Found)
	require.Equal(t, "RC1111111", *s.getKYB(admin, a.ID).RcNumber)
	s.kybStep(admin, a.ID, "verify-cac", map[string]any{"rcNumber": "RC1234567"}).decode(t, &cac)
	require.True(t, cac.Found)
	require.False(t, cac.Verified)
	require.Equal(t, "PENDING", cac.NewStatus)
	require.Equal(t, "RC1234567", *s.getKYB(admin, a.ID).RcNumber)
	var changed bool
	require.NoError(t, s.admin().QueryRow(context.Background(), `select (after->>'rcNumberChanged')::bool from audit_events
		where resource_id = $1 and action = 'kyb.verified_cac' order by created_at desc limit 1`, a.ID).Scan(&changed))
	require.True(t, changed)
	// An outage is 503 (free); a struck-off company is found but not verified; a name that does
	// not match is not verified.
	o := s.createKYB(admin, map[string]any{"companyName": "Outage Co"})
	requireRESTError(t, s.kybStep(admin, o.ID, "verify-cac", map[string]any{"rcNumber": "RC9999999"}), 503, "PROVIDER_UNAVAILABLE")
	so := s.createKYB(admin, map[string]any{"companyName": "Delta Oilfield Services Limited"})
	s.kybStep(admin, so.ID, "verify-cac", map[string]any{"rcNumber": "RC8901234"}).decode(t, &cac)
	require.True(t, cac.Found)
	require.False(t, cac.Verified)
	require.Equal(t, "COMPANY_NOT_ACTIVE", *cac.Reason)
	require.Equal(t, "PENDING", cac.NewStatus)
	nm := s.createKYB(admin, map[string]any{"companyName": "Completely Different Holdings"})
	s.kybStep(admin, nm.ID, "verify-cac", map[string]any{"rcNumber": "RC7654321"}).decode(t, &cac)
	require.Equal(t, "NAME_MISMATCH", *cac.Reason)
	require.Equal(t, "PENDING", cac.NewStatus)

	var w struct{ Balance string }
	s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w)
	require.Equal(t, "1500.00", w.Balance, "five definite answers charged; the outage free")

	// A director unverified: wrong name for the BVN, one without any number, one unknown BVN.
	k := s.createKYB(admin, lagosFresh)
	env = s.kybStep(admin, k.ID, "verify-directors", map[string]any{"directors": []map[string]any{
		{"name": "Adebayo Oluwaseun Ogunleye", "bvn": "22234567801"},
		{"name": "Funmilayo Adeyemi", "bvn": "22234567802"},
		{"name": "No Number Person"},
		{"name": "Unknown Person", "nin": "70100000000"},
	}})
	var dirs struct {
		AllVerified bool
		NewStatus   string
		Charged     string
		Directors   []struct {
			Name     string
			Verified bool
			Reason   *string
		}
	}
	env.decode(t, &dirs)
	require.False(t, dirs.AllVerified)
	require.Equal(t, "PENDING", dirs.NewStatus)
	require.Equal(t, "300.00", dirs.Charged, "three numbers checked, the one without a number is free")
	require.True(t, dirs.Directors[0].Verified)
	require.Equal(t, "NAME_MISMATCH", *dirs.Directors[1].Reason)
	require.Equal(t, "NO_IDENTIFIER", *dirs.Directors[2].Reason)
	require.Equal(t, "NOT_FOUND", *dirs.Directors[3].Reason)
	requireRESTError(t, s.kybStep(admin, k.ID, "verify-directors", map[string]any{"directors": []any{}}), 400, "VALIDATION_ERROR")

	// An application director left out of the body counts as unverified.
	env = s.kybStep(admin, k.ID, "verify-directors", map[string]any{"directors": []map[string]any{
		{"name": "Adebayo Oluwaseun Ogunleye", "bvn": "22234567801"}}})
	env.decode(t, &dirs)
	require.False(t, dirs.AllVerified)
	require.Equal(t, "NOT_CHECKED", *dirs.Directors[1].Reason)

	// An owner on a sanctions list (a tenant watchlist entry in the shared matcher).
	s.App.Matcher.UpsertTenantEntry(f.ID, sanctions.Entry{ID: "wl-1", SourceID: "REF-9", List: "Bank blacklist",
		ListType: sanctions.ListTypeSanctions, EntityType: sanctions.EntityIndividual, Name: "Funmilayo Adeyemi"})
	env = s.kybStep(admin, k.ID, "screen-beneficial-owners", map[string]any{"beneficialOwners": []map[string]any{
		{"name": "Adebayo Oluwaseun Ogunleye", "clean": true}, {"name": "Funmilayo Adeyemi", "clean": true}}})
	var owners struct {
		AllClean         bool
		NewStatus        string
		BeneficialOwners []struct {
			Name  string
			Clean bool
			Hits  []struct {
				List, ListType, SourceID, Band string
				Score                          float64
			}
		}
	}
	env.decode(t, &owners)
	require.False(t, owners.AllClean)
	require.Equal(t, "PENDING", owners.NewStatus)
	require.True(t, owners.BeneficialOwners[0].Clean)
	require.False(t, owners.BeneficialOwners[1].Clean)
	require.Equal(t, "SANCTIONS", owners.BeneficialOwners[1].Hits[0].ListType)
	require.Equal(t, "REF-9", owners.BeneficialOwners[1].Hits[0].SourceID)
	require.Equal(t, "BLOCK", owners.BeneficialOwners[1].Hits[0].Band)

	// run-screening with the sanctioned owner: CAC and directors pass, the owner does not → no SCREENING_PASSED.
	env = s.kybStep(admin, k.ID, "run-screening", nil)
	var run struct {
		Passed    bool
		NewStatus string
		Cac       struct{ Verified bool }
		Directors struct{ AllVerified bool }
	}
	env.decode(t, &run)
	require.False(t, run.Passed)
	require.True(t, run.Cac.Verified)
	require.True(t, run.Directors.AllVerified)
	require.Equal(t, "DIRECTORS_VERIFIED", run.NewStatus)
	d := s.getKYB(admin, k.ID)
	require.False(t, *d.BeneficialOwners[1].Clean)

	// run-screening without an RC number is 400; with a short wallet it is 402 before any call.
	requireRESTError(t, s.kybStep(admin, s.createKYB(admin, map[string]any{"companyName": "No RC"}).ID, "run-screening", nil), 400, "VALIDATION_ERROR")
	g, poor := s.tenant()
	s.credit(g, "100", "ONE")
	p := s.createKYB(poor, lagosFresh)
	requireRESTError(t, s.kybStep(poor, p.ID, "run-screening", nil), 402, "INSUFFICIENT_FUNDS")
	s.rest("GET", "/api/v1/wallet", cred{Bearer: poor}, nil).decode(t, &w)
	require.Equal(t, "100.00", w.Balance)

	// Reject: reason required; notes carry it; HIGH by default.
	requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/kyb/applications/"+k.ID+"/reject", cred{Bearer: admin}, map[string]any{}), 400, "VALIDATION_ERROR")
	env = s.rest("PATCH", "/api/v1/kyc/kyb/applications/"+k.ID+"/reject", cred{Bearer: admin}, map[string]any{"reason": "sanctioned owner"})
	var dec struct {
		Status           string
		RiskLevel, Notes *string
	}
	env.decode(t, &dec)
	require.Equal(t, "REJECTED", dec.Status)
	require.Equal(t, "HIGH", *dec.RiskLevel)
	require.Equal(t, "sanctioned owner", *dec.Notes)
	requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/kyb/applications/"+k.ID, cred{Bearer: admin}, map[string]any{"tin": "1"}), 409, "INVALID_STATUS_TRANSITION")
}

func TestKYBDocumentsAndWebhooks(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	s.setWebhook(admin, "http://127.0.0.1:9/hook", "")
	a := s.createKYB(analyst, lagosFresh)

	env := s.uploadTo("/api/v1/kyc/kyb/applications/"+a.ID+"/documents", analyst, "CAC_CERTIFICATE", "cac.pdf", pdfBytes)
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	var doc struct{ ID, DocumentType, FileURL, MimeType string }
	env.decode(t, &doc)
	require.Equal(t, "application/pdf", doc.MimeType)
	require.Equal(t, "DOCUMENT_UPLOADED", s.getKYB(admin, a.ID).Status)

	var list struct{ Items []struct{ ID string } }
	s.rest("GET", "/api/v1/kyc/kyb/applications/"+a.ID+"/documents", cred{Bearer: analyst}, nil).decode(t, &list)
	require.Len(t, list.Items, 1)
	var dl struct{ URL string }
	s.rest("GET", "/api/v1/kyc/kyb/applications/"+a.ID+"/documents/"+doc.ID+"/download", cred{Bearer: analyst}, nil).decode(t, &dl)
	require.NotEmpty(t, dl.URL)
	requireRESTError(t, s.rest("DELETE", "/api/v1/kyc/kyb/applications/"+a.ID+"/documents/"+doc.ID, cred{Bearer: analyst}, nil), 403, "FORBIDDEN")
	env = s.rest("DELETE", "/api/v1/kyc/kyb/applications/"+a.ID+"/documents/"+doc.ID, cred{Bearer: admin}, nil)
	require.True(t, env.Success, "%s", env.Raw)
	require.Equal(t, "DOCUMENT_UPLOADED", s.getKYB(admin, a.ID).Status, "deleting never lowers the status")
	// A KYC document id is not a KYB document.
	requireRESTError(t, s.rest("GET", "/api/v1/kyc/kyb/applications/"+a.ID+"/documents/doc_x/download", cred{Bearer: admin}, nil), 404, "NOT_FOUND")

	s.rest("PATCH", "/api/v1/kyc/kyb/applications/"+a.ID+"/reject", cred{Bearer: admin}, map[string]any{"reason": "no"}).decode(t, &struct{}{})
	ev := s.kybEvents(f.ID)
	require.Equal(t, [][2]string{{"", "PENDING"}, {"PENDING", "DOCUMENT_UPLOADED"}, {"DOCUMENT_UPLOADED", "REJECTED"}}, ev)
}

// uploadTo posts a multipart document to path (a KYC or KYB application's documents); fields
// are written in order (documentType first, none when docType is "").
func (s *testServer) uploadTo(path, tok, docType, name string, content []byte) envelope {
	s.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if docType != "" {
		require.NoError(s.t, mw.WriteField("documentType", docType))
	}
	fw, err := mw.CreateFormFile("file", name)
	require.NoError(s.t, err)
	_, _ = fw.Write(content)
	require.NoError(s.t, mw.Close())
	req, err := http.NewRequest("POST", s.URL+path, &body)
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	cred{Bearer: tok}.apply(req.Header)
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var env envelope
	require.NoError(s.t, json.Unmarshal(raw, &env), "%s", raw)
	env.Status, env.Raw = res.StatusCode, raw
	return env
}
