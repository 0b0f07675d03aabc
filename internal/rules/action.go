package rules

// Action values a verdict may carry (docs/reference/specification.md 2.4 names some; docs/guide/screening.md lists
// them all with the rules that add them). They live here, below screening, because the
// mandatory rule catalogue names them.
const (
	ActionGenerateCTR          = "GENERATE_CTR"
	ActionGenerateSAR          = "GENERATE_SAR"
	ActionGenerateFTR          = "GENERATE_FTR"
	ActionNotifyOfficer        = "NOTIFY_OFFICER"
	ActionNotifyCompliance     = "NOTIFY_COMPLIANCE"
	ActionCreateCase           = "CREATE_CASE"
	ActionEnhancedDueDiligence = "ENHANCED_DUE_DILIGENCE"
	ActionPromptTierUpgrade    = "PROMPT_TIER_UPGRADE"
	ActionFXRateMissing        = "FX_RATE_MISSING"
	ActionVerifyKYC            = "VERIFY_KYC"
	ActionVerifyKYB            = "VERIFY_KYB"
	ActionStepUpAuthentication = "STEP_UP_AUTHENTICATION"
	ActionRetroactiveReview    = "RETROACTIVE_REVIEW"
)

// OutcomeActions are the actions implied by an outcome alone, used for rules and engines that
// have no actions of their own (custom rules, heuristics): REVIEW notifies an officer,
// ESCALATE and BLOCK notify compliance and open a case.
func OutcomeActions(o Outcome) []string {
	switch o {
	case Review:
		return []string{ActionNotifyOfficer}
	case Escalate, Block:
		return []string{ActionNotifyCompliance, ActionCreateCase}
	}
	return nil
}
