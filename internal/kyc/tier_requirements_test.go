package kyc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
)

// TestTierRequirementsMatchQualifiedTier walks every combination of the five facts: the
// highest tier whose table requirements are all met is QualifiedTier's answer, so the table the
// API publishes is the rule the tier upgrade applies.
func TestTierRequirementsMatchQualifiedTier(t *testing.T) {
	t.Parallel()
	for mask := range 32 {
		a := Application{Tier: identity.Tier1, BVNVerified: mask&1 != 0, NINVerified: mask&2 != 0,
			HasIDDocument: mask&4 != 0, HasProofOfAddress: mask&8 != 0, LivenessPassed: mask&16 != 0}
		want := ""
		g := a.Gap()
		for _, st := range g.Tiers {
			if len(st.Missing) == 0 {
				want = st.Tier
			}
		}
		require.Equal(t, a.QualifiedTier(), want, "facts %05b", mask)
		require.Equal(t, a.QualifiedTier(), g.QualifiedTier)
	}
}

func TestTierGapNextTier(t *testing.T) {
	t.Parallel()
	// NIN verified only, at TIER_1: TIER_2 needs a verified BVN and an ID document.
	g := Application{Tier: identity.Tier1, NINVerified: true}.Gap()
	require.Equal(t, identity.Tier2, g.NextTier)
	require.Equal(t, []Requirement{ReqVerifiedBVN, ReqIDDocument}, g.MissingForNext)
	// At TIER_2 with BVN and ID: TIER_3 lacks proof of address and liveness.
	g = Application{Tier: identity.Tier2, BVNVerified: true, HasIDDocument: true}.Gap()
	require.Equal(t, identity.Tier3, g.NextTier)
	require.Equal(t, []Requirement{ReqProofOfAddress, ReqLiveness}, g.MissingForNext)
	// At TIER_3 there is no next tier.
	g = Application{Tier: identity.Tier3}.Gap()
	require.Empty(t, g.NextTier)
	require.Empty(t, g.MissingForNext)
}
