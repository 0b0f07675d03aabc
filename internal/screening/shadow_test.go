package screening_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// TestShadowRules (docs/guide/rules.md "Shadow"): a shadowed draft is evaluated with the live rules
// and never changes the verdict; its result names the counterfactual outcome and case, and a
// draft that is a new version of a live rule stands in for it (the case it would close).
func TestShadowRules(t *testing.T) {
	t.Parallel()
	big := rules.Rule{ID: "r_big", Name: "big", Expression: `ctx.amountNgnKobo >= naira(1000)`, Score: 60,
		Outcome: rules.Review, Enabled: true, Version: 3}
	cases := map[string]struct {
		live        []rules.Rule
		shadow      screening.ShadowRule
		liveOutcome rules.Outcome
		matched     bool
		outcome     rules.Outcome
		shadowCase  bool
	}{
		"new rule flags what live approves": {
			shadow:      screening.ShadowRule{DraftID: "rdr_1", Rule: rules.Rule{Name: "any", Expression: `tx.amountMinor > 0`, Score: 70, Outcome: rules.Escalate, Enabled: true}},
			liveOutcome: rules.Approve, matched: true, outcome: rules.Escalate, shadowCase: true,
		},
		"new rule that does not match": {
			shadow:      screening.ShadowRule{DraftID: "rdr_2", Rule: rules.Rule{Name: "never", Expression: `tx.amountMinor < 0`, Score: 70, Outcome: rules.Block, Enabled: true}},
			liveOutcome: rules.Approve, matched: false, outcome: rules.Approve,
		},
		"new version of a live rule closes its case": {
			live:        []rules.Rule{big},
			shadow:      screening.ShadowRule{DraftID: "rdr_3", Replaces: "r_big", Rule: rules.Rule{Name: "big", Expression: `ctx.amountNgnKobo >= naira(5000)`, Score: 60, Outcome: rules.Review, Enabled: true}},
			liveOutcome: rules.Review, matched: false, outcome: rules.Approve,
		},
		"an expression that fails at run time is an error, not a match": {
			shadow:      screening.ShadowRule{DraftID: "rdr_4", Rule: rules.Rule{Name: "md", Expression: `tx.metadata["absent"] == "x"`, Score: 70, Outcome: rules.Block, Enabled: true}},
			liveOutcome: rules.Approve, matched: false, outcome: rules.Approve,
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			p := screening.NewPipeline(b.deps)
			e := baseEnrichment()
			e.Rules = c.live
			without, err := p.Run(context.Background(), baseTx(), e)
			require.NoError(t, err)
			e.Shadows = []screening.ShadowRule{c.shadow}
			tx := baseTx()
			res, err := p.Run(context.Background(), tx, e)
			require.NoError(t, err)
			// The shadow never changes the verdict.
			require.Equal(t, c.liveOutcome, res.Outcome)
			require.Equal(t, without.Aggregate, res.Aggregate)
			require.Equal(t, without.TriggeredRules, res.TriggeredRules)
			require.Equal(t, without.Case, res.Case)
			for _, r := range res.TriggeredRules {
				require.NotEqual(t, c.shadow.Rule.Name+"-shadow", r.Name)
				require.NotEqual(t, c.shadow.DraftID, r.ID)
			}
			caseID := ""
			if res.Case != nil {
				caseID = "case-1"
			}
			out := screening.ShadowResultsOf(&screening.Record{ID: "tx-1", Tx: tx, Result: res}, caseID)
			require.Len(t, out, 1)
			got := out[0]
			require.Equal(t, c.shadow.DraftID, got.DraftID)
			require.Equal(t, c.matched, got.Matched)
			require.Equal(t, c.liveOutcome, got.LiveOutcome)
			require.Equal(t, res.Case != nil, got.LiveCase)
			require.Equal(t, c.outcome, got.ShadowOutcome)
			require.Equal(t, c.shadowCase || (c.outcome != rules.Approve), got.ShadowCase)
			require.Equal(t, name == "an expression that fails at run time is an error, not a match", got.EvalError)
		})
	}
}

// TestActiveShadows: a shadow whose end time has passed stops on the next screening, before the
// tenant's settings are reloaded; the others go on.
func TestActiveShadows(t *testing.T) {
	t.Parallel()
	past, future := t0.Add(-time.Second), t0.Add(time.Hour)
	all := []screening.ShadowRule{{DraftID: "open"}, {DraftID: "ended", EndsAt: &past}, {DraftID: "later", EndsAt: &future}, {DraftID: "now", EndsAt: &t0}}
	var ids []string
	for _, s := range screening.ActiveShadows(all, t0) {
		ids = append(ids, s.DraftID)
	}
	require.Equal(t, []string{"open", "later"}, ids)
	require.Len(t, screening.ActiveShadows(all[:1], t0), 1)
}
