package app

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

type kycApp struct {
	ID, Status, Tier    string
	Bvn, Nin, Email     *string
	DateOfBirth         *string
	RiskLevel, Notes    *string
	BvnVerified         bool
	NinVerified         bool
	VerificationResults []struct {
		IdentityType, Provider, ProviderSource string
		IsMatch                                bool
		Confidence                             float64
		ErrorMessage                           *string
		Charged                                string
	}
	Documents []struct {
		ID, DocumentType, FileName, FileURL, MimeType string
		FileSizeBytes                                 int
	} `json:"documents"`
}

type verifyOut struct {
	IsMatch                             bool
	Confidence                          float64
	Provider, ProviderSource, NewStatus string
	Found                               bool
	Tier, Charged, Balance              string
}

// Registry people (internal/identity/sandbox_registry.json).
var adebayo = map[string]any{"bvn": "22234567801", "nin": "70123456781", "firstName": "Adebayo", "lastName": "Ogunleye", "dateOfBirth": "1985-03-14"}

func (s *testServer) createKYC(tok string, body map[string]any) kycApp {
	s.t.Helper()
	return createApplication[kycApp](s, "/api/v1/kyc/applications", tok, body)
}

func (s *testServer) getKYC(tok, id string) kycApp {
	s.t.Helper()
	return getApplication[kycApp](s, "/api/v1/kyc/applications/"+id, tok)
}

// requireDecided checks the refusal of a step on a decided KYC or KYB application: 409
// INVALID_STATUS_TRANSITION with the data from, to and no allowed status.
func requireDecided(t *testing.T, env envelope, from, to string) {
	t.Helper()
	requireRESTError(t, env, 409, "INVALID_STATUS_TRANSITION")
	var data struct {
		From, To string
		Allowed  []string
	}
	require.NoError(t, json.Unmarshal(env.Error.Data, &data))
	require.Equal(t, from, data.From)
	require.Equal(t, to, data.To)
	require.Empty(t, data.Allowed)
}

// createApplication posts a KYC or KYB create body to path and decodes the 201's application.
func createApplication[A any](s *testServer, path, tok string, body map[string]any) A {
	s.t.Helper()
	env := s.rest("POST", path, cred{Bearer: tok}, body)
	require.Equal(s.t, 201, env.Status, "%s", env.Raw)
	var a A
	env.decode(s.t, &a)
	return a
}

// getApplication reads a KYC or KYB application at path.
func getApplication[A any](s *testServer, path, tok string) A {
	s.t.Helper()
	var a A
	s.rest("GET", path, cred{Bearer: tok}, nil).decode(s.t, &a)
	return a
}

func (s *testServer) verify(tok, id, kind string, body map[string]any) envelope {
	s.t.Helper()
	return s.rest("POST", "/api/v1/kyc/applications/"+id+"/verify-"+kind, cred{Bearer: tok}, body)
}

func bvnBody(p map[string]any) map[string]any {
	return map[string]any{"bvn": p["bvn"], "firstName": p["firstName"], "lastName": p["lastName"], "dateOfBirth": p["dateOfBirth"]}
}

func ninBody(p map[string]any) map[string]any {
	return map[string]any{"nin": p["nin"], "firstName": p["firstName"], "lastName": p["lastName"], "dateOfBirth": p["dateOfBirth"]}
}

