package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity/identitytest"
	"github.com/complyd/complyd/internal/pgtest"
)

type reviewCase struct {
	ID                      string
	Type, Priority, Status  string
	Title, Description      string
	AssignedTo              *string `json:"assignedTo"`
	RelatedKycApplicationID *string `json:"relatedKycApplicationId"`
}

// reviewCases lists the tenant's KYC_REVIEW cases of application appID.
func (s *testServer) reviewCases(tok, appID string) []reviewCase {
	s.t.Helper()
	var page struct{ Items []reviewCase }
	s.rest("GET", "/api/v1/cases?type=KYC_REVIEW&limit=100", cred{Bearer: tok}, nil).decode(s.t, &page)
	var out []reviewCase
	for _, c := range page.Items {
		var d reviewCase
		s.rest("GET", "/api/v1/cases/"+c.ID, cred{Bearer: tok}, nil).decode(s.t, &d)
		if d.RelatedKycApplicationID != nil && *d.RelatedKycApplicationID == appID {
			out = append(out, d)
		}
	}
	return out
}

// caseCreatedWebhooks returns the case ids of the case.created webhooks queued for the tenant.
func (s *testServer) caseCreatedWebhooks(f pgtest.TenantFixture) []string {
	s.t.Helper()
	rows, err := s.admin().Query(context.Background(), `select payload from webhook_deliveries where tenant_id = $1 and event = 'case.created'`, string(f.ID))
	require.NoError(s.t, err)
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var raw []byte
		require.NoError(s.t, rows.Scan(&raw))
		var p struct{ Data map[string]any }
		require.NoError(s.t, json.Unmarshal(raw, &p))
		id, _ := p.Data["id"].(string)
		if id == "" {
			id, _ = p.Data["caseId"].(string)
		}
		ids = append(ids, id)
	}
	require.NoError(s.t, rows.Err())
	return ids
}

func (s *testServer) reviewTenant() (pgtest.TenantFixture, string) {
	s.t.Helper()
	f, admin := s.tenant()
	s.credit(f, "5000", "review-cases")
	env := s.rest("PATCH", "/api/v1/tenants/me/webhooks", cred{Bearer: admin},
		map[string]any{"webhookUrl": "http://127.0.0.1:9/hook", "webhookSecret": "s3cret-s3cret"})
	require.Equal(s.t, http.StatusOK, env.Status, "%s", env.Raw)
	return f, admin
}

// TestKYCFailedLivenessOpensReviewCase: a liveness check that fails opens one automatic
// KYC_REVIEW case linked to the application (OPEN, unassigned, HIGH), with its case.created
// webhook; a second failure while that case is open opens no other.
func TestKYCFailedLivenessOpensReviewCase(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.reviewTenant()
	img := identitytest.LoadImages(t)
	twoJPEG := base64.StdEncoding.EncodeToString(identitytest.JPEG(t, img.TwoFaces))
	onePNG := base64.StdEncoding.EncodeToString(identitytest.PNG(t, img.OneFace))

	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye", "dateOfBirth": "1985-03-14"})
	path := "/api/v1/kyc/applications/" + a.ID + "/liveness-check"
	// A passing check opens nothing.
	env := s.rest("POST", path, cred{Bearer: admin}, map[string]any{"selfieImageBase64": onePNG})
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	require.Empty(t, s.reviewCases(admin, a.ID))

	b := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Bola", "lastName": "Ade"})
	path = "/api/v1/kyc/applications/" + b.ID + "/liveness-check"
	var o struct{ IsLive bool }
	s.rest("POST", path, cred{Bearer: admin}, map[string]any{"selfieImageBase64": twoJPEG}).decode(t, &o)
	require.False(t, o.IsLive)
	cs := s.reviewCases(admin, b.ID)
	require.Len(t, cs, 1)
	require.Equal(t, "OPEN", cs[0].Status)
	require.Equal(t, "HIGH", cs[0].Priority)
	require.Nil(t, cs[0].AssignedTo, "automatic cases start unassigned, like screening's")
	require.Contains(t, cs[0].Description, "MULTIPLE_FACES")
	require.Contains(t, s.caseCreatedWebhooks(f), cs[0].ID)

	s.rest("POST", path, cred{Bearer: admin}, map[string]any{"selfieImageBase64": twoJPEG}).decode(t, &o)
	require.Len(t, s.reviewCases(admin, b.ID), 1, "one open review per application")
}

