package rules

// Mandatory rule ids (docs/reference/specification.md 4.3).
const (
	AML001 = "AML-001"
	AML002 = "AML-002"
	AML003 = "AML-003"
	AML004 = "AML-004"
	AML005 = "AML-005"
	AML006 = "AML-006"
	AML007 = "AML-007"
	AML008 = "AML-008"
	AML009 = "AML-009"
)

// Regulatory thresholds of docs/reference/specification.md 4.3 and 8, in NGN and counts.
const (
	CashThresholdNGN     = 5_000_000  // AML-001: cash at or above
	TransferThresholdNGN = 10_000_000 // AML-002: transfer at or above
	StructuringPercent   = 80         // AML-003: single transaction at or above 80 % of its threshold
	StructuringCount     = 3          // AML-003: 3 or more transactions in 24 h (this one included)
	DormancyDays         = 180        // AML-006
	RapidSuccessionCount = 5          // AML-007: 5 or more in 60 minutes (this one included)
	NearTierPercent      = 80         // AML-009
)

// MandatoryCreatedBy is the CreatedBy of the built-in rules.
const MandatoryCreatedBy = "system"

// IsCashType reports whether a transaction type moves physical cash and so falls under the
// cash threshold (AML-001): CASH_DEPOSIT, CASH_WITHDRAWAL and ATM. Every other type is an
// electronic transfer under the transfer threshold (AML-002).
func IsCashType(txType string) bool {
	switch txType {
	case "CASH_DEPOSIT", "CASH_WITHDRAWAL", "ATM":
		return true
	}
	return false
}

const cashTypes = `["CASH_DEPOSIT", "CASH_WITHDRAWAL", "ATM"]`

// mandatory is the catalogue; Mandatory returns copies so callers cannot change it.
var mandatory = [...]Rule{
	{ID: AML001, Name: "AML-001 Cash Threshold", Score: 50, Outcome: Review,
		Description: "Cash amount at or above 5,000,000 NGN (NGN equivalent).",
		Expression:  `tx.type in ` + cashTypes + ` && ctx.amountNgnKobo >= naira(5000000)`,
		Actions:     []string{ActionGenerateCTR, ActionNotifyOfficer}},
	{ID: AML002, Name: "AML-002 Transfer Threshold", Score: 50, Outcome: Review,
		Description: "Transfer (any non-cash type) at or above 10,000,000 NGN (NGN equivalent).",
		Expression:  `!(tx.type in ` + cashTypes + `) && ctx.amountNgnKobo >= naira(10000000)`,
		Actions:     []string{ActionGenerateCTR, ActionNotifyOfficer}},
	{ID: AML003, Name: "AML-003 Structuring", Score: 75, Outcome: Escalate,
		Description: "Single transaction at or above 80% of its threshold, or 3 or more transactions in 24 hours (this one included) whose NGN sum exceeds the threshold.",
		Expression:  `ctx.amountNgnKobo * 100 >= ctx.thresholdNgnKobo * 80 || (ctx.count24h + 1 >= 3 && ctx.sum24hNgnKobo + ctx.amountNgnKobo > ctx.thresholdNgnKobo)`,
		Actions:     []string{ActionGenerateSAR, ActionCreateCase}},
	{ID: AML004, Name: "AML-004 PEP Screening", Score: 60, Outcome: Review,
		Description: "Sender matched a politically exposed person list in the sanctions stage.",
		Expression:  `ctx.pep`,
		Actions:     []string{ActionEnhancedDueDiligence}},
	{ID: AML005, Name: "AML-005 Foreign Transfer", Score: 30, Outcome: Approve,
		Description: "International transfer, or a receiver country other than NG.",
		Expression:  `tx.type == "INTERNATIONAL_TRANSFER" || (tx.receiverCountry != "" && tx.receiverCountry != "NG")`,
		Actions:     []string{ActionGenerateFTR}},
	{ID: AML006, Name: "AML-006 Dormant Account", Score: 50, Outcome: Review,
		Description: "No activity on the sender account for 180 days or more.",
		Expression:  `ctx.dormantDays >= 180`,
		Actions:     []string{ActionCreateCase}},
	{ID: AML007, Name: "AML-007 Rapid Succession", Score: 60, Outcome: Review,
		Description: "5 or more transactions within 60 minutes from the same account, this one included.",
		Expression:  `ctx.count60m + 1 >= 5`,
		Actions:     []string{ActionCreateCase}},
	{ID: AML008, Name: "AML-008 KYC Tier Limit", Score: 90, Outcome: Block,
		Description: "NGN amount exceeds the sender's KYC tier limit.",
		Expression:  `ctx.tierLimitNgnKobo > 0 && ctx.amountNgnKobo > ctx.tierLimitNgnKobo`,
		Actions:     []string{ActionPromptTierUpgrade}},
	{ID: AML009, Name: "AML-009 Near Tier Limit", Score: 40, Outcome: Review,
		Description: "NGN amount at or above 80% of the sender's KYC tier limit (and not above it).",
		Expression:  `ctx.tierLimitNgnKobo > 0 && ctx.amountNgnKobo * 100 >= ctx.tierLimitNgnKobo * 80 && ctx.amountNgnKobo <= ctx.tierLimitNgnKobo`,
		Actions:     []string{ActionNotifyOfficer}},
}

// Mandatory returns the nine mandatory rules AML-001..AML-009 in order, Enabled and Mandatory,
// as fresh copies.
func Mandatory() []Rule {
	out := make([]Rule, len(mandatory))
	for i, r := range mandatory {
		r.Enabled = true
		r.Mandatory = true
		r.CreatedBy = MandatoryCreatedBy
		r.Actions = append([]string(nil), r.Actions...)
		out[i] = r
	}
	return out
}

// MandatoryRule returns the mandatory rule with id, if there is one.
func MandatoryRule(id string) (Rule, bool) {
	for _, r := range Mandatory() {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
