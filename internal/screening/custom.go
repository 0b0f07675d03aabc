package screening

import (
	"context"
	"fmt"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// CustomRulesEngine evaluates the tenant's enabled CEL rules (docs/design/design-choices.md §8, §10).
type CustomRulesEngine struct {
	cache *rules.Cache
	// OnRuleError, when set, is told of each rule that could not be evaluated for a screening
	// (the wiring logs it); the screening goes on without that rule.
	OnRuleError func(ctx context.Context, tenant tenancy.TenantID, ruleID string, err error)
}

// NewCustomRulesEngine returns the Custom Rules engine; programs come from cache, so each
// expression compiles once per process.
func NewCustomRulesEngine(cache *rules.Cache) *CustomRulesEngine {
	if cache == nil {
		panic("screening.NewCustomRulesEngine: nil cache")
	}
	return &CustomRulesEngine{cache: cache}
}

// Category implements Engine.
func (c *CustomRulesEngine) Category() string { return CategoryCustom }

// Inline implements InlineEngine: the engine only computes in memory.
func (c *CustomRulesEngine) Inline() bool { return true }

// Evaluate runs every enabled, non-mandatory rule of e.Rules. A true rule triggers with its
// score and outcome and carries createdBy; the engine's score and outcome are the maxima.
// A rule that cannot be evaluated for this transaction (a runtime error, such as a metadata key
// the transaction does not carry, or the cost limit; or an expression that no longer compiles)
// does not trigger and is reported to OnRuleError: one tenant rule must not make every
// screening of the tenant fail (docs/guide/screening.md "Custom Rules").
func (c *CustomRulesEngine) Evaluate(ctx context.Context, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	b := newVerdict(CategoryCustom)
	var in *rules.Input
	for i := range e.Rules {
		r := &e.Rules[i]
		if !r.Enabled || r.Mandatory {
			continue
		}
		prg, err := c.cache.Program(r.Expression)
		if err != nil {
			c.ruleError(ctx, tx, r.ID, fmt.Errorf("compile: %w", err))
			continue
		}
		if in == nil {
			in = RuleInput(tx, e)
		}
		hit, err := prg.Eval(ctx, in)
		if err != nil {
			if ctx.Err() != nil { // the engine's deadline, not the rule: the pipeline reports it
				return EngineVerdict{}, ctx.Err()
			}
			c.ruleError(ctx, tx, r.ID, err)
			continue
		}
		if !hit {
			continue
		}
		details := r.Description
		if details == "" {
			details = r.Expression
		}
		b.trigger(TriggeredRule{ID: r.ID, Name: r.Name, RiskScore: r.Score, Outcome: r.Outcome,
			Details: details, CreatedBy: r.CreatedBy, RuleVersion: r.Version}, rules.OutcomeActions(r.Outcome)...)
	}
	v := b.verdict()
	if len(e.Shadows) > 0 {
		// Same pass, same CEL input: a shadow rule costs one evaluation (docs/guide/rules.md "Cost").
		v.shadow = c.evalShadows(ctx, tx, e, in)
	}
	return v, nil
}

// ruleVersions are the versions of the rules the Custom Rules engine evaluates (the enabled,
// non-mandatory ones), which the verdict stores: a rule that was evaluated and did not fire
// decided the transaction as much as one that fired.
func ruleVersions(rs []rules.Rule) map[string]int {
	out := make(map[string]int, len(rs))
	for i := range rs {
		if r := &rs[i]; r.Enabled && !r.Mandatory {
			out[r.ID] = r.Version
		}
	}
	return out
}

func (c *CustomRulesEngine) ruleError(ctx context.Context, tx *Transaction, ruleID string, err error) {
	if c.OnRuleError != nil {
		c.OnRuleError(ctx, tx.TenantID, ruleID, err)
	}
}

// RuleInput builds the CEL input of tx and e (the variables documented in internal/rules).
func RuleInput(tx *Transaction, e *Enrichment) *rules.Input {
	amt, _, missing := e.AmountNGN(tx)
	cash := rules.IsCashType(tx.Type)
	threshold := transferThreshold
	if cash {
		threshold = cashThreshold
	}
	var tierLimit int64
	if l, ok := TierLimit(e.Config, e.KYC.Tier); ok {
		tierLimit = toMinor(l)
	}
	days, _ := dormantDays(e.History.LastActivityAt, tx.Timestamp)
	md := tx.Metadata
	if md == nil {
		md = map[string]any{}
	}
	return &rules.Input{
		Tx: rules.TxInput{
			Type: tx.Type, Channel: tx.Channel, Currency: tx.Currency,
			Amount: tx.Amount.String(), AmountMinor: toMinor(tx.Amount),
			Narration: tx.Narration, SenderAccountNumber: tx.SenderAccountNumber, SenderName: tx.SenderName,
			SenderBankCode: tx.SenderBankCode, ReceiverAccountNumber: tx.ReceiverAccountNumber,
			ReceiverName: tx.ReceiverName, ReceiverBankCode: tx.ReceiverBankCode, ReceiverCountry: tx.ReceiverCountry,
			DeviceID: tx.DeviceID, IPAddress: tx.IPAddress, EntityType: tx.EntityType,
			Hour: int64(tx.Timestamp.UTC().Hour()), Metadata: md,
			Remittance: tx.remittanceText(), Purpose: tx.purposeCode(),
		},
		Ctx: rules.ContextInput{
			AmountNgn: amt.StringFixed(2), AmountNgnKobo: toMinor(amt), FXMissing: missing,
			Count24h: int64(e.History.Count24h), Sum24hNgn: e.History.Sum24hNGN.StringFixed(2),
			Sum24hNgnKobo: toMinor(e.History.Sum24hNGN), Count60m: int64(e.History.Count60m),
			DormantDays: int64(days), KYCStatus: e.KYC.Status, KYCTier: e.KYC.Tier, KYCSource: e.KYC.Source,
			KYBStatus: e.KYB.Status, TierLimitNgnKobo: tierLimit, ThresholdNgnKobo: toMinor(threshold),
			PEP: len(e.PEPHits) > 0,
		},
	}
}
