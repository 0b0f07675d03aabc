package customers

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRate covers each factor, the band edges (24/25, 49/50) and the floors.
func TestRate(t *testing.T) {
	t.Parallel()
	approved := Inputs{Type: "INDIVIDUAL", KYCStatus: "APPROVED", KYCTier: "TIER_3"}
	with := func(f func(*Inputs)) Inputs { in := approved; f(&in); return in }
	for _, tc := range []struct {
		name   string
		in     Inputs
		rating string
		score  int
	}{
		{"approved tier 3, nothing else", approved, RatingLow, 0},
		{"approved tier 1", with(func(in *Inputs) { in.KYCTier = "TIER_1" }), RatingLow, 10},
		{"no KYC: 25 is MEDIUM", with(func(in *Inputs) { in.KYCStatus = "" }), RatingMedium, 25},
		{"pending KYC", with(func(in *Inputs) { in.KYCStatus = "BVN_VERIFIED" }), RatingLow, 15},
		{"pending KYC + 1 open case: 25", with(func(in *Inputs) {
			in.KYCStatus = "BVN_VERIFIED"
			in.Cases = []CaseFact{{"AML_ALERT", "OPEN"}}
		}), RatingMedium, 25},
		{"rejected KYC + alerts: 40+5 = 45", with(func(in *Inputs) { in.KYCStatus = "REJECTED"; in.Alerts90d = 3 }), RatingMedium, 45},
		{"rejected KYC + 5 alerts: 50 is HIGH", with(func(in *Inputs) { in.KYCStatus = "REJECTED"; in.Alerts90d = 5 }), RatingHigh, 50},
		{"business without KYB", Inputs{Type: "BUSINESS", KYCStatus: "APPROVED"}, RatingMedium, 25},
		{"business with KYB", Inputs{Type: "BUSINESS", KYBStatus: "APPROVED"}, RatingLow, 0},
		{"PEP floor", with(func(in *Inputs) { in.Cases = []CaseFact{{"PEP_MATCH", "RESOLVED_TRUE_POSITIVE"}} }), RatingHigh, 55},
		{"PEP false positive ignored", with(func(in *Inputs) { in.Cases = []CaseFact{{"PEP_MATCH", "RESOLVED_FALSE_POSITIVE"}} }), RatingLow, 0},
		{"sanctions hit", with(func(in *Inputs) { in.Cases = []CaseFact{{"SANCTIONS_HIT", "OPEN"}} }), RatingHigh, 50},
		{"call-for-action country floor", with(func(in *Inputs) { in.Countries = []string{"NG", "IR"} }), RatingHigh, 30},
		{"grey-list country", with(func(in *Inputs) { in.Countries = []string{"KE"} }), RatingLow, 15},
		{"cross-border and cash", with(func(in *Inputs) { in.Transactions90d = 8; in.CrossBorder90d = 2; in.Cash90d = 4 }), RatingLow, 20},
		{"alerts capped at 20", with(func(in *Inputs) { in.Alerts90d = 100 }), RatingLow, 20},
		{"cases capped", with(func(in *Inputs) {
			in.Cases = []CaseFact{{"AML_ALERT", "OPEN"}, {"AML_ALERT", "IN_PROGRESS"}, {"AML_ALERT", "ESCALATED"},
				{"AML_ALERT", "RESOLVED_TRUE_POSITIVE"}, {"AML_ALERT", "RESOLVED_TRUE_POSITIVE"}, {"AML_ALERT", "RESOLVED_TRUE_POSITIVE"}}
		}), RatingHigh, 70},
		{"score capped at 100", with(func(in *Inputs) {
			in.KYCStatus = "REJECTED"
			in.Alerts90d = 30
			in.Countries = []string{"KP"}
			in.Cases = []CaseFact{{"SANCTIONS_HIT", "OPEN"}}
		}), RatingHigh, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Rate(tc.in)
			require.Equal(t, tc.rating, r.Rating, "%+v", r.Factors)
			require.Equal(t, tc.score, r.Score, "%+v", r.Factors)
		})
	}
}

func TestNextReview(t *testing.T) {
	t.Parallel()
	first := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reviewed := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	require.Equal(t, first.AddDate(0, 0, 365), NextReview(RatingHigh, nil, first))
	require.Equal(t, first.AddDate(0, 0, 730), NextReview(RatingMedium, nil, first))
	require.Equal(t, first.AddDate(0, 0, 1095), NextReview(RatingLow, nil, first))
	require.Equal(t, reviewed.AddDate(0, 0, 365), NextReview(RatingHigh, &reviewed, first))
}

// TestRateReasonsPlurals: the factor details a customer page shows read "1 open case", "2 open cases".
func TestRateReasonsPlurals(t *testing.T) {
	t.Parallel()
	reasons := func(in Inputs) map[string]string {
		out := map[string]string{}
		for _, f := range Rate(in).Factors {
			out[f.Name] = f.Detail
		}
		return out
	}
	one := reasons(Inputs{Type: "INDIVIDUAL", KYCStatus: "APPROVED", KYCTier: "TIER_3", Alerts90d: 1,
		Cases: []CaseFact{{"AML_ALERT", "OPEN"}, {"AML_ALERT", "RESOLVED_TRUE_POSITIVE"}}})
	require.Equal(t, "1 open case", one["OPEN_CASES"])
	require.Equal(t, "1 case resolved as true positive", one["CONFIRMED_CASES"])
	require.Equal(t, "1 screening alert in 90 days", one["ALERTS"])
	two := reasons(Inputs{Type: "INDIVIDUAL", KYCStatus: "APPROVED", KYCTier: "TIER_3", Alerts90d: 2,
		Cases: []CaseFact{{"AML_ALERT", "OPEN"}, {"AML_ALERT", "ESCALATED"}, {"AML_ALERT", "RESOLVED_TRUE_POSITIVE"}, {"AML_ALERT", "RESOLVED_TRUE_POSITIVE"}}})
	require.Equal(t, "2 open cases", two["OPEN_CASES"])
	require.Equal(t, "2 cases resolved as true positive", two["CONFIRMED_CASES"])
	require.Equal(t, "2 screening alerts in 90 days", two["ALERTS"])
}
