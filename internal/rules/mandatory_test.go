package rules_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/rules"
)

func TestMandatoryCatalogue(t *testing.T) {
	t.Parallel()
	want := []string{
		"AML-001 Cash Threshold", "AML-002 Transfer Threshold", "AML-003 Structuring",
		"AML-004 PEP Screening", "AML-005 Foreign Transfer", "AML-006 Dormant Account",
		"AML-007 Rapid Succession", "AML-008 KYC Tier Limit", "AML-009 Near Tier Limit",
	}
	got := rules.Mandatory()
	require.Len(t, got, len(want))
	for i, r := range got {
		require.Equal(t, want[i], r.Name)
		require.Equal(t, want[i][:7], r.ID)
		require.True(t, r.Mandatory)
		require.True(t, r.Enabled)
		require.True(t, r.Outcome.Valid())
		require.NotEmpty(t, r.Actions)
		// The CEL rendering must stay a valid rule over the same environment.
		_, err := rules.Compile(r.Expression)
		require.NoError(t, err, r.ID)
	}

	// Copies: editing one does not change the catalogue.
	got[0].Actions[0] = "X"
	got[0].Name = "X"
	r, ok := rules.MandatoryRule(rules.AML001)
	require.True(t, ok)
	require.Equal(t, "AML-001 Cash Threshold", r.Name)
	require.Equal(t, rules.ActionGenerateCTR, r.Actions[0])
	_, ok = rules.MandatoryRule("AML-010")
	require.False(t, ok)
}
