package screening_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// six builds verdicts in spec order from scores and outcomes; a negative score marks the engine skipped.
func six(scores [6]int, outcomes [6]rules.Outcome) []screening.EngineVerdict {
	cats := []string{screening.CategorySanctions, screening.CategoryRegulatory, screening.CategoryIdentity,
		screening.CategoryCustom, screening.CategoryDecision, screening.CategoryBehavioral}
	out := make([]screening.EngineVerdict, 6)
	for i, c := range cats {
		o := outcomes[i]
		if o == "" {
			o = rules.Approve
		}
		out[i] = screening.EngineVerdict{Category: c, Score: max(scores[i], 0), Outcome: o, Skipped: scores[i] < 0}
	}
	return out
}

func TestAggregateVerdicts(t *testing.T) {
	t.Parallel()
	R, E, B := rules.Review, rules.Escalate, rules.Block
	tests := []struct {
		name     string
		scores   [6]int // sanctions, regulatory, identity, custom, decision, behavioral
		outcomes [6]rules.Outcome
		score    float64
		outcome  rules.Outcome
		level    string
	}{
		// weighted 1.5×50 / 6.8 = 11.03; max × 0.8 = 40
		{"single regulatory rule", [6]int{0, 50, 0, 0, 0, 0}, [6]rules.Outcome{"", R}, 40, R, "MEDIUM"},
		// (1.5×60 + 1.3×100 + 1.2×40 + 1.0×0 + 1.0×50 + 0.8×20) / 6.8 = 334 / 6.8 = 49.12; 100 × 0.8 = 80
		{"identity block", [6]int{0, 60, 100, 40, 50, 20}, [6]rules.Outcome{"", R, B, R, R}, 80, B, "CRITICAL"},
		// all 60: average 60 beats 48
		{"average wins", [6]int{60, 60, 60, 60, 60, 60}, [6]rules.Outcome{R, R, R, R, R, R}, 60, R, "HIGH"},
		// 90 × (1.0+1.5+1.3+1.2+1.0) / 6.8 = 540 / 6.8 = 79.41; 72
		{"rounded average", [6]int{90, 90, 90, 90, 90, 0}, [6]rules.Outcome{E, E, E, E, E}, 79.41, E, "CRITICAL"},
		// sanctions and behavioral skipped: (150 + 130 + 120 + 40) / 5.0 = 88 (it would be 440 / 6.8 = 64.71 → 80 if they counted)
		{"skipped engines do not count", [6]int{-1, 100, 100, 100, 40, -1}, [6]rules.Outcome{"", R, R, R, R}, 88, R, "CRITICAL"},
		// escalate floors a low score at HIGH: 1.0×30 / 6.8 = 4.41; 24
		{"escalate at least high", [6]int{30, 0, 0, 0, 0, 0}, [6]rules.Outcome{E}, 24, E, "HIGH"},
		{"foreign transfer only", [6]int{0, 30, 0, 0, 0, 0}, [6]rules.Outcome{}, 24, rules.Approve, "LOW"},
		{"all clear", [6]int{}, [6]rules.Outcome{}, 0, rules.Approve, "LOW"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agg := screening.AggregateVerdicts(six(tc.scores, tc.outcomes))
			require.InDelta(t, tc.score, agg.Score, 0.001)
			require.Equal(t, tc.outcome, agg.Outcome)
			require.Equal(t, tc.level, agg.RiskLevel)
		})
	}
}

func TestAggregateActions(t *testing.T) {
	t.Parallel()
	vs := six([6]int{-1, 50, 0, 0, 0, 0}, [6]rules.Outcome{})
	vs[1].Actions = []string{"GENERATE_CTR", "NOTIFY_OFFICER", "FX_RATE_MISSING"}
	vs[4].Actions = []string{"ENHANCED_DUE_DILIGENCE", "NOTIFY_OFFICER"}
	agg := screening.AggregateVerdicts(vs)
	require.Equal(t, []string{"GENERATE_CTR", "NOTIFY_OFFICER", "FX_RATE_MISSING", "ENHANCED_DUE_DILIGENCE", "RETROACTIVE_REVIEW"}, agg.Actions)
}

