package screening_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

type testBundle struct {
	screener *fakeScreener
	deps     screening.PipelineDeps
}

func setup(t testing.TB) *testBundle {
	t.Helper()
	c, err := rules.NewCompiler()
	require.NoError(t, err)
	b := &testBundle{screener: &fakeScreener{}}
	b.deps = screening.PipelineDeps{
		Sanctions:  screening.NewSanctionsEngine(b.screener),
		Regulatory: screening.NewRegulatoryEngine(),
		Identity:   screening.NewIdentityEngine(),
		Custom:     screening.NewCustomRulesEngine(rules.NewCache(c, 0)),
		Decision:   screening.NewDecisionEngine(screening.DefaultDecisionConfig()),
		Behavioral: screening.NewBehavioralEngine(),
		Timeouts:   map[string]time.Duration{screening.CategorySanctions: 30 * time.Millisecond},
	}
	return b
}

func hitsFor(name string, hits ...screening.NameHit) func(context.Context, tenancy.TenantID, string, string) ([]screening.NameHit, error) {
	return func(_ context.Context, _ tenancy.TenantID, n, _ string) ([]screening.NameHit, error) {
		if n == name {
			return hits, nil
		}
		return nil, nil
	}
}

func TestPipeline(t *testing.T) {
	t.Parallel()

	t.Run("clean transaction approves", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err)
		require.Equal(t, rules.Approve, res.Outcome)
		require.Equal(t, "LOW", res.RiskLevel)
		require.Nil(t, res.Case)
		require.Len(t, res.Breakdown, 6)
		require.Equal(t, []string{screening.CategorySanctions, screening.CategoryRegulatory, screening.CategoryIdentity,
			screening.CategoryCustom, screening.CategoryDecision, screening.CategoryBehavioral},
			[]string{res.Breakdown[0].Category, res.Breakdown[1].Category, res.Breakdown[2].Category,
				res.Breakdown[3].Category, res.Breakdown[4].Category, res.Breakdown[5].Category})
	})

	t.Run("sender PEP flows into AML-004 and ctx.pep", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.screener.ScreenFunc = hitsFor("Ada Obi", screening.NameHit{List: "NG PEP", ListType: screening.ListPEP, EntryID: "e1", MatchedName: "Ada Obi", Score: 0.97})
		e := baseEnrichment()
		e.Rules = []rules.Rule{{ID: "r1", Name: "PEP abroad", Expression: `ctx.pep && tx.receiverCountry != "NG"`, Score: 70, Outcome: rules.Escalate, Enabled: true, CreatedBy: "u1"},
			{ID: "r2", Name: "PEP", Expression: `ctx.pep`, Score: 55, Outcome: rules.Review, Enabled: true, CreatedBy: "u2"}}
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), e)
		require.NoError(t, err)
		require.Equal(t, 0, res.Breakdown[0].Score) // PEP scores in regulatory, not sanctions
		require.Equal(t, []string{"AML-004"}, ids(res.Breakdown[1]))
		require.Equal(t, []string{"r2"}, ids(res.Breakdown[3]))
		require.Equal(t, "u2", res.Breakdown[3].RulesTriggered[0].CreatedBy)
		require.Equal(t, rules.Review, res.Outcome)
		require.Contains(t, res.Actions, rules.ActionEnhancedDueDiligence)
		require.Equal(t, &screening.CaseDecision{Type: "PEP_MATCH", Priority: "MEDIUM"}, res.Case)
	})

	t.Run("sanctions bands", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			score   float64
			want    int
			outcome rules.Outcome
		}{{0.95, 100, rules.Block}, {0.9499, 75, rules.Escalate}, {0.85, 75, rules.Escalate}, {0.8499, 50, rules.Review}, {0.75, 50, rules.Review}, {0.7499, 0, rules.Approve}} {
			b := setup(t)
			b.screener.ScreenFunc = hitsFor("Chidi Eze", screening.NameHit{List: "OFAC SDN", ListType: screening.ListSanctions, Score: tc.score})
			v, err := b.deps.Sanctions.Evaluate(context.Background(), baseTx(), baseEnrichment())
			require.NoError(t, err)
			require.Equal(t, tc.want, v.Score, "%v", tc.score)
			require.Equal(t, tc.outcome, v.Outcome, "%v", tc.score)
		}
	})

	t.Run("sanctions block opens SANCTIONS_HIT", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.screener.ScreenFunc = hitsFor("Chidi Eze", screening.NameHit{List: "UN", ListType: screening.ListSanctions, Score: 0.99})
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err)
		require.Equal(t, rules.Block, res.Outcome)
		require.Equal(t, "CRITICAL", res.RiskLevel)
		require.InDelta(t, 80, res.Score, 0.001)
		require.Equal(t, "SANCTIONS_HIT", res.Case.Type)
		require.Contains(t, res.Actions, rules.ActionGenerateSAR)
	})

	t.Run("sanctions error fails open", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.screener.ScreenFunc = func(context.Context, tenancy.TenantID, string, string) ([]screening.NameHit, error) {
			return nil, errors.New("matcher down")
		}
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err)
		require.True(t, res.RetroScreening)
		require.True(t, res.Breakdown[0].Skipped)
		require.Contains(t, res.Breakdown[0].SkipReason, "matcher down")
		require.Contains(t, res.Actions, rules.ActionRetroactiveReview)
		require.Equal(t, rules.Approve, res.Outcome)
	})

	t.Run("sanctions deadline fails open even if ctx is ignored", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.screener.ScreenFunc = func(context.Context, tenancy.TenantID, string, string) ([]screening.NameHit, error) {
			time.Sleep(300 * time.Millisecond)
			return nil, nil
		}
		start := time.Now()
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err)
		require.Less(t, time.Since(start), 200*time.Millisecond)
		require.True(t, res.Breakdown[0].Skipped)
		require.Contains(t, res.Breakdown[0].SkipReason, "deadline")
	})

	t.Run("inline sanctions engine past its deadline fails open", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.screener.InMemory = true
		b.screener.ScreenFunc = func(context.Context, tenancy.TenantID, string, string) ([]screening.NameHit, error) {
			time.Sleep(30 * time.Millisecond)
			return []screening.NameHit{{List: "UN", ListType: screening.ListSanctions, Score: 0.99}}, nil
		}
		b.deps.Timeouts = map[string]time.Duration{screening.CategorySanctions: 20 * time.Millisecond}
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err)
		require.True(t, res.Breakdown[0].Skipped, "a late verdict is not used")
		require.Equal(t, "deadline of 20ms exceeded", res.Breakdown[0].SkipReason)
		require.True(t, res.RetroScreening)
		require.Equal(t, rules.Approve, res.Outcome)

		b.deps.Timeouts = nil // in time: the hit counts
		res, err = screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err)
		require.False(t, res.Breakdown[0].Skipped)
		require.Equal(t, rules.Block, res.Outcome)
	})

	t.Run("inline engine past its deadline: a fail-closed verdict stands, a fail-open one is skipped", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		slow := func(context.Context, *screening.Transaction, *screening.Enrichment) (screening.EngineVerdict, error) {
			time.Sleep(15 * time.Millisecond)
			return screening.EngineVerdict{Score: 50, Outcome: rules.Review,
				RulesTriggered: []screening.TriggeredRule{{ID: "AML-001", Name: "late but right"}}}, nil
		}
		b.deps.Regulatory = &fakeEngine{category: screening.CategoryRegulatory, inline: true, EvaluateFunc: slow}
		b.deps.Timeouts = map[string]time.Duration{screening.CategoryRegulatory: 10 * time.Millisecond,
			screening.CategoryBehavioral: 10 * time.Millisecond}
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err, "a late fail-closed verdict is not an error")
		require.False(t, res.Breakdown[1].Skipped)
		require.Equal(t, rules.Review, res.Breakdown[1].Outcome)
		require.GreaterOrEqual(t, res.Breakdown[1].LatencyMs, int64(15))
		require.Equal(t, rules.Review, res.Outcome)
		require.False(t, res.RetroScreening)

		b = setup(t)
		b.deps.Behavioral = &fakeEngine{category: screening.CategoryBehavioral, inline: true, EvaluateFunc: slow}
		b.deps.Timeouts = map[string]time.Duration{screening.CategoryBehavioral: 10 * time.Millisecond}
		res, err = screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err)
		require.True(t, res.Breakdown[5].Skipped)
		require.Equal(t, "deadline of 10ms exceeded", res.Breakdown[5].SkipReason)
	})

	t.Run("behavioral error fails open", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.deps.Behavioral = &fakeEngine{category: screening.CategoryBehavioral,
			EvaluateFunc: func(context.Context, *screening.Transaction, *screening.Enrichment) (screening.EngineVerdict, error) {
				return screening.EngineVerdict{}, errors.New("geo down")
			}}
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
		require.NoError(t, err)
		require.True(t, res.Breakdown[5].Skipped)
		require.True(t, res.RetroScreening)
	})

	t.Run("other engine errors fail the screening", func(t *testing.T) {
		t.Parallel()
		for _, cat := range []string{screening.CategoryRegulatory, screening.CategoryIdentity, screening.CategoryCustom, screening.CategoryDecision} {
			b := setup(t)
			f := &fakeEngine{category: cat,
				EvaluateFunc: func(context.Context, *screening.Transaction, *screening.Enrichment) (screening.EngineVerdict, error) {
					return screening.EngineVerdict{}, errors.New("boom")
				}}
			switch cat {
			case screening.CategoryRegulatory:
				b.deps.Regulatory = f
			case screening.CategoryIdentity:
				b.deps.Identity = f
			case screening.CategoryCustom:
				b.deps.Custom = f
			case screening.CategoryDecision:
				b.deps.Decision = f
			}
			_, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), baseEnrichment())
			require.ErrorContains(t, err, cat+": boom")
		}
	})

	t.Run("a custom rule failing at runtime does not trigger and is reported", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		c, err := rules.NewCompiler()
		require.NoError(t, err)
		custom := screening.NewCustomRulesEngine(rules.NewCache(c, 0))
		var reported []string
		custom.OnRuleError = func(_ context.Context, _ tenancy.TenantID, id string, err error) {
			reported = append(reported, id+": "+err.Error())
		}
		b.deps.Custom = custom
		// The subject is the rule's runtime error, not the engine's deadline: the rules compile on
		// this first use, which a loaded machine can stretch past the 50 ms default (it did, once
		// in four full runs), so the deadline here is one no machine misses.
		b.deps.Timeouts[screening.CategoryCustom] = 10 * time.Second
		e := baseEnrichment()
		e.Rules = []rules.Rule{
			{ID: "r1", Name: "div", Expression: "1 / ctx.count60m > 0", Score: 10, Outcome: rules.Review, Enabled: true},
			{ID: "r2", Name: "always", Expression: "true", Score: 30, Outcome: rules.Review, Enabled: true},
		}
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), baseTx(), e)
		require.NoError(t, err)
		require.Len(t, reported, 1)
		require.Contains(t, reported[0], "r1: ")
		require.Contains(t, reported[0], "division by zero")
		var names []string
		for _, tr := range res.TriggeredRules {
			names = append(names, tr.Name)
		}
		require.Contains(t, names, "always")
		require.NotContains(t, names, "div")
	})

	t.Run("docs worked example", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		tx := baseTx()
		tx.Type, tx.Amount = "CASH_DEPOSIT", dec("5000000")
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), tx, baseEnrichment())
		require.NoError(t, err)
		require.Equal(t, []string{"AML-001", "AML-003", "AML-009"}, ids(res.Breakdown[1]))
		require.InDelta(t, 60, res.Score, 0.001)
		require.Equal(t, rules.Escalate, res.Outcome)
		require.Equal(t, "HIGH", res.RiskLevel)
		require.Equal(t, []string{"GENERATE_CTR", "NOTIFY_OFFICER", "GENERATE_SAR", "CREATE_CASE"}, res.Actions)
		require.Equal(t, &screening.CaseDecision{Type: "AML_ALERT", Priority: "HIGH"}, res.Case)
	})

	t.Run("business with unknown KYB and foreign currency", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		tx := businessTx("")
		tx.Currency, tx.Amount = "USD", dec("100")
		e := baseEnrichment()
		e.KYB = screening.KYB{Required: true, Status: "NONE", Source: screening.SourceDatabase}
		res, err := screening.NewPipeline(b.deps).Run(context.Background(), tx, e)
		require.NoError(t, err)
		require.Equal(t, rules.Block, res.Outcome)
		require.Equal(t, []string{"KYB_STATUS"}, ids(res.Breakdown[2]))
		require.NotNil(t, res.FX)
		require.Equal(t, "155000.00", res.FX.AmountNGN.StringFixed(2))
		require.Equal(t, "SUSPICIOUS_TRANSACTION", res.Case.Type)
	})
}

