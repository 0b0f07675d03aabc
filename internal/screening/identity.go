package screening

import (
	"context"
	"fmt"

	"github.com/complyd/complyd/internal/prose"
	"github.com/complyd/complyd/internal/rules"
)

// IdentityEngine scores the sender's KYC and, for business transactions, KYB
// (pipeline steps 5 and 6; docs/reference/specification.md 3.4, docs/design/design-choices.md §8).
type IdentityEngine struct{}

// NewIdentityEngine returns the Identity Verification engine.
func NewIdentityEngine() *IdentityEngine { return &IdentityEngine{} }

// Category implements Engine.
func (IdentityEngine) Category() string { return CategoryIdentity }

// Inline implements InlineEngine: the engine only computes in memory.
func (IdentityEngine) Inline() bool { return true }

// KYCPasses reports whether a resolved KYC status passes without risk: stored APPROVED or
// LIVENESS_PASSED, or an asserted VERIFIED. Everything else, NONE included, scores 100 BLOCK.
func KYCPasses(status string) bool {
	switch status {
	case "APPROVED", "LIVENESS_PASSED", "VERIFIED":
		return true
	}
	return false
}

// KYBPasses reports whether a resolved KYB status passes: only stored APPROVED or an asserted
// VERIFIED. The spec's conflicting 40/REVIEW values are not used (docs/reference/specification.md 3.4).
func KYBPasses(status string) bool { return status == "APPROVED" || status == "VERIFIED" }

// Evaluate scores e.KYC (always) and e.KYB (when required): a pass is 0 APPROVE and triggers
// nothing; a failure triggers a rule of score 100, BLOCK, carrying kycSource and kycExternalRef.
func (IdentityEngine) Evaluate(ctx context.Context, tx *Transaction, e *Enrichment) (EngineVerdict, error) {
	if err := ctx.Err(); err != nil {
		return EngineVerdict{}, err
	}
	b := newVerdict(CategoryIdentity)
	if !KYCPasses(e.KYC.Status) {
		status := e.KYC.Status
		if status == "" {
			status = StatusNone
		}
		b.trigger(TriggeredRule{ID: "KYC_STATUS", Name: "KYC Not Verified", RiskScore: 100, Outcome: rules.Block,
			Details:   fmt.Sprintf("sender KYC status %s (source %s)", prose.Enum(status), prose.Enum(e.KYC.Source)),
			KYCSource: e.KYC.Source, KYCExternalRef: e.KYC.ExternalRef},
			rules.ActionVerifyKYC, rules.ActionNotifyCompliance, rules.ActionCreateCase)
	}
	if e.KYB.Required && !KYBPasses(e.KYB.Status) {
		status := e.KYB.Status
		if status == "" {
			status = StatusNone
		}
		b.trigger(TriggeredRule{ID: "KYB_STATUS", Name: "KYB Not Verified", RiskScore: 100, Outcome: rules.Block,
			Details:   fmt.Sprintf("business %s KYB status %s (source %s)", tx.SenderRCNumber, prose.Enum(status), prose.Enum(e.KYB.Source)),
			KYCSource: e.KYB.Source},
			rules.ActionVerifyKYB, rules.ActionNotifyCompliance, rules.ActionCreateCase)
	}
	return b.verdict(), nil
}
