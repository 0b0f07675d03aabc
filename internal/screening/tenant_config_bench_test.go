package screening_test

import (
	"context"
	"testing"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// BenchmarkPipelineTenantConfig is BenchmarkPipeline with a tenant's country lists and an
// engine configuration (a changed weight, the Behavioral engine disabled) in the enrichment, as
// the settings cache hands them to every screening (docs/design/engines.md, docs/guide/countries.md).
func BenchmarkPipelineTenantConfig(b *testing.B) {
	bundle := setup(b)
	bundle.screener.ScreenFunc = hitsFor("Chidi Eze", screening.NameHit{List: "NG PEP", ListType: screening.ListPEP, Score: 0.8})
	p := screening.NewPipeline(bundle.deps)
	tx := baseTx()
	tx.Currency, tx.Amount, tx.Narration, tx.ReceiverCountry = "USD", dec("2500"), "invoice 42 settlement", "GH"
	e := baseEnrichment()
	e.History = screening.History{Count24h: 3, Sum24hNGN: dec("1200000"), Count60m: 1,
		Amounts: screening.AmountStats{Count: 30, Mean: dec("150000"), StdDev: dec("40000")}}
	e.Rules = []rules.Rule{
		{ID: "r1", Name: "night USD", Expression: `tx.currency == "USD" && (tx.hour >= 22 || tx.hour < 5)`, Score: 40, Outcome: rules.Review, Enabled: true},
		{ID: "r2", Name: "big 24h", Expression: `ctx.sum24hNgnKobo + ctx.amountNgnKobo > naira(3000000)`, Score: 60, Outcome: rules.Review, Enabled: true},
	}
	e.Countries = screening.NewCountryRisk(map[string]string{"KP": screening.CountryCallForAction, "GH": screening.CountryMonitored})
	e.Engines = &screening.EngineConfig{ID: "ecfg_bench", Version: 3,
		Weights:  map[string]float64{screening.CategoryDecision: 1.5},
		Disabled: map[string]bool{screening.CategoryBehavioral: true}}
	ctx := context.Background()
	res, err := p.Run(ctx, tx, e)
	if err != nil {
		b.Fatal(err)
	}
	if res.Breakdown[5].Disabled != true {
		b.Fatal("behavioral engine not disabled")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Run(ctx, tx, e); err != nil {
			b.Fatal(err)
		}
	}
}