func TestDecisionAndBehavioral(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tx := baseTx()
	tx.Narration = "Payment for ARMS DEAL, urgent"
	tx.ReceiverCountry = "IR"
	tx.Amount = dec("400000")
	e := baseEnrichment()
	e.History.Amounts = screening.AmountStats{Count: 10, Mean: dec("100000"), StdDev: dec("50000")}
	v, err := b.deps.Decision.Evaluate(context.Background(), tx, e)
	require.NoError(t, err)
	require.Equal(t, []string{"HEUR-NARRATION", "HEUR-JURISDICTION", "HEUR-AMOUNT"}, ids(v))
	require.Equal(t, rules.Block, v.Outcome)
	require.Equal(t, 90, v.Score)

	tx.Narration, tx.ReceiverCountry, tx.Amount = "armsdealer rent", "KE", dec("250000") // no whole-word keyword; grey list; 250k = mean+3σ exactly
	v, err = b.deps.Decision.Evaluate(context.Background(), tx, e)
	require.NoError(t, err)
	require.Equal(t, []string{"HEUR-JURISDICTION"}, ids(v))

	lagos := [2]float64{6.5244, 3.3792}
	london := [2]float64{51.5072, -0.1276}
	last := t0.Add(-2 * time.Hour)
	p := screening.Profile{KnownDevices: []string{"d1", "d2"}, LastDeviceID: "d1", LastLatitude: &lagos[0], LastLongitude: &lagos[1],
		LastLocationAt: &last, LastIPAddress: "10.0.0.1"}
	km := screening.HaversineKm(lagos[0], lagos[1], london[0], london[1])
	require.InDelta(t, 5000, km, 50)

	e = baseEnrichment()
	e.Profile = p
	tx = baseTx()
	tx.DeviceID, tx.IPAddress, tx.Latitude, tx.Longitude = "d9", "10.0.0.2", &london[0], &london[1]
	v, err = b.deps.Behavioral.Evaluate(context.Background(), tx, e) // 5000 km in 2 h = 2500 km/h
	require.NoError(t, err)
	require.Equal(t, []string{"BEHAV-NEW-DEVICE", "BEHAV-IMPOSSIBLE-TRAVEL", "BEHAV-IP-CHANGE"}, ids(v))
	require.Equal(t, 100, v.Score) // 40 + 80 + 20 capped
	require.Equal(t, rules.Escalate, v.Outcome)

	later := t0.Add(-6 * time.Hour) // 5000 km in 6 h = 833 km/h: plausible
	e.Profile.LastLocationAt = &later
	tx.DeviceID, tx.IPAddress = "d2", "10.0.0.1"
	e.History.Count60m = 9
	v, err = b.deps.Behavioral.Evaluate(context.Background(), tx, e)
	require.NoError(t, err)
	require.Equal(t, []string{"BEHAV-DEVICE-SWITCH", "BEHAV-VELOCITY"}, ids(v))
	require.Equal(t, 65, v.Score)
	require.Equal(t, rules.Review, v.Outcome)
}

func BenchmarkPipeline(b *testing.B) {
	bundle := setup(b)
	bundle.screener.ScreenFunc = hitsFor("Chidi Eze", screening.NameHit{List: "NG PEP", ListType: screening.ListPEP, Score: 0.8})
	p := screening.NewPipeline(bundle.deps)
	tx := baseTx()
	tx.Currency, tx.Amount, tx.Narration = "USD", dec("2500"), "invoice 42 settlement"
	e := baseEnrichment()
	e.History = screening.History{Count24h: 3, Sum24hNGN: dec("1200000"), Count60m: 1,
		Amounts: screening.AmountStats{Count: 30, Mean: dec("150000"), StdDev: dec("40000")}}
	e.Rules = []rules.Rule{
		{ID: "r1", Name: "night USD", Expression: `tx.currency == "USD" && (tx.hour >= 22 || tx.hour < 5)`, Score: 40, Outcome: rules.Review, Enabled: true},
		{ID: "r2", Name: "big 24h", Expression: `ctx.sum24hNgnKobo + ctx.amountNgnKobo > naira(3000000)`, Score: 60, Outcome: rules.Review, Enabled: true},
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Run(ctx, tx, e); err != nil {
			b.Fatal(err)
		}
	}
}
