package kyc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
)

func TestOpenChecks(t *testing.T) {
	t.Parallel()
	kinds := func(a Application, rs []Result) map[string]string {
		out := map[string]string{}
		for _, c := range a.OpenChecks(rs) {
			out[c.Kind] = c.Status
		}
		return out
	}
	failedNIN := []Result{{IdentityType: identity.VerifyNIN, IsMatch: false}}
	for _, tc := range []struct {
		name string
		a    Application
		rs   []Result
		want map[string]string
	}{
		{"tier 1 verified", Application{Tier: identity.Tier1, BVN: "1", BVNVerified: true}, nil, map[string]string{}},
		{"tier 1 nothing", Application{Tier: identity.Tier1, BVN: "1"}, nil,
			map[string]string{"VERIFIED_BVN_OR_NIN": "MISSING", "VERIFIED_BVN": "MISSING"}},
		{"tier 2: no document, NIN failed", Application{Tier: identity.Tier2, BVN: "1", NIN: "2", BVNVerified: true}, failedNIN,
			map[string]string{"ID_DOCUMENT": "MISSING", "VERIFIED_NIN": "FAILED"}},
		{"tier 3 complete", Application{Tier: identity.Tier3, BVN: "1", BVNVerified: true, HasIDDocument: true, HasProofOfAddress: true,
			LivenessPassed: true}, nil, map[string]string{}},
		{"tier 2 with a failed liveness it does not need", Application{Tier: identity.Tier2, BVN: "1", BVNVerified: true, HasIDDocument: true},
			[]Result{{IdentityType: identity.VerifyLiveness}, {IdentityType: identity.VerifyFaceMatch}},
			map[string]string{"LIVENESS_CHECK": "FAILED", "FACE_MATCH": "FAILED"}},
		{"a later match clears the failure", Application{Tier: identity.Tier1, NIN: "2", NINVerified: true},
			[]Result{{IdentityType: identity.VerifyFaceMatch}, {IdentityType: identity.VerifyFaceMatch, IsMatch: true}}, map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.want, kinds(tc.a, tc.rs))
		})
	}
}
