package screening

import (
	"context"
	"fmt"
	"time"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// RetroArgs is the retro-screening job of a screening whose sanctions or behavioral engine
// failed open (docs/reference/specification.md part 1): it re-runs the skipped engines on the stored
// transaction later, and opens a case when they then find something.
type RetroArgs struct {
	TenantID      tenancy.TenantID `json:"tenantId"`
	TransactionID string           `json:"transactionId"`
	Engines       []string         `json:"engines"` // categories that were skipped
}

// Kind implements River's JobArgs without importing River.
func (RetroArgs) Kind() string { return "screening_retro" }

// SkippedEngines returns the categories of r's skipped verdicts.
func SkippedEngines(r Result) []string {
	var out []string
	for _, v := range r.Breakdown {
		if v.Skipped {
			out = append(out, v.Category)
		}
	}
	return out
}

// Rerun evaluates the engines named by categories (sanctions and/or behavioral) on tx with e,
// without the fail-open of the Pipeline: an engine that errors again returns the error, so the
// job is retried. The aggregate is over the re-run engines only; a non-nil case decision means
// they found something to investigate.
func Rerun(ctx context.Context, engines []Engine, categories []string, tx *Transaction, e *Enrichment) ([]EngineVerdict, Aggregate, error) {
	var out []EngineVerdict
	for _, eng := range engines {
		want := false
		for _, c := range categories {
			want = want || c == eng.Category()
		}
		if !want || e.Engines.IsDisabled(eng.Category()) {
			continue
		}
		v, err := eng.Evaluate(ctx, tx, e)
		if err != nil {
			return nil, Aggregate{}, fmt.Errorf("%s: %w", eng.Category(), err)
		}
		v.Category = eng.Category()
		out = append(out, v)
	}
	agg := aggregateWith(out, e.Engines)
	return out, agg, nil
}

// RetroCase returns the case a retro-screening opens, or nil when the re-run engines approve:
// sanctions BLOCK → SANCTIONS_HIT, a sender PEP hit → PEP_MATCH, otherwise DecideCase's rules.
func RetroCase(verdicts []EngineVerdict, agg Aggregate) *CaseDecision {
	for _, v := range verdicts {
		if v.Category == CategorySanctions && len(senderPEPHits(v)) > 0 && agg.Outcome == rules.Approve {
			return &CaseDecision{Type: CasePEPMatch, Priority: PriorityMedium}
		}
	}
	return DecideCase(verdicts, agg)
}

// RetroDelay is how long after a fail-open screening its retro-screening first runs.
const RetroDelay = time.Minute
