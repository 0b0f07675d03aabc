package postgres

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
)

// engineJSON is one engine verdict as stored in transactions.engine_verdicts (docs/guide/screening.md
// "Storage"): the verdict with its triggered rules in full, its fx and its sanctions hits.
//
// A zero score, a zero latency and the outcome APPROVE are left out (decodeVerdicts restores
// them): most of a verdict's engines answer just that, and the verdicts are three quarters of a
// stored screening's row and of its WAL (about 240 of 1,150 bytes of jsonb for a verdict of six
// engines, four of them silent). Rows stored before keep the fields and read the same.
type engineJSON struct {
	Category   string     `json:"category"`
	Score      int        `json:"score,omitempty"`
	Outcome    string     `json:"outcome,omitempty"`
	Rules      []ruleJSON `json:"rules,omitempty"`
	LatencyMs  int64      `json:"latencyMs,omitempty"`
	Skipped    bool       `json:"skipped,omitempty"`
	SkipReason string     `json:"skipReason,omitempty"`
	FX         *fxJSON    `json:"fx,omitempty"`
	Actions    []string   `json:"actions,omitempty"`
	Hits       []hitJSON  `json:"hits,omitempty"`
}

type ruleJSON struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	RiskScore      int    `json:"riskScore"`
	Outcome        string `json:"outcome"`
	Details        string `json:"details,omitempty"`
	CreatedBy      string `json:"createdBy,omitempty"`
	KYCSource      string `json:"kycSource,omitempty"`
	KYCExternalRef string `json:"kycExternalRef,omitempty"`
	RuleVersion    int    `json:"ruleVersion,omitempty"` // custom rules (docs/design/engines.md "Rule versions")
}

type fxJSON struct {
	Currency      string    `json:"currency"`
	RateToNGN     string    `json:"rateToNgn"`
	Amount        string    `json:"amount"`
	AmountNGN     string    `json:"amountNgn"`
	RateUpdatedAt time.Time `json:"rateUpdatedAt"`
}

type hitJSON struct {
	Party       string  `json:"party"`
	List        string  `json:"list"`
	ListType    string  `json:"listType"`
	EntryID     string  `json:"entryId"`
	SourceID    string  `json:"sourceId,omitempty"`
	Name        string  `json:"name"`
	MatchedName string  `json:"matchedName"`
	Score       float64 `json:"score"`
}

func fxToJSON(f *screening.FX) *fxJSON {
	if f == nil {
		return nil
	}
	return &fxJSON{Currency: f.Currency, RateToNGN: f.RateToNGN.String(), Amount: f.Amount.String(),
		AmountNGN: f.AmountNGN.StringFixed(2), RateUpdatedAt: f.RateUpdatedAt}
}

func fxFromJSON(f *fxJSON) *screening.FX {
	if f == nil {
		return nil
	}
	return &screening.FX{Currency: f.Currency, RateToNGN: decimal.RequireFromString(f.RateToNGN),
		Amount: decimal.RequireFromString(f.Amount), AmountNGN: decimal.RequireFromString(f.AmountNGN), RateUpdatedAt: f.RateUpdatedAt}
}

// encodeVerdicts renders the breakdown for engine_verdicts.
func encodeVerdicts(vs []screening.EngineVerdict) ([]byte, error) {
	out := make([]engineJSON, len(vs))
	for i, v := range vs {
		e := engineJSON{Category: v.Category, Score: v.Score, Outcome: string(v.Outcome), LatencyMs: v.LatencyMs,
			Skipped: v.Skipped, SkipReason: v.SkipReason, FX: fxToJSON(v.FX), Actions: v.Actions}
		if v.Outcome == rules.Approve {
			e.Outcome = ""
		}
		for _, r := range v.RulesTriggered {
			e.Rules = append(e.Rules, ruleJSON{ID: r.ID, Name: r.Name, RiskScore: r.RiskScore, Outcome: string(r.Outcome),
				Details: r.Details, CreatedBy: r.CreatedBy, KYCSource: r.KYCSource, KYCExternalRef: r.KYCExternalRef,
				RuleVersion: r.RuleVersion})
		}
		for _, h := range v.Hits {
			e.Hits = append(e.Hits, hitJSON{Party: h.Party, List: h.List, ListType: h.ListType, EntryID: h.EntryID,
				SourceID: h.SourceID, Name: h.Name, MatchedName: h.MatchedName, Score: h.Score})
		}
		out[i] = e
	}
	return json.Marshal(out)
}

// decodeVerdicts reads engine_verdicts back into the breakdown and the triggered rules.
func decodeVerdicts(b []byte) ([]screening.EngineVerdict, []screening.TriggeredRule, error) {
	var in []engineJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, nil, err
	}
	out := make([]screening.EngineVerdict, len(in))
	var trig []screening.TriggeredRule
	for i, e := range in {
		if e.Outcome == "" {
			e.Outcome = string(rules.Approve)
		}
		v := screening.EngineVerdict{Category: e.Category, Score: e.Score, Outcome: rules.Outcome(e.Outcome), LatencyMs: e.LatencyMs,
			Skipped: e.Skipped, SkipReason: e.SkipReason, FX: fxFromJSON(e.FX), Actions: e.Actions}
		for _, r := range e.Rules {
			t := screening.TriggeredRule{ID: r.ID, Name: r.Name, Category: e.Category, RiskScore: r.RiskScore,
				Outcome: rules.Outcome(r.Outcome), Details: r.Details, CreatedBy: r.CreatedBy, KYCSource: r.KYCSource,
				KYCExternalRef: r.KYCExternalRef, RuleVersion: r.RuleVersion}
			v.RulesTriggered = append(v.RulesTriggered, t)
			trig = append(trig, t)
		}
		for _, h := range e.Hits {
			v.Hits = append(v.Hits, screening.PartyHit{Party: h.Party, NameHit: screening.NameHit{List: h.List, ListType: h.ListType,
				EntryID: h.EntryID, SourceID: h.SourceID, Name: h.Name, MatchedName: h.MatchedName, Score: h.Score}})
		}
		out[i] = v
	}
	return out, trig, nil
}
