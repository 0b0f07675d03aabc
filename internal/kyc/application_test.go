package kyc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/application"
)

// TestQualifiedTier covers spec 3.2 tier rules 1 to 3 over every combination of facts.
func TestQualifiedTier(t *testing.T) {
	t.Parallel()
	for mask := range 32 {
		a := Application{BVNVerified: mask&1 != 0, NINVerified: mask&2 != 0, HasIDDocument: mask&4 != 0,
			HasProofOfAddress: mask&8 != 0, LivenessPassed: mask&16 != 0}
		want := ""
		switch {
		case (a.BVNVerified || a.NINVerified) && a.HasIDDocument && a.HasProofOfAddress && a.LivenessPassed:
			want = "TIER_3"
		case a.BVNVerified && a.HasIDDocument:
			want = "TIER_2" // rule 2: a verified NIN alone is insufficient
		case a.BVNVerified || a.NINVerified:
			want = "TIER_1"
		}
		require.Equal(t, want, a.QualifiedTier(), "%+v", a)
	}
	require.Equal(t, "TIER_1", Application{NINVerified: true, HasIDDocument: true}.QualifiedTier(), "NIN + ID is not TIER_2")
}

// TestUpgradeTierNeverLowers covers rule 4: upgrades after facts change, TIER_2 when both
// numbers are present, and never a lower tier.
func TestUpgradeTierNeverLowers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		a    Application
		want string
	}{
		{"nothing verified keeps the requested tier", Application{Tier: "TIER_1"}, "TIER_1"},
		{"requested TIER_3 is not lowered", Application{Tier: "TIER_3", NINVerified: true}, "TIER_3"},
		{"both numbers present", Application{Tier: "TIER_1", BVN: "22234567801", NIN: "70123456781"}, "TIER_2"},
		{"verified BVN and an ID", Application{Tier: "TIER_1", BVNVerified: true, HasIDDocument: true}, "TIER_2"},
		{"everything", Application{Tier: "TIER_1", NINVerified: true, HasIDDocument: true, HasProofOfAddress: true, LivenessPassed: true}, "TIER_3"},
	}
	for _, c := range cases {
		a := c.a
		a.upgradeTier()
		require.Equal(t, c.want, a.Tier, c.name)
	}
}

// TestMilestoneOrder covers docs/design/design-choices.md §5: every from × to pair of milestones; a
// verification moves up, never down, and never out of a terminal decision.
func TestMilestoneOrder(t *testing.T) {
	t.Parallel()
	for _, from := range Statuses() {
		for _, to := range Statuses() {
			a := Application{Base: application.Base{Status: from}}
			a.advance(to)
			switch {
			case IsTerminal(from):
				require.Equal(t, from, a.Status, "%s stays terminal", from)
			case MilestoneRank(to) > MilestoneRank(from):
				require.Equal(t, to, a.Status, "%s → %s", from, to)
			default:
				require.Equal(t, from, a.Status, "%s is never lowered to %s", from, to)
			}
		}
	}
	for _, s := range Statuses() {
		require.Equal(t, s == StatusPending || s == StatusDocumentUploaded || s == StatusNINVerified || s == StatusBVNVerified, Editable(s), s)
	}
}