func TestKYCCreateListDetail(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.tenant()

	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ada", "lastName": "Obi"})
	require.Equal(t, "PENDING", a.Status)
	require.Equal(t, "TIER_1", a.Tier)
	require.Nil(t, a.Bvn)
	require.Regexp(t, `^kyc_[0-9a-f]{32}$`, a.ID)

	b := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ada", "lastName": "Obi",
		"bvn": "22234567801", "nin": "70123456781", "dateOfBirth": "1985-03-14", "email": "ada@example.com"})
	require.Equal(t, "TIER_2", b.Tier, "both BVN and NIN at creation")
	require.Equal(t, "1985-03-14T00:00:00Z", *b.DateOfBirth)

	for _, bad := range []map[string]any{
		{"entityType": "INDIVIDUAL", "firstName": "A"},
		{"entityType": "ROBOT", "firstName": "A", "lastName": "B"},
		{"entityType": "INDIVIDUAL", "firstName": "A", "lastName": "B", "bvn": "123"},
		{"entityType": "INDIVIDUAL", "firstName": "A", "lastName": "B", "dateOfBirth": "1990-02-30"},
	} {
		requireRESTError(t, s.rest("POST", "/api/v1/kyc/applications", cred{Bearer: admin}, bad), 400, "VALIDATION_ERROR")
	}

	env := s.rest("GET", "/api/v1/kyc/applications?limit=1", cred{Bearer: admin}, nil)
	var page struct {
		Items                    []kycApp
		Total, Limit, TotalPages int
	}
	env.decode(t, &page)
	require.Equal(t, 2, page.Total)
	require.Equal(t, 2, page.TotalPages)
	require.Equal(t, b.ID, page.Items[0].ID, "newest first")
	s.rest("GET", "/api/v1/kyc/applications?status=APPROVED", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 0, page.Total)
	requireRESTError(t, s.rest("GET", "/api/v1/kyc/applications?page=0", cred{Bearer: admin}, nil), 400, "VALIDATION_ERROR")

	d := s.getKYC(admin, b.ID)
	require.Empty(t, d.VerificationResults)
	require.NotNil(t, d.Documents)

	// Another tenant's application is NOT_FOUND on every protocol.
	_, other := s.tenant()
	requireOwnTenantOnly(t, s, "/api/v1/kyc/applications/"+b.ID, admin, other,
		func(hc connect.HTTPClient, opts []connect.ClientOption) (*connect.Response[complydv1.KycApplication], error) {
			return complydv1connect.NewKycServiceClient(hc, s.URL, opts...).GetApplication(context.Background(),
				connect.NewRequest(&complydv1.GetApplicationRequest{Id: b.ID}))
		},
		func(m *complydv1.KycApplication) { require.Equal(t, "TIER_2", m.Tier) })
}

// requireOwnTenantOnly checks an application detail on every protocol, KYC or KYB alike: for a
// caller of another tenant (other) it is NOT_FOUND over REST (GET path), Connect and gRPC (get,
// with the protocol's client and options), with the NOT_FOUND error detail; for a caller of
// the owner's tenant (owner) get answers the application, which check asserts.
func requireOwnTenantOnly[M any](t *testing.T, s *testServer, path, owner, other string,
	get func(hc connect.HTTPClient, opts []connect.ClientOption) (*connect.Response[M], error), check func(*M)) {
	t.Helper()
	requireRESTError(t, s.rest("GET", path, cred{Bearer: other}, nil), 404, "NOT_FOUND")
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: other})
		_, err := get(hc, opts)
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeNotFound, code, proto)
		require.Equal(t, "NOT_FOUND", info.Code, proto)
		hc, opts = s.clientOpts(proto, cred{Bearer: owner})
		res, err := get(hc, opts)
		require.NoError(t, err, proto)
		check(res.Msg)
	}
}

func TestKYCEditing(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.tenant()
	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ada", "lastName": "Obi", "nin": "70123456781",
		"email": "a@example.com"})
	patch := func(body map[string]any) envelope {
		return s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID, cred{Bearer: admin}, body)
	}
	var got kycApp
	patch(map[string]any{"bvn": "22234567801"}).decode(t, &got)
	require.Equal(t, "22234567801", *got.Bvn)
	require.Equal(t, "TIER_2", got.Tier, "BVN and NIN both present: TIER_2 (rule 4)")
	patch(map[string]any{"email": ""}).decode(t, &got)
	require.Nil(t, got.Email, "an empty string clears")
	patch(map[string]any{"dateOfBirth": "1985-03-14", "phone": "+2348031234501"}).decode(t, &got)
	require.Equal(t, "1985-03-14T00:00:00Z", *got.DateOfBirth)
	patch(map[string]any{"dateOfBirth": ""}).decode(t, &got)
	require.Nil(t, got.DateOfBirth)
	for _, bad := range []map[string]any{{"nin": "123"}, {"bvn": "1234567890a"}, {"dateOfBirth": "1985-13-01"}, {"dateOfBirth": "yesterday"}, {"email": "nope"}} {
		requireRESTError(t, patch(bad), 400, "VALIDATION_ERROR")
	}
	require.Equal(t, "TIER_2", got.Tier, "clearing never lowers the tier")

	// Not editable in LIVENESS_PASSED and terminal states.
	s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/approve", cred{Bearer: admin}, map[string]any{}).decode(t, &got)
	env := patch(map[string]any{"bvn": "22234567802"})
	requireRESTError(t, env, 409, "INVALID_STATUS_TRANSITION")
}

