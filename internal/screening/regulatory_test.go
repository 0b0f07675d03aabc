package screening_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

func ids(v screening.EngineVerdict) []string {
	out := []string{}
	for _, r := range v.RulesTriggered {
		out = append(out, r.ID)
	}
	return out
}

func TestRegulatoryRules(t *testing.T) {
	t.Parallel()
	ago := func(d time.Duration) *time.Time { x := t0.Add(-d); return &x }
	day := 24 * time.Hour

	tests := []struct {
		name     string
		txType   string
		amount   string
		currency string
		country  string
		tier     string
		edit     func(e *screening.Enrichment)
		want     []string
		fxRate   string // expected fx.rateToNgn, "" for no fx
		missing  bool
	}{
		{name: "cash at threshold", txType: "CASH_DEPOSIT", amount: "5000000", want: []string{"AML-001", "AML-003"}},
		{name: "cash just below threshold", txType: "CASH_DEPOSIT", amount: "4999999.99", want: []string{"AML-003"}},
		{name: "cash at 80%", txType: "CASH_WITHDRAWAL", amount: "4000000", want: []string{"AML-003"}},
		{name: "cash just below 80%", txType: "CASH_WITHDRAWAL", amount: "3999999.99", want: []string{}},
		{name: "atm is cash", txType: "ATM", amount: "5000000", want: []string{"AML-001", "AML-003"}},
		{name: "transfer at threshold", txType: "TRANSFER", amount: "10000000", want: []string{"AML-002", "AML-003"}},
		{name: "transfer just below threshold", txType: "TRANSFER", amount: "9999999.99", want: []string{"AML-003"}},
		{name: "transfer at 80%", txType: "USSD", amount: "8000000", want: []string{"AML-003"}},
		{name: "transfer just below 80%", txType: "POS", amount: "7999999.99", want: []string{}},
		{name: "transfer at cash threshold", txType: "TRANSFER", amount: "5000000", want: []string{}},
		{name: "usd cash converted above threshold", txType: "CASH_DEPOSIT", amount: "3225.81", currency: "USD",
			want: []string{"AML-001", "AML-003"}, fxRate: "1550"},
		{name: "usd cash converted below threshold", txType: "CASH_DEPOSIT", amount: "3225.80", currency: "USD",
			want: []string{"AML-003"}, fxRate: "1550"},
		{name: "usd small is not 1:1", txType: "CASH_DEPOSIT", amount: "2580", currency: "USD", want: []string{}, fxRate: "1550"},
		{name: "missing rate evaluates raw amount", txType: "CASH_DEPOSIT", amount: "5000000", currency: "EUR",
			want: []string{"AML-001", "AML-003"}, missing: true},
		{name: "missing rate small amount", txType: "CASH_DEPOSIT", amount: "4000", currency: "EUR", want: []string{}, missing: true},
		{name: "structuring 3 in 24h exceeding", txType: "TRANSFER", amount: "1000000.01",
			edit: func(e *screening.Enrichment) { e.History.Count24h = 2; e.History.Sum24hNGN = dec("9000000") },
			want: []string{"AML-003"}},
		{name: "structuring 3 in 24h equal is not exceeding", txType: "TRANSFER", amount: "1000000",
			edit: func(e *screening.Enrichment) { e.History.Count24h = 2; e.History.Sum24hNGN = dec("9000000") },
			want: []string{}},
		{name: "structuring only 2 in 24h", txType: "TRANSFER", amount: "1000000",
			edit: func(e *screening.Enrichment) { e.History.Count24h = 1; e.History.Sum24hNGN = dec("9500000") },
			want: []string{}},
		{name: "structuring cash threshold", txType: "CASH_DEPOSIT", amount: "2000000",
			edit: func(e *screening.Enrichment) { e.History.Count24h = 2; e.History.Sum24hNGN = dec("3000000.01") },
			want: []string{"AML-003"}},
		{name: "pep", txType: "TRANSFER", amount: "1000",
			edit: func(e *screening.Enrichment) {
				e.PEPHits = []screening.NameHit{{List: "NG PEP", ListType: screening.ListPEP, MatchedName: "Ada Obi", Score: 0.9}}
			},
			want: []string{"AML-004"}},
		{name: "international transfer to NG", txType: "INTERNATIONAL_TRANSFER", amount: "1000", want: []string{"AML-005"}},
		{name: "foreign receiver country", txType: "TRANSFER", amount: "1000", country: "GB", want: []string{"AML-005"}},
		{name: "no receiver country", txType: "TRANSFER", amount: "1000", country: "-", want: []string{}},
		{name: "dormant 180 days", txType: "TRANSFER", amount: "1000",
			edit: func(e *screening.Enrichment) { e.History.LastActivityAt = ago(180 * day) }, want: []string{"AML-006"}},
		{name: "dormant just under 180 days", txType: "TRANSFER", amount: "1000",
			edit: func(e *screening.Enrichment) { e.History.LastActivityAt = ago(180*day - time.Second) }, want: []string{}},
		{name: "new account is not dormant", txType: "TRANSFER", amount: "1000", want: []string{}},
		{name: "rapid 5th in 60m", txType: "TRANSFER", amount: "1000",
			edit: func(e *screening.Enrichment) { e.History.Count60m = 4 }, want: []string{"AML-007"}},
		{name: "rapid 4th in 60m", txType: "TRANSFER", amount: "1000",
			edit: func(e *screening.Enrichment) { e.History.Count60m = 3 }, want: []string{}},
		{name: "tier 1 exceeded", txType: "TRANSFER", amount: "50000.01", tier: "TIER_1", want: []string{"AML-008"}},
		{name: "tier 1 at limit", txType: "TRANSFER", amount: "50000", tier: "TIER_1", want: []string{"AML-009"}},
		{name: "tier 1 at 80%", txType: "TRANSFER", amount: "40000", tier: "TIER_1", want: []string{"AML-009"}},
		{name: "tier 1 below 80%", txType: "TRANSFER", amount: "39999.99", tier: "TIER_1", want: []string{}},
		{name: "tier 2 near", txType: "TRANSFER", amount: "160000", tier: "TIER_2", want: []string{"AML-009"}},
		{name: "tier 1 exceeded in usd", txType: "TRANSFER", amount: "32.26", currency: "USD", tier: "TIER_1",
			want: []string{"AML-008"}, fxRate: "1550"},
		{name: "tenant tier limits", txType: "TRANSFER", amount: "60000", tier: "TIER_1",
			edit: func(e *screening.Enrichment) {
				e.Config.TierLimits = map[string]decimal.Decimal{"TIER_1": dec("100000")}
			},
			want: []string{}},
		{name: "tier 3 cash at threshold", txType: "CASH_DEPOSIT", amount: "5000000", tier: "TIER_3",
			want: []string{"AML-001", "AML-003", "AML-009"}},
	}
	eng := screening.NewRegulatoryEngine()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tx := baseTx()
			tx.Type, tx.Amount, tx.Currency = tc.txType, dec(tc.amount), tc.currency
			switch tc.country {
			case "":
			case "-":
				tx.ReceiverCountry = ""
			default:
				tx.ReceiverCountry = tc.country
			}
			tx.Normalize()
			e := baseEnrichment()
			e.KYC.Tier = tc.tier
			if tc.edit != nil {
				tc.edit(e)
			}
			v, err := eng.Evaluate(context.Background(), tx, e)
			require.NoError(t, err)
			require.Equal(t, tc.want, ids(v))
			require.Equal(t, tc.missing, contains(v.Actions, rules.ActionFXRateMissing))
			if tc.fxRate == "" {
				require.Nil(t, v.FX)
			} else {
				require.NotNil(t, v.FX)
				require.True(t, dec(tc.fxRate).Equal(v.FX.RateToNGN))
				require.Equal(t, tx.Currency, v.FX.Currency)
				require.True(t, tx.Amount.Mul(v.FX.RateToNGN).Round(2).Equal(v.FX.AmountNGN))
			}
			for _, r := range v.RulesTriggered {
				m, ok := rules.MandatoryRule(r.ID)
				require.True(t, ok)
				require.Equal(t, m.Name, r.Name)
				require.Equal(t, screening.CategoryRegulatory, r.Category)
				require.GreaterOrEqual(t, v.Score, r.RiskScore)
				for _, a := range m.Actions {
					require.Contains(t, v.Actions, a)
				}
			}
			if len(tc.want) == 0 {
				require.Equal(t, 0, v.Score)
				require.Equal(t, rules.Approve, v.Outcome)
			}
		})
	}
}

