package app

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestScreeningBeneficialOwners: a business transfer whose sender's KYB application names a
// beneficial owner on the tenant's sanctions list is blocked by the sanctions rule, with the
// owner named as the party, in STRICT mode and in HYBRID (where the payload's senderKybStatus
// still gives the status); the owner written with lookalike letters (a Cyrillic і, a
// zero-width space) is caught the same way, the one normalisation of every screened name.
// The owner's reviewed false positive under the BVN the application gives clears the alert.
// Before, the owners were screened only in the KYB flow, never at transaction time.
func TestScreeningBeneficialOwners(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	var wl, entry struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", cred{Bearer: admin}, map[string]any{"name": "Owners blacklist", "type": "SANCTIONS"}).decode(t, &wl)
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: admin}, map[string]any{"name": "Babatunde Olamide Fashola",
		"entityType": "INDIVIDUAL", "reference": "OB-1"}).decode(t, &entry)
	require.NotEmpty(t, entry.ID)

	newKYB := func(rc, owner string) {
		env := s.rest("POST", "/api/v1/kyc/kyb/applications", cred{Bearer: admin}, map[string]any{"companyName": "Lekki Freight Ltd",
			"rcNumber": rc, "beneficialOwners": []map[string]any{{"name": "Ngozi Eze", "percentage": 40},
				{"name": owner, "percentage": 60, "bvn": "22299988877"}}})
		require.Equal(t, 201, env.Status, "%s", env.Raw)
	}
	business := func(rc string, extra map[string]any) map[string]any {
		b := screenBody(ext("bo"), "0123456789", 10_000)
		b["senderName"], b["receiverName"] = "Lekki Freight Ltd", "Chidi Okeke"
		b["metadata"] = map[string]any{"entityType": "BUSINESS", "senderRcNumber": rc}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	ownerRule := func(out screenOut) string {
		for _, r := range out.TriggeredRules {
			if r.Category == "Global Sanctions Screening" {
				return r.Details
			}
		}
		return ""
	}

	newKYB("RC 810001", "Babatunde Olamide Fashola")
	out, env := s.screen(admin, business("RC810001", nil))
	require.True(t, env.Success, "%s", env.Raw)
	require.Equal(t, "BLOCK", out.Outcome, "%s", env.Raw)
	require.Contains(t, ownerRule(out), "Beneficial owner name \"Babatunde Olamide Fashola\"")
	require.Contains(t, ownerRule(out), entry.ID)

	// Lookalike letters in the stored owner's name: caught all the same.
	newKYB("RC 810002", "Babatunde Olam\u0456de Fa\u200bshola")
	out, env = s.screen(admin, business("RC810002", nil))
	require.True(t, env.Success, "%s", env.Raw)
	require.Contains(t, ownerRule(out), "Beneficial owner name", "%s", env.Raw)
	require.Contains(t, ownerRule(out), entry.ID)

	// An owner that matches nothing: the sanctions engine has nothing to say.
	newKYB("RC 810003", "Adaeze Nwosu")
	out, env = s.screen(admin, business("RC810003", nil))
	require.True(t, env.Success, "%s", env.Raw)
	require.Empty(t, ownerRule(out), "%s", env.Raw)

	// HYBRID with the status in the payload: the record is still read for its owners.
	env = s.rest("PATCH", "/api/v1/tenants/me/kyc-config", cred{Bearer: admin}, map[string]any{"kycTrustMode": "HYBRID"})
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	out, env = s.screen(admin, business("RC810001", map[string]any{"senderKybStatus": "VERIFIED"}))
	require.True(t, env.Success, "%s", env.Raw)
	require.Contains(t, ownerRule(out), "Beneficial owner name", "%s", env.Raw)

	// A reviewed false positive of the owner (keyed by the owner's BVN) clears the alert.
	env = s.rest("POST", "/api/v1/sanctions/false-positives", cred{Bearer: admin}, map[string]any{"subjectKey": "22299988877",
		"entryId": entry.ID, "reason": "a namesake, verified by the relationship manager"})
	require.Less(t, env.Status, 300, "%s", env.Raw)
	out, env = s.screen(admin, business("RC810001", map[string]any{"senderKybStatus": "VERIFIED"}))
	require.True(t, env.Success, "%s", env.Raw)
	require.Empty(t, ownerRule(out), "%s", env.Raw)
}
