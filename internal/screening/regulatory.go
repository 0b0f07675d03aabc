package screening

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/prose"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

var (
	cashThreshold     = decimal.NewFromInt(rules.CashThresholdNGN)
	transferThreshold = decimal.NewFromInt(rules.TransferThresholdNGN)
	hundred           = decimal.NewFromInt(100)
)

// RegulatoryEngine evaluates the mandatory rules AML-001..AML-009 (docs/reference/specification.md 4.3) in Go,
// on exact decimal NGN-equivalent amounts. Scores, outcomes and actions come from the
// rules.Mandatory catalogue so GET /rules and the engine never disagree.
type RegulatoryEngine struct {
	catalogue map[string]rules.Rule
}

// NewRegulatoryEngine returns the Regulatory Compliance engine.
func NewRegulatoryEngine() *RegulatoryEngine {
	m := make(map[string]rules.Rule, 9)
	for _, r := range rules.Mandatory() {
		m[r.ID] = r
	}
	return &RegulatoryEngine{catalogue: m}
}

// Category implements Engine.
func (r *RegulatoryEngine) Category() string { return CategoryRegulatory }

// Inline implements InlineEngine: the engine only computes in memory.
func (r *RegulatoryEngine) Inline() bool { return true }

// Evaluate applies AML-001..AML-009 to tx. PEP hits come from e.PEPHits, which the Pipeline
// fills from the sanctions stage. History counts exclude this transaction; the rules add it.
func (r *RegulatoryEngine) Evaluate(ctx context.Context, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	if err := ctx.Err(); err != nil {
		return EngineVerdict{}, err
	}
	b := newVerdict(CategoryRegulatory)
	amt, fx, missing := e.AmountNGN(tx)
	b.v.FX = fx
	fire := func(id, details string) {
		rule := r.catalogue[id]
		b.trigger(TriggeredRule{ID: rule.ID, Name: rule.Name, RiskScore: rule.Score, Outcome: rule.Outcome,
			Details: details, CreatedBy: rules.MandatoryCreatedBy}, rule.Actions...)
	}
	// Amounts and wire values in words, as the case page shows them (issue 50 point 4); spelled
	// only when a rule fires, off the path of the screenings that fire none.
	ngn := prose.Naira
	kind := func() string { return prose.Enum(tx.Type) }

	cash := rules.IsCashType(tx.Type)
	threshold := transferThreshold
	if cash {
		threshold = cashThreshold
	}
	// AML-001, AML-002: at or above the reporting threshold.
	if cash && amt.GreaterThanOrEqual(cashThreshold) {
		fire(rules.AML001, fmt.Sprintf("%s of %s is at or above the %s threshold", kind(), ngn(amt), ngn(cashThreshold)))
	}
	if !cash && amt.GreaterThanOrEqual(transferThreshold) {
		fire(rules.AML002, fmt.Sprintf("%s of %s is at or above the %s threshold", kind(), ngn(amt), ngn(transferThreshold)))
	}
	// AML-003: one transaction at or above 80 % of its threshold, or 3+ in 24 h (this one
	// included) whose NGN sum exceeds the threshold.
	count24h := e.History.Count24h + 1
	sum24h := e.History.Sum24hNGN.Add(amt)
	switch {
	case amt.Mul(hundred).GreaterThanOrEqual(threshold.Mul(decimal.NewFromInt(rules.StructuringPercent))):
		fire(rules.AML003, fmt.Sprintf("%s is at or above %d%% of the %s threshold", ngn(amt), rules.StructuringPercent, ngn(threshold)))
	case count24h >= rules.StructuringCount && sum24h.GreaterThan(threshold):
		fire(rules.AML003, fmt.Sprintf("%d transactions in 24 hours total %s, above the %s threshold", count24h, ngn(sum24h), ngn(threshold)))
	}
	// AML-004: the sender is a PEP.
	if len(e.PEPHits) > 0 {
		h := e.PEPHits[0]
		fire(rules.AML004, fmt.Sprintf("sender matched PEP %q on %s (entry %s, score %.2f)", h.MatchedName, h.List, h.EntryID, h.Score))
	}
	// AML-005: foreign transfer.
	if tx.Type == "INTERNATIONAL_TRANSFER" || (tx.ReceiverCountry != "" && tx.ReceiverCountry != "NG") {
		fire(rules.AML005, fmt.Sprintf("%s, receiver country %q", kind(), tx.ReceiverCountry))
	} else if c := foreignCountry(tx); c != "" {
		// A payment message's other parties and agents count too (an ultimate creditor abroad).
		fire(rules.AML005, fmt.Sprintf("%s, a party of the payment message is in %q", kind(), c))
	}
	// AML-006: dormant for 180 days or more before this transaction.
	if days, ok := dormantDays(e.History.LastActivityAt, tx.Timestamp); ok && days >= rules.DormancyDays {
		fire(rules.AML006, fmt.Sprintf("no activity for %d days (last %s)", days, e.History.LastActivityAt.UTC().Format(time.RFC3339)))
	}
	// AML-007: 5 or more in 60 minutes, this one included.
	if n := e.History.Count60m + 1; n >= rules.RapidSuccessionCount {
		fire(rules.AML007, fmt.Sprintf("%d transactions within 60 minutes including this one", n))
	}
	// AML-008, AML-009: the sender tier's single-transaction limit.
	if limit, ok := TierLimit(e.Config, e.KYC.Tier); ok {
		switch {
		case amt.GreaterThan(limit):
			fire(rules.AML008, fmt.Sprintf("%s exceeds the %s limit of %s", ngn(amt), prose.Enum(e.KYC.Tier), ngn(limit)))
		case amt.Mul(hundred).GreaterThanOrEqual(limit.Mul(decimal.NewFromInt(rules.NearTierPercent))):
			fire(rules.AML009, fmt.Sprintf("%s is at or above %d%% of the %s limit of %s", ngn(amt), rules.NearTierPercent, prose.Enum(e.KYC.Tier), ngn(limit)))
		}
	}
	if missing {
		b.action(rules.ActionFXRateMissing)
	}
	return b.verdict(), nil
}

// TierLimit returns the single-transaction NGN limit of tier from the tenant's configuration,
// falling back to docs/design/design-choices.md §7's defaults when the tenant has none configured. ok is false
// for an unknown or empty tier: no tier rule applies then.
func TierLimit(cfg tenancy.Config, tier string) (decimal.Decimal, bool) {
	limits := cfg.TierLimits
	if len(limits) == 0 {
		limits = tenancy.DefaultTierLimits()
	}
	l, ok := limits[strings.ToUpper(tier)]
	if !ok || !l.IsPositive() {
		return decimal.Decimal{}, false
	}
	return l, true
}

// dormantDays returns the whole days between the last activity and at; ok is false without history.
func dormantDays(last *time.Time, at time.Time) (int, bool) {
	if last == nil || last.IsZero() {
		return 0, false
	}
	d := at.Sub(*last)
	if d < 0 {
		return 0, true
	}
	return int(d / (24 * time.Hour)), true
}

// foreignCountry returns the first country of tx's payment message parties that is not NG, or "".
func foreignCountry(tx *Transaction) string {
	for _, c := range tx.Countries() {
		if c != "NG" {
			return c
		}
	}
	return ""
}