func TestRegulatoryScoreAndOutcome(t *testing.T) {
	t.Parallel()
	eng := screening.NewRegulatoryEngine()
	tx := baseTx()
	tx.Amount = dec("50000.01")
	e := baseEnrichment()
	e.KYC.Tier = "TIER_1"
	e.History.Count60m = 4
	v, err := eng.Evaluate(context.Background(), tx, e)
	require.NoError(t, err)
	require.Equal(t, []string{"AML-007", "AML-008"}, ids(v))
	require.Equal(t, 90, v.Score)
	require.Equal(t, rules.Block, v.Outcome)
	require.Equal(t, []string{rules.ActionCreateCase, rules.ActionPromptTierUpgrade}, v.Actions)
}

func TestConvertToNGN(t *testing.T) {
	t.Parallel()
	rates := baseEnrichment().Config.FXRates
	amt, fx, missing := screening.ConvertToNGN(dec("100"), "NGN", rates)
	require.True(t, amt.Equal(dec("100")))
	require.Nil(t, fx)
	require.False(t, missing)

	amt, fx, missing = screening.ConvertToNGN(dec("10.555"), "gbp", rates)
	require.False(t, missing)
	require.Equal(t, "21115.28", amt.StringFixed(2)) // 10.555 × 2000.50 = 21115.27775
	require.Equal(t, "GBP", fx.Currency)
	require.Equal(t, t0.Add(-time.Hour), fx.RateUpdatedAt)

	amt, fx, missing = screening.ConvertToNGN(dec("100"), "EUR", rates)
	require.True(t, missing)
	require.Nil(t, fx)
	require.True(t, amt.Equal(dec("100")))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRegulatoryReasons: the reasons the mandatory rules give, which the case page and the
// transaction page show as they come, read as people write (issue 50 point 4): amounts as
// "₦12,500,000.00" from the decimal, tiers and transaction types in words ("12500000.00 NGN
// exceeds the TIER_1 limit of 50000.00 NGN" before).
func TestRegulatoryReasons(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, txType, amount, tier, country string
		edit                                func(e *screening.Enrichment)
		want                                map[string]string
	}{
		{name: "tier 1 exceeded", txType: "TRANSFER", amount: "12500000", tier: "TIER_1", want: map[string]string{
			"AML-002": "transfer of ₦12,500,000.00 is at or above the ₦10,000,000.00 threshold",
			"AML-003": "₦12,500,000.00 is at or above 80% of the ₦10,000,000.00 threshold",
			"AML-008": "₦12,500,000.00 exceeds the tier 1 limit of ₦50,000.00",
		}},
		{name: "cash near tier 3", txType: "CASH_DEPOSIT", amount: "5000000", tier: "TIER_3", want: map[string]string{
			"AML-001": "cash deposit of ₦5,000,000.00 is at or above the ₦5,000,000.00 threshold",
			"AML-003": "₦5,000,000.00 is at or above 80% of the ₦5,000,000.00 threshold",
			"AML-009": "₦5,000,000.00 is at or above 80% of the tier 3 limit of ₦5,000,000.00",
		}},
		{name: "structuring over 24 hours", txType: "TRANSFER", amount: "1000000.01",
			edit: func(e *screening.Enrichment) { e.History.Count24h = 2; e.History.Sum24hNGN = dec("9000000") },
			want: map[string]string{"AML-003": "3 transactions in 24 hours total ₦10,000,000.01, above the ₦10,000,000.00 threshold"}},
		{name: "foreign", txType: "INTERNATIONAL_TRANSFER", amount: "1000", country: "GB", want: map[string]string{
			"AML-005": `international transfer, receiver country "GB"`,
		}},
	}
	eng := screening.NewRegulatoryEngine()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tx := baseTx()
			tx.Type, tx.Amount = tc.txType, dec(tc.amount)
			if tc.country != "" {
				tx.ReceiverCountry = tc.country
			}
			tx.Normalize()
			e := baseEnrichment()
			e.KYC.Tier = tc.tier
			if tc.edit != nil {
				tc.edit(e)
			}
			v, err := eng.Evaluate(context.Background(), tx, e)
			require.NoError(t, err)
			got := map[string]string{}
			for _, r := range v.RulesTriggered {
				got[r.ID] = r.Details
			}
			require.Equal(t, tc.want, got)
		})
	}
}
