package app

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
)

// TestKYCPersonalDataNotInAuditLog walks an application through create, edit, both
// verifications and approval, and then reads the stored rows as the database holds them: the
// immutable audit log keeps masked identifiers and the names of the changed fields, never a full
// BVN, NIN, email, phone or date of birth (docs/guide/kyc.md, NDPA 2023), and the application row
// keeps BVN and NIN sealed. The API still answers with the numbers (docs/reference/specification.md 2.5), and
// screening still finds the application by the sender's BVN.
func TestKYCPersonalDataNotInAuditLog(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)
	s.credit(f, "1000", "PAY")
	ctx := context.Background()

	const (
		email1, email2 = "adebayo.ogunleye@example.com", "a.ogunleye@mail.example.org"
		phone1, phone2 = "+2348031234567", "+2348097654321"
	)
	body := map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye",
		"bvn": adebayo["bvn"], "nin": adebayo["nin"], "email": email1, "phone": phone1, "dateOfBirth": "1985-03-14"}
	a := s.createKYC(admin, body)
	env := s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID, cred{Bearer: admin},
		map[string]any{"email": email2, "phone": phone2, "dateOfBirth": "1985-03-14"})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	var v verifyOut
	s.verify(admin, a.ID, "nin", ninBody(adebayo)).decode(t, &v)
	require.True(t, v.IsMatch)
	s.verify(admin, a.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
	require.Equal(t, "BVN_VERIFIED", v.NewStatus)
	env = s.rest("PATCH", "/api/v1/kyc/applications/"+a.ID+"/approve", cred{Bearer: admin}, map[string]any{})
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)

	secrets := []string{adebayo["bvn"].(string), adebayo["nin"].(string), email1, email2, phone1, phone2,
		"1985-03-14", "19850314", "2348031234567", "2348097654321"}

	// (a) The audit rows, as stored text.
	db := s.admin()
	rows, err := db.Query(ctx, `select action, coalesce(before::text, ''), coalesce(after::text, '') from audit_events
		where tenant_id = $1 and resource_id = $2 order by created_at, id`, string(f.ID), a.ID)
	require.NoError(t, err)
	actions := map[string]bool{}
	n := 0
	for rows.Next() {
		var action, before, after string
		require.NoError(t, rows.Scan(&action, &before, &after))
		actions[action] = true
		n++
		for _, sec := range secrets {
			require.NotContains(t, before, sec, "%s before", action)
			require.NotContains(t, after, sec, "%s after", action)
		}
	}
	require.NoError(t, rows.Err())
	require.Equal(t, 5, n, "created, updated, two verifications, approved")
	require.True(t, actions["kyc.created"] && actions["kyc.updated"] && actions["kyc.verified_bvn"] && actions["kyc.approved"])

	// What an auditor reads: masked identifiers, the changed fields by name, status before/after.
	var page struct {
		Items []struct {
			Action, ActorType string
			ActorID           *string
			ResourceID        *string
			Before, After     map[string]any
		}
	}
	s.rest("GET", "/api/v1/audit-events?limit=100", cred{Bearer: auditor}, nil).decode(t, &page)
	found := map[string]bool{}
	for _, e := range page.Items {
		if e.ResourceID == nil || *e.ResourceID != a.ID {
			continue
		}
		found[e.Action] = true
		require.NotNil(t, e.ActorID, e.Action)
		switch e.Action {
		case "kyc.created":
			require.Equal(t, "*******7801", e.After["bvn"])
			require.Equal(t, "*******6781", e.After["nin"])
			require.Equal(t, "PENDING", e.After["status"])
			require.NotContains(t, e.After, "dateOfBirth")
			require.Equal(t, true, e.After["hasDateOfBirth"])
		case "kyc.updated":
			// The date of birth was sent unchanged: only email and phone changed.
			require.ElementsMatch(t, []any{"email", "phone"}, e.After["changedFields"])
			require.NotEqual(t, e.Before["email"], e.After["email"], "the masks differ, so the change is visible")
			require.Equal(t, "PENDING", e.Before["status"])
		case "kyc.approved":
			require.Equal(t, "BVN_VERIFIED", e.Before["status"])
			require.Equal(t, "APPROVED", e.After["status"])
		}
	}
	require.True(t, found["kyc.created"] && found["kyc.updated"] && found["kyc.approved"], "%v", found)

	// (b) The application row holds no BVN or NIN in clear (every column, as text).
	var row string
	require.NoError(t, db.QueryRow(ctx, `select to_jsonb(a)::text from kyc_applications a where id = $1`, a.ID).Scan(&row))
	require.NotContains(t, row, adebayo["bvn"])
	require.NotContains(t, row, adebayo["nin"])

	// The API still returns the numbers to the tenant's users (docs/reference/specification.md 2.5).
	got := s.getKYC(auditor, a.ID)
	require.Equal(t, adebayo["bvn"], *got.Bvn)
	require.Equal(t, adebayo["nin"], *got.Nin)
	require.Equal(t, email2, *got.Email)

	// (c) Screening finds the stored application by the sender's BVN (STRICT mode: an approved
	// TIER_2 application scores 0 in the identity engine; none would be 100 BLOCK).
	b := screenBody(ext("pii"), newAccount(), 1000)
	b["senderBvn"] = adebayo["bvn"]
	out, env := s.screen(admin, b)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	idv := out.RiskBreakdown[2]
	require.Equal(t, 0, idv.Score, "%s", env.Raw)
	require.Equal(t, "APPROVE", idv.Outcome)
}