func TestRiskLevelBands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		score   float64
		outcome rules.Outcome
		want    string
	}{
		{0, rules.Approve, "LOW"}, {24.99, rules.Approve, "LOW"}, {25, rules.Review, "MEDIUM"},
		{49.99, rules.Review, "MEDIUM"}, {50, rules.Review, "HIGH"}, {74.99, rules.Review, "HIGH"},
		{75, rules.Review, "CRITICAL"}, {100, rules.Approve, "CRITICAL"},
		{0, rules.Escalate, "HIGH"}, {49.99, rules.Escalate, "HIGH"}, {75, rules.Escalate, "CRITICAL"},
		{0, rules.Block, "CRITICAL"}, {30, rules.Block, "CRITICAL"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, screening.RiskLevelFor(tc.score, tc.outcome), "%v %s", tc.score, tc.outcome)
	}
}

func TestDecideCase(t *testing.T) {
	t.Parallel()
	R, E, B := rules.Review, rules.Escalate, rules.Block
	trig := func(id string) []screening.TriggeredRule { return []screening.TriggeredRule{{ID: id}} }
	tests := []struct {
		name     string
		scores   [6]int
		outcomes [6]rules.Outcome
		edit     func(vs []screening.EngineVerdict)
		want     *screening.CaseDecision
	}{
		{"approve", [6]int{}, [6]rules.Outcome{}, nil, nil},
		{"sanctions block", [6]int{100, 0, 100}, [6]rules.Outcome{B, "", B}, nil, &screening.CaseDecision{Type: "SANCTIONS_HIT", Priority: "CRITICAL"}},
		{"pep", [6]int{0, 60}, [6]rules.Outcome{"", R}, func(vs []screening.EngineVerdict) { vs[1].RulesTriggered = trig("AML-004") },
			&screening.CaseDecision{Type: "PEP_MATCH", Priority: "MEDIUM"}},
		{"impossible travel", [6]int{0, 0, 0, 0, 0, 80}, [6]rules.Outcome{"", "", "", "", "", E},
			func(vs []screening.EngineVerdict) { vs[5].RulesTriggered = trig("BEHAV-IMPOSSIBLE-TRAVEL") },
			&screening.CaseDecision{Type: "FRAUD_ALERT", Priority: "HIGH"}},
		{"new device", [6]int{0, 0, 0, 0, 0, 40}, [6]rules.Outcome{"", "", "", "", "", R}, nil,
			&screening.CaseDecision{Type: "BEHAVIORAL_ANOMALY", Priority: "MEDIUM"}},
		{"identity block", [6]int{0, 0, 100, 0, 0, 40}, [6]rules.Outcome{"", "", B, "", "", R}, nil,
			&screening.CaseDecision{Type: "SUSPICIOUS_TRANSACTION", Priority: "CRITICAL"}},
		{"escalate", [6]int{0, 75}, [6]rules.Outcome{"", E}, nil, &screening.CaseDecision{Type: "AML_ALERT", Priority: "HIGH"}},
		{"review medium", [6]int{0, 50}, [6]rules.Outcome{"", R}, nil, &screening.CaseDecision{Type: "AML_ALERT", Priority: "MEDIUM"}},
		{"review low", [6]int{0, 0, 0, 20}, [6]rules.Outcome{"", "", "", R}, nil, &screening.CaseDecision{Type: "AML_ALERT", Priority: "LOW"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			vs := six(tc.scores, tc.outcomes)
			if tc.edit != nil {
				tc.edit(vs)
			}
			require.Equal(t, tc.want, screening.DecideCase(vs, screening.AggregateVerdicts(vs)))
		})
	}
}
