package screening

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/rules"
)

// TestRestrictionActionsMatchCases pins the action names screening repeats (it must not import
// cases in production code).
func TestRestrictionActionsMatchCases(t *testing.T) {
	t.Parallel()
	require.Equal(t, cases.InterdictionFreeze, RestrictionFreeze)
	require.Equal(t, cases.InterdictionBlock, RestrictionBlock)
	require.Equal(t, cases.InterdictionPostNoDebit, RestrictionPostNoDebit)
}

// TestInterdictionMatrix: every action × side × direction.
func TestInterdictionMatrix(t *testing.T) {
	t.Parallel()
	const acct, other = "1000000001", "1000000002"
	tests := []struct {
		action, side, txType string
		blocked              bool
	}{
		{RestrictionFreeze, "sender", "TRANSFER", true},
		{RestrictionFreeze, "receiver", "TRANSFER", true},
		{RestrictionFreeze, "sender", "CASH_DEPOSIT", true},
		{RestrictionBlock, "sender", "TRANSFER", true},
		{RestrictionBlock, "receiver", "TRANSFER", true},
		{RestrictionPostNoDebit, "sender", "TRANSFER", true},
		{RestrictionPostNoDebit, "sender", "CASH_WITHDRAWAL", true},
		{RestrictionPostNoDebit, "receiver", "TRANSFER", false},
		{RestrictionPostNoDebit, "sender", "CASH_DEPOSIT", false},
	}
	for _, tc := range tests {
		t.Run(tc.action+"/"+tc.side+"/"+tc.txType, func(t *testing.T) {
			t.Parallel()
			tx := &Transaction{Type: tc.txType, SenderAccountNumber: other, ReceiverAccountNumber: acct}
			if tc.side == "sender" {
				tx.SenderAccountNumber, tx.ReceiverAccountNumber = acct, other
			}
			in := Restrictions{acct: {{InterdictionID: "intd_x", CaseNumber: "CASE-2026-00001", Action: tc.action, AccountNumber: acct}}}
			res := Result{Breakdown: []EngineVerdict{{Category: CategorySanctions, Outcome: rules.Approve},
				{Category: CategoryRegulatory, Outcome: rules.Approve}}}
			res.Aggregate = AggregateVerdicts(res.Breakdown)
			applyInterdictions(tx, in, &res)
			if !tc.blocked {
				require.Equal(t, rules.Approve, res.Outcome)
				require.Empty(t, res.TriggeredRules)
				return
			}
			require.Equal(t, rules.Block, res.Outcome)
			require.Equal(t, RiskCritical, res.RiskLevel)
			require.Len(t, res.TriggeredRules, 1)
			require.Contains(t, res.TriggeredRules[0].Details, "intd_x")
			require.Contains(t, res.TriggeredRules[0].Details, tc.side+" account")
			require.Equal(t, CaseSuspiciousTransaction, res.Case.Type)
		})
	}
	t.Run("another bank's account of the same number", func(t *testing.T) {
		t.Parallel()
		tx := &Transaction{Type: "TRANSFER", SenderAccountNumber: other, SenderBankCode: "044", ReceiverAccountNumber: acct, ReceiverBankCode: "058"}
		require.Empty(t, interdictionHits(tx, Restrictions{acct: {{Action: RestrictionFreeze, AccountNumber: acct}}}))
	})
}
