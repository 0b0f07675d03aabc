package screening

import "github.com/complyd/complyd/internal/rules"

// Case types and priorities (docs/reference/specification.md 2.3) that screening opens automatically.
const (
	CaseSanctionsHit          = "SANCTIONS_HIT"
	CasePEPMatch              = "PEP_MATCH"
	CaseFraudAlert            = "FRAUD_ALERT"
	CaseBehavioralAnomaly     = "BEHAVIORAL_ANOMALY"
	CaseSuspiciousTransaction = "SUSPICIOUS_TRANSACTION"
	CaseAMLAlert              = "AML_ALERT"

	PriorityLow      = "LOW"
	PriorityMedium   = "MEDIUM"
	PriorityHigh     = "HIGH"
	PriorityCritical = "CRITICAL"
)

// CaseDecision is the case a screening opens: one per transaction (docs/design/design-choices.md §8). The cases
// package creates it; screening only decides.
type CaseDecision struct {
	Type     string
	Priority string
}

// DecideCase returns the automatic case for a screening, or nil for APPROVE. The first match wins:
//  1. the sanctions engine BLOCKed → SANCTIONS_HIT;
//  2. AML-004 fired (PEP) → PEP_MATCH;
//  3. the behavioral engine's outcome is the final outcome → FRAUD_ALERT when impossible
//     travel fired, else BEHAVIORAL_ANOMALY;
//  4. any other BLOCK → SUSPICIOUS_TRANSACTION;
//  5. ESCALATE or REVIEW → AML_ALERT.
//
// Priority follows the outcome: BLOCK CRITICAL, ESCALATE HIGH, REVIEW MEDIUM when the risk
// level is MEDIUM or above, else LOW.
func DecideCase(verdicts []EngineVerdict, agg Aggregate) *CaseDecision {
	if agg.Outcome == rules.Approve || !agg.Outcome.Valid() {
		return nil
	}
	d := &CaseDecision{Type: CaseAMLAlert, Priority: casePriority(agg)}
	for _, v := range verdicts {
		if v.Category == CategorySanctions && !v.Skipped && v.Outcome == rules.Block {
			d.Type = CaseSanctionsHit
			return d
		}
	}
	for _, v := range verdicts {
		if v.Category == CategoryRegulatory && triggered(v, rules.AML004) {
			d.Type = CasePEPMatch
			return d
		}
	}
	for _, v := range verdicts {
		if v.Category == CategoryBehavioral && !v.Skipped && v.Outcome == agg.Outcome {
			d.Type = CaseBehavioralAnomaly
			if triggered(v, "BEHAV-IMPOSSIBLE-TRAVEL") {
				d.Type = CaseFraudAlert
			}
			return d
		}
	}
	if agg.Outcome == rules.Block {
		d.Type = CaseSuspiciousTransaction
	}
	return d
}

func casePriority(agg Aggregate) string {
	switch agg.Outcome {
	case rules.Block:
		return PriorityCritical
	case rules.Escalate:
		return PriorityHigh
	}
	if agg.RiskLevel == RiskLow {
		return PriorityLow
	}
	return PriorityMedium
}

func triggered(v EngineVerdict, id string) bool {
	for _, r := range v.RulesTriggered {
		if r.ID == id {
			return true
		}
	}
	return false
}
