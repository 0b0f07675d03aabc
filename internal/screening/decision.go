package screening

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/prose"
	"github.com/complyd/complyd/internal/rules"
)

// DecisionConfig holds the Decision Engine's built-in heuristics (docs/design/design-choices.md §8).
type DecisionConfig struct {
	// Keywords are lower-case words or phrases matched on whole words in the narration.
	Keywords []string
	// CallForAction are FATF "black list" countries (ISO 3166-1 alpha-2): 90, BLOCK.
	CallForAction []string
	// Monitored are FATF "grey list" countries: 50, REVIEW, enhanced due diligence.
	Monitored []string
	// AnomalyMinHistory is the number of earlier amounts needed before the anomaly check runs.
	AnomalyMinHistory int
	// AnomalySigmas and AnomalyMultiple: an amount is anomalous when it exceeds both
	// mean + AnomalySigmas × stddev and AnomalyMultiple × mean of the account's history.
	AnomalySigmas   int64
	AnomalyMultiple int64
}

// DefaultDecisionConfig returns the built-in lists. The FATF lists are as published in
// October 2025 (high-risk jurisdictions subject to a call for action, and jurisdictions under
// increased monitoring); they change three times a year and must be reviewed with each plenary.
func DefaultDecisionConfig() DecisionConfig {
	return DecisionConfig{
		Keywords: []string{
			"terror", "terrorism", "isis", "jihad", "ransom", "kidnap", "weapon", "weapons", "arms deal",
			"ammunition", "explosive", "drug", "drugs", "cocaine", "heroin", "narcotics", "launder",
			"laundering", "smuggling", "bribe", "bribery", "kickback", "gratification", "hawala",
			"yahoo", "419", "fraud", "scam", "ponzi", "human trafficking", "sanction evasion",
		},
		CallForAction: []string{"KP", "IR", "MM"},
		Monitored: []string{"DZ", "AO", "BO", "BG", "CM", "CI", "CD", "HT", "KE", "LA", "LB", "MC",
			"NA", "NP", "SS", "SY", "VE", "VN", "YE", "VG"},
		AnomalyMinHistory: 10,
		AnomalySigmas:     3,
		AnomalyMultiple:   3,
	}
}

// DecisionEngine applies the built-in heuristics: high-risk narration keywords, high-risk
// jurisdictions, and an amount far outside the account's own history.
type DecisionEngine struct {
	cfg           DecisionConfig
	callForAction map[string]bool
	monitored     map[string]bool
}

// NewDecisionEngine returns the Decision Engine with cfg.
func NewDecisionEngine(cfg DecisionConfig) *DecisionEngine {
	d := &DecisionEngine{cfg: cfg, callForAction: map[string]bool{}, monitored: map[string]bool{}}
	for _, c := range cfg.CallForAction {
		d.callForAction[strings.ToUpper(c)] = true
	}
	for _, c := range cfg.Monitored {
		d.monitored[strings.ToUpper(c)] = true
	}
	return d
}

// Category implements Engine.
func (d *DecisionEngine) Category() string { return CategoryDecision }

// Inline implements InlineEngine: the engine only computes in memory.
func (d *DecisionEngine) Inline() bool { return true }

// Evaluate applies the heuristics; the engine score and outcome are the maxima of those that fire:
//   - HEUR-NARRATION: a keyword in the narration → 50, REVIEW, enhanced due diligence.
//   - HEUR-JURISDICTION: receiver country on the call-for-action list → 90, BLOCK; on the
//     monitored list → 50, REVIEW; both with enhanced due diligence.
//   - HEUR-AMOUNT: with at least AnomalyMinHistory earlier amounts, the NGN amount exceeds both
//     mean + 3σ and 3 × mean → 45, REVIEW.
func (d *DecisionEngine) Evaluate(ctx context.Context, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	if err := ctx.Err(); err != nil {
		return EngineVerdict{}, err
	}
	b := newVerdict(CategoryDecision)
	if kw := d.keyword(tx.Narration); kw != "" {
		b.trigger(TriggeredRule{ID: "HEUR-NARRATION", Name: "High-Risk Narration", RiskScore: 50, Outcome: rules.Review,
			Details: fmt.Sprintf("narration contains %q", kw)}, rules.ActionEnhancedDueDiligence, rules.ActionNotifyOfficer)
	}
	callForAction, monitored := d.callForAction, d.monitored
	if cr := e.Countries; cr != nil {
		callForAction, monitored = cr.CallForAction, cr.Monitored
	}
	c := tx.ReceiverCountry
	// A payment message names more countries (its parties' and agents'): the riskiest decides.
	for _, pc := range tx.Countries() {
		if callForAction[pc] || (monitored[pc] && !callForAction[c]) {
			c = pc
		}
	}
	who := "receiver country"
	if c != tx.ReceiverCountry {
		who = "payment message party country"
	}
	switch {
	case callForAction[c]:
		b.trigger(TriggeredRule{ID: "HEUR-JURISDICTION", Name: "High-Risk Jurisdiction", RiskScore: 90, Outcome: rules.Block,
			Details: fmt.Sprintf("%s %s is subject to a FATF call for action", who, c)},
			rules.ActionEnhancedDueDiligence, rules.ActionNotifyCompliance, rules.ActionCreateCase)
	case monitored[c]:
		b.trigger(TriggeredRule{ID: "HEUR-JURISDICTION", Name: "High-Risk Jurisdiction", RiskScore: 50, Outcome: rules.Review,
			Details: fmt.Sprintf("%s %s is under FATF increased monitoring", who, c)},
			rules.ActionEnhancedDueDiligence, rules.ActionNotifyOfficer)
	}
	st := e.History.Amounts
	if st.Count >= d.cfg.AnomalyMinHistory && st.Mean.IsPositive() {
		amt, _, _ := e.AmountNGN(tx)
		bound := st.Mean.Add(st.StdDev.Mul(decimal.NewFromInt(d.cfg.AnomalySigmas)))
		multiple := st.Mean.Mul(decimal.NewFromInt(d.cfg.AnomalyMultiple))
		if amt.GreaterThan(bound) && amt.GreaterThan(multiple) {
			b.trigger(TriggeredRule{ID: "HEUR-AMOUNT", Name: "Amount Anomaly", RiskScore: 45, Outcome: rules.Review,
				Details: fmt.Sprintf("%s is above mean %s + %dσ (σ %s) and %d× the mean over %d transactions",
					prose.Naira(amt), prose.Naira(st.Mean), d.cfg.AnomalySigmas, prose.Naira(st.StdDev), d.cfg.AnomalyMultiple, st.Count)},
				rules.ActionNotifyOfficer)
		}
	}
	return b.verdict(), nil
}

// keyword returns the first configured keyword found on word boundaries in narration, or "".
func (d *DecisionEngine) keyword(narration string) string {
	if narration == "" {
		return ""
	}
	words := strings.FieldsFunc(strings.ToLower(narration), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	text := " " + strings.Join(words, " ") + " "
	for _, kw := range d.cfg.Keywords {
		if strings.Contains(text, " "+kw+" ") {
			return kw
		}
	}
	return ""
}
