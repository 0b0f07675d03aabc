package screening_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// BenchmarkPipelineExtraRules is the whole pipeline (BenchmarkPipelineTenantConfig's
// transaction, two live rules) with 0 and with 5 more enabled CEL rules of the usual shapes
// (extra=5), and with the same 5 rules as shadowed drafts (shadow=5): the pipeline's shadow
// evaluation plus the Service's counterfactual verdicts (the results it hands the recorder,
// whose database write is off the screening's path). docs/guide/rules.md "Cost" gives the ratios.
func BenchmarkPipelineExtraRules(b *testing.B) {
	for _, v := range []struct {
		name          string
		extra, shadow int
	}{{"extra=0", 0, 0}, {"extra=5", 5, 0}, {"shadow=5", 0, 5}} {
		b.Run(v.name, func(b *testing.B) {
			p := screening.NewPipeline(setup(b).deps)
			tx, e := extraRulesInput(v.extra)
			if v.shadow > 0 {
				_, withExtra := extraRulesInput(v.shadow)
				for i, r := range withExtra.Rules[2:] {
					e.Shadows = append(e.Shadows, screening.ShadowRule{DraftID: fmt.Sprintf("rdr_%d", i), Rule: r})
				}
			}
			ctx := context.Background()
			if _, err := p.Run(ctx, tx, e); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := p.Run(ctx, tx, e)
				if err != nil {
					b.Fatal(err)
				}
				if v.shadow > 0 {
					if out := screening.ShadowResultsOf(&screening.Record{ID: "t", Tx: tx, Result: res}, ""); len(out) != v.shadow {
						b.Fatalf("%d shadow results, want %d", len(out), v.shadow)
					}
				}
			}
		})
	}
}

// BenchmarkCustomRulesExtraRules is the Custom Rules engine alone on the same input: the
// evaluation cost of 5 more rules without the rest of the pipeline's noise.
func BenchmarkCustomRulesExtraRules(b *testing.B) {
	c, err := rules.NewCompiler()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{0, 5} {
		b.Run(fmt.Sprintf("extra=%d", n), func(b *testing.B) {
			eng := screening.NewCustomRulesEngine(rules.NewCache(c, 0))
			tx, e := extraRulesInput(n)
			ctx := context.Background()
			if _, err := eng.Evaluate(ctx, tx, e); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := eng.Evaluate(ctx, tx, e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// extraRulesInput is BenchmarkPipelineTenantConfig's transaction with two live rules and n of
// the five extra ones.
func extraRulesInput(n int) (*screening.Transaction, *screening.Enrichment) {
	extra := []rules.Rule{
		{ID: "x1", Name: "night cash", Expression: `tx.type == "CASH_WITHDRAWAL" && (tx.hour >= 22 || tx.hour < 5)`, Score: 40, Outcome: rules.Review, Enabled: true},
		{ID: "x2", Name: "velocity", Expression: `ctx.count60m >= 5 && ctx.amountNgnKobo > naira(50000)`, Score: 50, Outcome: rules.Review, Enabled: true},
		{ID: "x3", Name: "near threshold", Expression: `ctx.amountNgnKobo >= ctx.thresholdNgnKobo * 9 / 10 && ctx.amountNgnKobo < ctx.thresholdNgnKobo`, Score: 55, Outcome: rules.Review, Enabled: true},
		{ID: "x4", Name: "narration", Expression: `tx.narration.contains("crypto") || tx.narration.contains("gift card")`, Score: 45, Outcome: rules.Review, Enabled: true},
		{ID: "x5", Name: "tier headroom", Expression: `ctx.tierLimitNgnKobo > 0 && ctx.sum24hNgnKobo + ctx.amountNgnKobo > ctx.tierLimitNgnKobo`, Score: 60, Outcome: rules.Escalate, Enabled: true},
	}
	tx := baseTx()
	tx.Currency, tx.Amount, tx.Narration, tx.ReceiverCountry = "USD", dec("2500"), "invoice 42 settlement", "GH"
	e := baseEnrichment()
	e.History = screening.History{Count24h: 3, Sum24hNGN: dec("1200000"), Count60m: 1,
		Amounts: screening.AmountStats{Count: 30, Mean: dec("150000"), StdDev: dec("40000")}}
	e.Rules = append([]rules.Rule{
		{ID: "r1", Name: "night USD", Expression: `tx.currency == "USD" && (tx.hour >= 22 || tx.hour < 5)`, Score: 40, Outcome: rules.Review, Enabled: true},
		{ID: "r2", Name: "big 24h", Expression: `ctx.sum24hNgnKobo + ctx.amountNgnKobo > naira(3000000)`, Score: 60, Outcome: rules.Review, Enabled: true},
	}, extra[:n]...)
	return tx, e
}