// TestKYCBVNMismatchOpensReviewCase: a BVN that does not match the applicant opens a MEDIUM
// KYC_REVIEW case with its webhook; a matching NIN on another application opens none.
func TestKYCBVNMismatchOpensReviewCase(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.reviewTenant()

	ok := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye", "dateOfBirth": "1985-03-14"})
	env := s.verify(admin, ok.ID, "nin", ninBody(adebayo))
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	require.Empty(t, s.reviewCases(admin, ok.ID))

	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Chidi", "lastName": "Okeke", "dateOfBirth": "1990-01-01"})
	body := bvnBody(adebayo)
	body["firstName"], body["lastName"], body["dateOfBirth"] = "Chidi", "Okeke", "1990-01-01"
	var out verifyOut
	s.verify(admin, a.ID, "bvn", body).decode(t, &out)
	require.False(t, out.IsMatch)
	require.Equal(t, "PENDING", out.NewStatus)
	cs := s.reviewCases(admin, a.ID)
	require.Len(t, cs, 1)
	require.Equal(t, "MEDIUM", cs[0].Priority)
	require.Contains(t, cs[0].Description, "BVN")
	require.Contains(t, s.caseCreatedWebhooks(f), cs[0].ID)
}

// TestKYBDirectorWatchlistHitOpensReviewCase: a director whose name is on the tenant's
// watchlist opens a HIGH KYC_REVIEW case linked to the KYB application, with its webhook; clean
// directors open none.
func TestKYBDirectorWatchlistHitOpensReviewCase(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.reviewTenant()
	env := s.rest("POST", "/api/v1/watchlists", cred{Bearer: admin}, map[string]any{"name": "Blocked people", "type": "INTERNAL"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	var wl struct{ ID string }
	env.decode(t, &wl)
	env = s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: admin},
		map[string]any{"name": "Oluwaseun Babatunde Adeyemi", "entityType": "INDIVIDUAL", "reference": "CUST-0042"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)

	clean := s.createKYB(admin, map[string]any{"companyName": "Clean Co Ltd", "directors": []map[string]any{{"name": "Ngozi Eze"}}})
	env = s.kybStep(admin, clean.ID, "verify-directors", map[string]any{"directors": []map[string]any{{"name": "Ngozi Eze"}}})
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	require.Empty(t, s.reviewCases(admin, clean.ID))

	a := s.createKYB(admin, map[string]any{"companyName": "Risky Co Ltd", "directors": []map[string]any{{"name": "Oluwaseun Babatunde Adeyemi"}}})
	env = s.kybStep(admin, a.ID, "verify-directors", map[string]any{"directors": []map[string]any{{"name": "Oluwaseun Babatunde Adeyemi"}}})
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	cs := s.reviewCases(admin, a.ID)
	require.Len(t, cs, 1)
	require.Equal(t, "HIGH", cs[0].Priority)
	require.Equal(t, "OPEN", cs[0].Status)
	require.Contains(t, cs[0].Description, "watchlist hit")
	require.Contains(t, cs[0].Description, "CUST-0042")
	require.Contains(t, s.caseCreatedWebhooks(f), cs[0].ID)
}

// TestKYCWatchlistHitOpensReviewCase: an applicant whose verified name is on the tenant's
// watchlist opens a HIGH KYC_REVIEW case when the BVN ties the application to that identity; the
// verification itself stands. Before, individual KYC was never screened and no case opened.
func TestKYCWatchlistHitOpensReviewCase(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.reviewTenant()

	// Not yet listed: a verified applicant opens no case.
	clean := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye", "dateOfBirth": "1985-03-14"})
	var out verifyOut
	s.verify(admin, clean.ID, "bvn", bvnBody(adebayo)).decode(t, &out)
	require.True(t, out.IsMatch)
	require.Empty(t, s.reviewCases(admin, clean.ID))

	env := s.rest("POST", "/api/v1/watchlists", cred{Bearer: admin}, map[string]any{"name": "Local PEPs", "type": "PEP"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	var wl struct{ ID string }
	env.decode(t, &wl)
	env = s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: admin},
		map[string]any{"name": "Adebayo Ogunleye", "entityType": "INDIVIDUAL", "reference": "PEP-0007"})
	require.Equal(t, 201, env.Status, "%s", env.Raw)

	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye", "dateOfBirth": "1985-03-14"})
	s.verify(admin, a.ID, "bvn", bvnBody(adebayo)).decode(t, &out)
	require.True(t, out.IsMatch, "a watchlist hit does not undo the verification")
	cs := s.reviewCases(admin, a.ID)
	require.Len(t, cs, 1)
	require.Equal(t, "HIGH", cs[0].Priority)
	require.Equal(t, "OPEN", cs[0].Status)
	require.Contains(t, cs[0].Description, "watchlist hit")
	require.Contains(t, cs[0].Description, "PEP-0007")
	require.Contains(t, s.caseCreatedWebhooks(f), cs[0].ID)
}
