package app

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// identityOutcome returns the Identity Verification breakdown's outcome.
func (o screenOut) identityOutcome() string {
	for _, b := range o.RiskBreakdown {
		if b.Category == "Identity Verification" {
			return b.Outcome
		}
	}
	return ""
}

// TestScreeningReadsKYBApplications: in STRICT mode a business sender is scored from its KYB
// application, found by metadata.senderRcNumber (spec 3.4: only APPROVED passes).
func TestScreeningReadsKYBApplications(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	var kyb struct{ ID string }
	s.rest("POST", "/api/v1/kyc/kyb/applications", cred{Bearer: admin}, map[string]any{"companyName": "Kano Agro Ltd",
		"rcNumber": "RC 765432"}).decode(t, &kyb)

	business := func() map[string]any {
		b := screenBody(ext("kyb"), "0123456789", 10_000)
		b["metadata"] = map[string]any{"entityType": "BUSINESS", "senderRcNumber": "RC765432"}
		return b
	}
	out, env := s.screen(admin, business())
	require.True(t, env.Success, "%s", env.Raw)
	require.Equal(t, "BLOCK", out.identityOutcome(), "a PENDING KYB application blocks")

	_, err := s.admin().Exec(context.Background(), "update kyb_applications set status = 'APPROVED' where id = $1", kyb.ID)
	require.NoError(t, err)
	out, env = s.screen(admin, business())
	require.True(t, env.Success, "%s", env.Raw)
	require.Equal(t, "APPROVE", out.identityOutcome(), "an APPROVED KYB application passes")

	b := business()
	b["metadata"] = map[string]any{"entityType": "BUSINESS", "senderRcNumber": "RC000001"}
	out, _ = s.screen(admin, b)
	require.Equal(t, "BLOCK", out.identityOutcome(), "no KYB record is NONE: 100/BLOCK")
}

// TestScreeningSanctionsExplanationAndReviewedFalsePositive: a receiver on a tenant list is
// flagged with the matcher's explanation in triggeredRules.details; once an officer records the
// (customer, entry) pair as a reviewed false positive under the customer's BVN, the same
// customer no longer alerts on that entry, and revoking the review brings the alert back.
func TestScreeningSanctionsExplanationAndReviewedFalsePositive(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	var wl, entry struct{ ID string }
	s.rest("POST", "/api/v1/watchlists", cred{Bearer: admin}, map[string]any{"name": "Local blacklist", "type": "SANCTIONS"}).decode(t, &wl)
	s.rest("POST", "/api/v1/watchlists/"+wl.ID+"/entries", cred{Bearer: admin}, map[string]any{"name": "Ada Obi",
		"entityType": "INDIVIDUAL", "reference": "LB-1"}).decode(t, &entry)

	screenOnce := func() screenOut {
		out, env := s.screen(admin, screenBody(ext("fp"), "0123456789", 5_000))
		require.True(t, env.Success, "%s", env.Raw)
		return out
	}
	out := screenOnce()
	require.Equal(t, "BLOCK", out.Outcome)
	var details string
	for _, r := range out.TriggeredRules {
		if r.Category == "Global Sanctions Screening" {
			details = r.Details
		}
	}
	require.Contains(t, details, entry.ID)
	require.Contains(t, details, "LB-1")
	require.True(t, strings.Contains(details, "exact") || strings.Contains(details, "matched"), details)

	var fp struct{ ID string }
	env := s.rest("POST", "/api/v1/sanctions/false-positives", cred{Bearer: admin}, map[string]any{"subjectKey": "22212345678",
		"entryId": entry.ID, "reason": "different person: date of birth differs"})
	env.decode(t, &fp)
	out = screenOnce()
	require.NotEqual(t, "BLOCK", out.Outcome, "the reviewed pair no longer alerts")
	for _, r := range out.TriggeredRules {
		require.NotEqual(t, "Global Sanctions Screening", r.Category, r.Details)
	}

	require.True(t, s.rest("DELETE", "/api/v1/sanctions/false-positives/"+fp.ID, cred{Bearer: admin}, nil).Success)
	require.Equal(t, "BLOCK", screenOnce().Outcome, "revoking the review restores the alert")
}
