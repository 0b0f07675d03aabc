package screening

import (
	"time"

	"github.com/complyd/complyd/internal/rules"
)

// Comparison is how a rule draft compares with the live rules over a set of screenings, live
// (its shadow results) or stored (its back-test): the same shape for both (docs/guide/rules.md
// "Comparison"). Flagged means the draft's expression was true.
type Comparison struct {
	Evaluated int // screenings the draft was evaluated on
	Matched   int // screenings the draft flagged
	Errors    int // evaluations that failed (counted as not flagged, as in screening)
	// LiveFlagged are the screenings the live verdict did not APPROVE; Overlap those both
	// flagged; DraftOnly the draft flagged and the live rules approved; LiveOnly the live rules
	// flagged and the draft did not.
	LiveFlagged, Overlap, DraftOnly, LiveOnly int
	// WouldOpen are the screenings without a case that would have opened one with the draft in
	// force; WouldClose those whose case would not have opened. ClosesKnown is false for a
	// back-test, which knows the stored outcome but not which live rules made it.
	WouldOpen, WouldClose int
	ClosesKnown           bool
	Examples              []ComparisonExample
	// Oldest and Newest bound the screenings compared (nil when none).
	Oldest, Newest *time.Time
}

// ComparisonExample is one screening the draft flagged or whose case it would change.
type ComparisonExample struct {
	TransactionID string
	ExternalID    string
	At            time.Time
	Matched       bool
	LiveOutcome   string
	DraftOutcome  string // the counterfactual outcome (back-test: the more severe of both)
	LiveCase      bool
	DraftCase     bool
}

// countBacktest adds one stored screening to a back-test's comparison: the stored outcome is
// the live verdict, and a draft of outcome o that fires makes the outcome at least o (the
// highest severity wins, spec 4.3), so a case opens where the stored outcome was APPROVE.
func (c *Comparison) countBacktest(hit bool, stored string, o rules.Outcome) (draftOutcome rules.Outcome, opens bool) {
	live := rules.Outcome(stored)
	flagged := live != rules.Approve
	draftOutcome = live
	if hit {
		draftOutcome = live.Max(o)
	}
	opens = !flagged && draftOutcome != rules.Approve
	switch {
	case hit && flagged:
		c.Overlap++
	case hit:
		c.DraftOnly++
	case flagged:
		c.LiveOnly++
	}
	if flagged {
		c.LiveFlagged++
	}
	if opens {
		c.WouldOpen++
	}
	return draftOutcome, opens
}
