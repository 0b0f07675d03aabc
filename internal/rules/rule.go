package rules

import (
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// Outcome is a screening outcome (docs/reference/specification.md 2.4), ordered APPROVE < REVIEW < ESCALATE < BLOCK.
type Outcome string

// The outcome values, in increasing severity.
const (
	Approve  Outcome = "APPROVE"
	Review   Outcome = "REVIEW"
	Escalate Outcome = "ESCALATE"
	Block    Outcome = "BLOCK"
)

// Severity returns 0 for APPROVE up to 3 for BLOCK, and -1 for an unknown value.
func (o Outcome) Severity() int {
	switch o {
	case Approve:
		return 0
	case Review:
		return 1
	case Escalate:
		return 2
	case Block:
		return 3
	}
	return -1
}

// Valid reports whether o is one of the four outcome values.
func (o Outcome) Valid() bool { return o.Severity() >= 0 }

// Max returns the more severe of o and other (spec 4.3 rule 4: the highest severity wins).
func (o Outcome) Max(other Outcome) Outcome {
	if other.Severity() > o.Severity() {
		return other
	}
	return o
}

// Rule is a screening rule: a tenant's custom CEL rule or one of the mandatory AML rules.
type Rule struct {
	ID          string
	TenantID    tenancy.TenantID // empty for the built-in mandatory rules
	Name        string
	Description string
	// Expression is the CEL source. For mandatory rules it is the CEL rendering of the
	// rule (informative; the Regulatory Compliance engine evaluates them in Go on decimals).
	Expression string
	Score      int // 0..100
	Outcome    Outcome
	Enabled    bool
	// Mandatory rules are always active and cannot be changed or disabled (docs/design/design-choices.md §10).
	Mandatory bool
	// Actions are the automatic actions of a mandatory rule (spec 4.3 table); empty for custom rules.
	Actions   []string
	CreatedBy string // user id, or "system" for mandatory rules
	// Version is the rule's immutable version in force: 1 at creation, one more with every
	// change (docs/design/engines.md "Rule versions"); 0 for the mandatory rules, which never change.
	Version   int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Validate checks the fields a client sets (POST/PATCH /rules) and compiles the expression.
// It returns VALIDATION_ERROR naming the first bad field; a compile error names "expression"
// and carries the compiler's message.
func (r *Rule) Validate(c *Compiler) error {
	switch {
	case r.Name == "":
		return invalid("name", "is required")
	case len(r.Name) > 200:
		return invalid("name", "must be at most 200 characters")
	case r.Score < 0 || r.Score > 100:
		return invalid("score", "must be between 0 and 100")
	case !r.Outcome.Valid():
		return invalid("outcome", "must be one of APPROVE, REVIEW, ESCALATE, BLOCK")
	}
	_, err := c.Compile(r.Expression)
	return err
}
