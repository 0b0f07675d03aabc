package screening

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// ShadowRule is a rule draft that runs in shadow on the tenant's live screenings (docs/guide/rules.md
// "Shadow"): the Custom Rules engine evaluates it in the same pass as the live rules, on the
// same CEL input, and the Service records what it would have changed; it never counts in the
// verdict, the answer, the case or any report.
type ShadowRule struct {
	DraftID string
	// Replaces is the live rule the draft is a new version of ("" for a new rule): in the
	// counterfactual verdict the draft stands in for it.
	Replaces string
	Rule     rules.Rule
	EndsAt   *time.Time
}

// ShadowResult is what one shadowed draft said of one live screening, beside the live verdict.
type ShadowResult struct {
	TenantID      tenancy.TenantID
	DraftID       string
	TransactionID string
	ExternalID    string
	ScreenedAt    time.Time
	Matched       bool
	EvalError     bool
	LiveOutcome   rules.Outcome
	LiveCase      bool
	// ShadowOutcome and ShadowCase are the counterfactual verdict: the live engines' verdicts
	// with the draft added to (or standing in for its rule in) the Custom Rules engine.
	ShadowOutcome rules.Outcome
	ShadowCase    bool
}

// ShadowRecorder takes shadow results off the screening's path (postgres.ShadowWriter writes
// them in batches). Record must not block: a full queue drops the results and counts them.
type ShadowRecorder interface {
	Record(results []ShadowResult)
}

// shadowEval is one shadow rule's evaluation on a screening, carried from the Custom Rules
// engine to the Service on the engine's verdict (unexported: never stored nor answered).
type shadowEval struct {
	rule  *ShadowRule
	hit   bool
	error bool
}

// activeShadows are the shadow rules of set still running at now (an end time can pass between
// two loads of the tenant's settings).
func activeShadows(all []ShadowRule, now time.Time) []ShadowRule {
	for i := range all {
		if all[i].EndsAt != nil && !now.Before(*all[i].EndsAt) {
			out := make([]ShadowRule, 0, len(all))
			for j := range all {
				if all[j].EndsAt == nil || now.Before(*all[j].EndsAt) {
					out = append(out, all[j])
				}
			}
			return out
		}
	}
	return all
}

// evalShadows evaluates e.Shadows on in (built once for the live rules, or here when no live
// rule ran). A shadow rule that cannot be evaluated is recorded as an error, never reported to
// the screening.
func (c *CustomRulesEngine) evalShadows(ctx context.Context, tx *Transaction, e *Enrichment, in *rules.Input) []shadowEval {
	out := make([]shadowEval, len(e.Shadows))
	for i := range e.Shadows {
		s := &e.Shadows[i]
		out[i].rule = s
		prg, err := c.cache.Program(s.Rule.Expression)
		if err != nil {
			out[i].error = true
			continue
		}
		if in == nil {
			in = RuleInput(tx, e)
		}
		hit, err := prg.Eval(ctx, in)
		out[i].hit, out[i].error = hit && err == nil, err != nil
	}
	return out
}

// shadowResults turns the shadow evaluations of a stored screening into results: for each, the
// counterfactual Custom Rules verdict (the live one without the replaced rule, with the draft
// when it fired), re-aggregated with the other engines' verdicts, and the case it would open.
func shadowResults(rec *Record, caseID string, cfg *EngineConfig) []ShadowResult {
	res := &rec.Result
	out := make([]ShadowResult, 0, len(res.shadow))
	verdicts := make([]EngineVerdict, len(res.Breakdown)) // reused: nothing below keeps it
	for _, s := range res.shadow {
		r := ShadowResult{TenantID: rec.Tx.TenantID, DraftID: s.rule.DraftID, TransactionID: rec.ID,
			ExternalID: rec.Tx.ExternalID, ScreenedAt: rec.ProcessedAt, Matched: s.hit, EvalError: s.error,
			LiveOutcome: res.Outcome, LiveCase: caseID != ""}
		copy(verdicts, res.Breakdown)
		for i := range verdicts {
			if verdicts[i].Category == CategoryCustom && !verdicts[i].Disabled {
				verdicts[i] = counterfactualCustom(verdicts[i], s)
			}
		}
		// Aggregated as the live verdict was: an interdiction (in the regulatory verdict, so it
		// stands in the counterfactual too) re-aggregates with the built-in weights.
		agg := aggregateWith(verdicts, cfg)
		if interdicted(res) {
			agg = AggregateVerdicts(verdicts)
		}
		r.ShadowOutcome = agg.Outcome
		r.ShadowCase = DecideCase(verdicts, agg) != nil
		out = append(out, r)
	}
	return out
}

func counterfactualCustom(live EngineVerdict, s shadowEval) EngineVerdict {
	b := newVerdict(CategoryCustom)
	for _, t := range live.RulesTriggered {
		if s.rule.Replaces != "" && t.ID == s.rule.Replaces {
			continue
		}
		b.trigger(t, rules.OutcomeActions(t.Outcome)...)
	}
	if s.hit {
		r := s.rule.Rule
		b.trigger(TriggeredRule{ID: s.rule.DraftID, Name: r.Name, RiskScore: r.Score, Outcome: r.Outcome},
			rules.OutcomeActions(r.Outcome)...)
	}
	v := b.verdict()
	v.LatencyMs, v.Skipped = live.LatencyMs, live.Skipped
	return v
}

func interdicted(res *Result) bool {
	for i := range res.TriggeredRules {
		if res.TriggeredRules[i].ID == RuleInterdiction {
			return true
		}
	}
	return false
}
