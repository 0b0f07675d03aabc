package screening

import (
	"math"

	"github.com/complyd/complyd/internal/rules"
)

// Risk levels (docs/design/design-choices.md §8).
const (
	RiskLow      = "LOW"
	RiskMedium   = "MEDIUM"
	RiskHigh     = "HIGH"
	RiskCritical = "CRITICAL"
)

// Weights are the aggregation weights per category (docs/reference/specification.md 4.3).
var Weights = map[string]float64{
	CategoryRegulatory: 1.5,
	CategoryIdentity:   1.3,
	CategoryCustom:     1.2,
	CategorySanctions:  1.0,
	CategoryDecision:   1.0,
	CategoryBehavioral: 0.8,
}

// Aggregate is the combined verdict of the engines.
type Aggregate struct {
	Score     float64 // 0..100, two decimals
	Outcome   rules.Outcome
	RiskLevel string
	Actions   []string
}

// AggregateVerdicts combines engine verdicts (docs/reference/specification.md 4.3, docs/design/design-choices.md §8):
//   - score = MAX(Σ wᵢ·sᵢ / Σ wᵢ, max sᵢ × 0.8) over the engines that ran; skipped (fail-open)
//     engines are left out of both terms, since a 0 they never computed would dilute the average;
//     rounded half away from zero to two decimals;
//   - outcome = the most severe engine outcome;
//   - riskLevel = RiskLevelFor(score, outcome);
//   - actions = the union of the engines' actions in engine order, then FX_RATE_MISSING and
//     RETROACTIVE_REVIEW where they apply, deduplicated.
func AggregateVerdicts(verdicts []EngineVerdict) Aggregate { return aggregateWith(verdicts, nil) }

// aggregateWith is AggregateVerdicts with the weights of the tenant's engine configuration cfg
// (nil: the spec's); verdicts of disabled engines are left out like skipped ones, without
// RETROACTIVE_REVIEW.
func aggregateWith(verdicts []EngineVerdict, cfg *EngineConfig) Aggregate {
	var weighted, weights float64
	highest := 0
	out := Aggregate{Outcome: rules.Approve}
	skipped := false
	for _, v := range verdicts {
		for _, a := range v.Actions {
			if !contains(out.Actions, a) {
				out.Actions = append(out.Actions, a)
			}
		}
		if v.Skipped {
			skipped = true
			continue
		}
		if v.Disabled {
			continue
		}
		w := cfg.Weight(v.Category)
		weighted += w * float64(v.Score)
		weights += w
		highest = max(highest, v.Score)
		out.Outcome = out.Outcome.Max(v.Outcome)
	}
	if skipped && !contains(out.Actions, rules.ActionRetroactiveReview) {
		out.Actions = append(out.Actions, rules.ActionRetroactiveReview)
	}
	avg := 0.0
	if weights > 0 {
		avg = weighted / weights
	}
	out.Score = round2(math.Max(avg, float64(highest)*0.8))
	out.RiskLevel = RiskLevelFor(out.Score, out.Outcome)
	return out
}

// RiskLevelFor bands a score, LOW < 25 ≤ MEDIUM < 50 ≤ HIGH < 75 ≤ CRITICAL, then raises it:
// ESCALATE is at least HIGH, BLOCK is always CRITICAL (docs/design/design-choices.md §8).
func RiskLevelFor(score float64, outcome rules.Outcome) string {
	level := RiskLow
	switch {
	case score >= 75:
		level = RiskCritical
	case score >= 50:
		level = RiskHigh
	case score >= 25:
		level = RiskMedium
	}
	switch outcome {
	case rules.Block:
		return RiskCritical
	case rules.Escalate:
		if level == RiskLow || level == RiskMedium {
			return RiskHigh
		}
	}
	return level
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
