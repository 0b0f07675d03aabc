package screening

import (
	"context"

	"github.com/complyd/complyd/internal/rules"
)

// Category names in riskBreakdown (docs/design/design-choices.md §8), one per engine.
const (
	CategorySanctions  = "Global Sanctions Screening"
	CategoryRegulatory = "Regulatory Compliance"
	CategoryIdentity   = "Identity Verification"
	CategoryCustom     = "Custom Rules"
	CategoryDecision   = "Decision Engine"
	CategoryBehavioral = "Behavioral Analysis"
)

// Engine is one screening engine. Evaluate must only read tx and e, honour ctx, and return
// its verdict; the Pipeline sets LatencyMs.
type Engine interface {
	Category() string
	Evaluate(ctx context.Context, tx *Transaction, e *Enrichment) (EngineVerdict, error)
}

// EngineVerdict is one engine's result (riskBreakdown entry, docs/reference/specification.md 2.4).
type EngineVerdict struct {
	Category       string
	Score          int // 0..100
	Outcome        rules.Outcome
	RulesTriggered []TriggeredRule
	LatencyMs      int64
	// Skipped is set when a fail-open engine errored or missed its deadline; the verdict then
	// scores 0, APPROVE, and does not count in the aggregation.
	Skipped    bool
	SkipReason string
	// Disabled is set for an optional engine the tenant's engine configuration switched off: it
	// did not run and does not count in the aggregation (docs/design/engines.md).
	Disabled bool
	FX       *FX      // the applied conversion, on engines that used NGN amounts
	Actions  []string // deduplicated, in the order the rules added them
	// Hits are the sanctions engine's name matches (sender and receiver), PEP included.
	Hits []PartyHit
	// shadow are the Custom Rules engine's evaluations of the tenant's shadowed drafts
	// (shadow.go); unexported, so never stored, answered or aggregated.
	shadow []shadowEval
}

// TriggeredRule is one rule that fired (triggeredRules entry, docs/reference/specification.md 2.4).
type TriggeredRule struct {
	ID             string // mandatory or custom rule id, or a built-in heuristic's id
	Name           string
	Category       string
	RiskScore      int
	Outcome        rules.Outcome
	Details        string
	CreatedBy      string // custom rules: the rule's author
	RuleVersion    int    // custom rules: the version that fired (docs/design/engines.md "Rule versions")
	KYCSource      string // identity rules: DATABASE or PAYLOAD
	KYCExternalRef string
}

// verdictBuilder accumulates triggered rules into a verdict: score and outcome are the maxima
// of the triggered rules' (unless the engine says otherwise), actions a deduplicated union.
type verdictBuilder struct {
	v EngineVerdict
}

func newVerdict(category string) *verdictBuilder {
	return &verdictBuilder{v: EngineVerdict{Category: category, Outcome: rules.Approve}}
}

func (b *verdictBuilder) trigger(r TriggeredRule, actions ...string) {
	r.Category = b.v.Category
	b.v.RulesTriggered = append(b.v.RulesTriggered, r)
	b.v.Score = max(b.v.Score, min(r.RiskScore, 100))
	b.v.Outcome = b.v.Outcome.Max(r.Outcome)
	b.action(actions...)
}

func (b *verdictBuilder) action(actions ...string) {
	for _, a := range actions {
		if !contains(b.v.Actions, a) {
			b.v.Actions = append(b.v.Actions, a)
		}
	}
}

func (b *verdictBuilder) verdict() EngineVerdict { return b.v }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