func TestKYCDecisionsAndRoles(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, officer := s.userWithRole(f.ID, auth.RoleComplianceOfficer)
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)

	// Analysts create; auditors only read.
	a := s.createKYC(analyst, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ada", "lastName": "Obi"})
	requireRESTError(t, s.rest("POST", "/api/v1/kyc/applications", cred{Bearer: auditor},
		map[string]any{"entityType": "INDIVIDUAL", "firstName": "A", "lastName": "B"}), 403, "FORBIDDEN")
	s.getKYC(auditor, a.ID)

	for _, tok := range []string{analyst, auditor} {
		requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/approve", cred{Bearer: tok}, map[string]any{}), 403, "FORBIDDEN")
		requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/reject", cred{Bearer: tok}, map[string]any{"reason": "x"}), 403, "FORBIDDEN")
	}
	requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/reject", cred{Bearer: officer}, map[string]any{}), 400, "VALIDATION_ERROR")

	var d struct {
		ID, Status, Tier string
		RiskLevel, Notes *string
		UpdatedAt        string
	}
	s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/reject", cred{Bearer: officer}, map[string]any{"reason": "forged passport"}).decode(t, &d)
	require.Equal(t, "REJECTED", d.Status)
	require.Equal(t, "HIGH", *d.RiskLevel)
	require.Equal(t, "forged passport", *d.Notes)
	env := s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/approve", cred{Bearer: admin}, map[string]any{})
	requireDecided(t, env, "REJECTED", "APPROVED")

	// Approve and reject act from every non-terminal state; each terminal state refuses both.
	b := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ada", "lastName": "Obi"})
	s.rest("PATCH", "/api/v1/kyc/applications/"+b.ID+"/approve", cred{Bearer: officer}, map[string]any{"riskLevel": "MEDIUM", "notes": "ok"}).decode(t, &d)
	require.Equal(t, "APPROVED", d.Status)
	require.Equal(t, "MEDIUM", *d.RiskLevel)
	for _, path := range []string{"approve", "reject"} {
		requireRESTError(t, s.rest("PATCH", "/api/v1/kyc/applications/"+b.ID+"/"+path, cred{Bearer: admin}, map[string]any{"reason": "r"}), 409, "INVALID_STATUS_TRANSITION")
	}

	// Connect and gRPC map roles the same way.
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: analyst})
		c := complydv1connect.NewKycServiceClient(hc, s.URL, opts...)
		_, err := c.ApproveApplication(context.Background(), connect.NewRequest(&complydv1.ApproveApplicationRequest{Id: a.ID}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodePermissionDenied, code)
		require.Equal(t, "FORBIDDEN", info.Code)
	}
}

