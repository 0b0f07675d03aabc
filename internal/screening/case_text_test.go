package screening

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/rules"
)

// TestCaseRequestDescription: the automatic case's description, which the case page shows as
// it comes, reads as people write (issue 50 point 4): the amount with its symbol and separators
// from the decimal, the type, outcome and risk in words ("Screening of TRANSFER 12500000 NGN …:
// outcome REVIEW, risk HIGH" before).
func TestCaseRequestDescription(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, txType, amount, currency, want string
	}{
		{"naira transfer", "TRANSFER", "12500000", "NGN",
			"Screening of the transfer of ₦12,500,000.00 from Ada Obi (account 0123456789): outcome review, high risk, score 62.50. " +
				"Triggered: AML-008 KYC Tier Limit (Regulatory Compliance, 80)."},
		{"dollar cash, cents kept", "CASH_DEPOSIT", "3225.8", "USD",
			"Screening of the cash deposit of $3,225.80 from Ada Obi (account 0123456789): outcome review, high risk, score 62.50. " +
				"Triggered: AML-008 KYC Tier Limit (Regulatory Compliance, 80)."},
		{"other currency after the amount", "INTERNATIONAL_TRANSFER", "1500000.05", "XOF",
			"Screening of the international transfer of 1,500,000.05 XOF from Ada Obi (account 0123456789): outcome review, high risk, score 62.50. " +
				"Triggered: AML-008 KYC Tier Limit (Regulatory Compliance, 80)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &Record{
				Tx: &Transaction{ExternalID: "TX-1", Type: tc.txType, Amount: decimal.RequireFromString(tc.amount), Currency: tc.currency,
					SenderName: "Ada Obi", SenderAccountNumber: "0123456789"},
				Result: Result{Aggregate: Aggregate{Score: 62.5, Outcome: rules.Review, RiskLevel: RiskHigh},
					TriggeredRules: []TriggeredRule{{ID: "AML-008", Name: "AML-008 KYC Tier Limit", Category: CategoryRegulatory, RiskScore: 80}},
					Case:           &CaseDecision{Type: CaseAMLAlert, Priority: "MEDIUM"}},
			}
			got := caseRequest(rec)
			require.Equal(t, tc.want, got.Description)
			require.Equal(t, "Review on transaction TX-1", got.Title)
			require.Equal(t, CaseAMLAlert, got.Type)
		})
	}
}