func TestKYCVerifyAndWallet(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye"})

	// No balance: 402 before any provider is asked; nothing stored.
	requireRESTError(t, s.verify(admin, a.ID, "nin", ninBody(adebayo)), 402, "INSUFFICIENT_FUNDS")
	require.Empty(t, s.getKYC(admin, a.ID).VerificationResults)

	s.credit(f, "300", "PAY-1")
	// Outage (sandbox outage number): 503, not charged.
	out := map[string]any{"nin": "70099999999", "firstName": "A", "lastName": "B", "dateOfBirth": "1990-01-01"}
	requireRESTError(t, s.verify(admin, a.ID, "nin", out), 503, "PROVIDER_UNAVAILABLE")
	var w struct{ Balance, Held string }
	s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w)
	require.Equal(t, "300.00", w.Balance)
	require.Equal(t, "0.00", w.Held)

	// A mismatch is charged, stored, and keeps the status.
	var v verifyOut
	bad := ninBody(adebayo)
	bad["dateOfBirth"] = "1985-03-15"
	s.verify(admin, a.ID, "nin", bad).decode(t, &v)
	require.False(t, v.IsMatch)
	require.True(t, v.Found)
	require.Equal(t, "PENDING", v.NewStatus)
	require.Equal(t, "100.00", v.Charged)
	require.Equal(t, "200.00", v.Balance)

	// A match moves to NIN_VERIFIED and TIER_1 (rule 1), provider sandbox/EMBEDDED.
	s.verify(admin, a.ID, "nin", ninBody(adebayo)).decode(t, &v)
	require.True(t, v.IsMatch)
	require.GreaterOrEqual(t, v.Confidence, 0.8)
	require.Equal(t, "SANDBOX", v.Provider)
	require.Equal(t, "EMBEDDED", v.ProviderSource)
	require.Equal(t, "NIN_VERIFIED", v.NewStatus)
	require.Equal(t, "TIER_1", v.Tier)

	// BVN: BVN_VERIFIED, and with both numbers present TIER_2 (rule 4).
	s.verify(admin, a.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
	require.Equal(t, "BVN_VERIFIED", v.NewStatus)
	require.Equal(t, "TIER_2", v.Tier)
	require.Equal(t, "0.00", v.Balance)

	// A NIN re-check never lowers BVN_VERIFIED; with no balance left it is 402 anyway.
	requireRESTError(t, s.verify(admin, a.ID, "nin", ninBody(adebayo)), 402, "INSUFFICIENT_FUNDS")
	s.credit(f, "100", "PAY-2")
	s.verify(admin, a.ID, "nin", ninBody(adebayo)).decode(t, &v)
	require.Equal(t, "BVN_VERIFIED", v.NewStatus, "never lowered")

	d := s.getKYC(admin, a.ID)
	require.Len(t, d.VerificationResults, 4, "outage stored nothing; mismatch and matches are kept")
	require.Equal(t, "NIN", d.VerificationResults[0].IdentityType)
	require.False(t, d.VerificationResults[0].IsMatch)
	require.NotNil(t, d.VerificationResults[0].ErrorMessage)
	require.True(t, d.BvnVerified && d.NinVerified)

	// The ledger: two credits and four charges; it sums to the balance.
	var page struct {
		Items []struct{ Type, Amount string }
		Total int
	}
	s.rest("GET", "/api/v1/wallet/transactions", cred{Bearer: admin}, nil).decode(t, &page)
	require.Equal(t, 6, page.Total)
	sum := 0.0
	for _, it := range page.Items {
		var x float64
		fmt.Sscan(it.Amount, &x)
		sum += x
	}
	require.InDelta(t, 0, sum, 0.001)

	// A number differing from the application's is refused before anything is charged.
	requireRESTError(t, s.verify(admin, a.ID, "bvn", map[string]any{"bvn": "22234567802", "firstName": "A", "lastName": "B",
		"dateOfBirth": "1990-07-22"}), 400, "VALIDATION_ERROR")

	// Terminal application: 409, nothing charged.
	s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/approve", cred{Bearer: admin}, map[string]any{})
	s.credit(f, "100", "PAY-3")
	requireRESTError(t, s.verify(admin, a.ID, "bvn", bvnBody(adebayo)), 409, "INVALID_STATUS_TRANSITION")
	s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w)
	require.Equal(t, "100.00", w.Balance)
}

// TestKYCTierOneToTwoUpgrade walks spec 3.2's last row: APPROVED at TIER_1 with a verified NIN,
// a BVN provided → NIN_VERIFIED at TIER_2 (NIN kept), verify-bvn → BVN_VERIFIED, approve.
func TestKYCTierOneToTwoUpgrade(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.credit(f, "1000", "PAY")
	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye", "nin": "70123456781"})
	var v verifyOut
	s.verify(admin, a.ID, "nin", ninBody(adebayo)).decode(t, &v)
	require.Equal(t, "TIER_1", v.Tier)
	up := func() envelope {
		return s.rest("POST", "/api/v1/kyc/applications/"+a.ID+"/upgrade-tier", cred{Bearer: admin}, map[string]any{"bvn": "22234567801"})
	}
	requireRESTError(t, up(), 409, "INVALID_STATUS_TRANSITION")
	s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/approve", cred{Bearer: admin}, map[string]any{})
	var got kycApp
	up().decode(t, &got)
	require.Equal(t, "NIN_VERIFIED", got.Status)
	require.Equal(t, "TIER_2", got.Tier)
	require.True(t, got.NinVerified, "the verified NIN is kept")
	require.False(t, got.BvnVerified)
	s.verify(admin, a.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
	require.Equal(t, "BVN_VERIFIED", v.NewStatus)
	var d struct{ Status, Tier string }
	s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/approve", cred{Bearer: admin}, map[string]any{}).decode(t, &d)
	require.Equal(t, "APPROVED", d.Status)
	require.Equal(t, "TIER_2", d.Tier)
	requireRESTError(t, up(), 409, "INVALID_STATUS_TRANSITION")
}
