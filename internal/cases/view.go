package cases

import (
	"context"

	"github.com/complyd/complyd/internal/tenancy"
)

// Person is how a user appears on a case: the assignee and the actor of a timeline event
// (docs/reference/specification.md 2.3: {id, email, firstName, lastName}).
type Person struct {
	ID        string
	Email     string
	FirstName string
	LastName  string
}

// TransactionSummary is the case detail's relatedTransaction (docs/reference/specification.md 2.3).
type TransactionSummary struct {
	ID         string
	ExternalID string
	Amount     string // decimal string, never a float
	Currency   string
	SenderName *string
	Verdict    *VerdictSummary
}

// VerdictSummary is the verdict part of a TransactionSummary.
type VerdictSummary struct {
	Outcome        string
	RiskLevel      string
	AggregateScore float64
	TotalLatencyMs int64
}

// Views is the read side of case lists and detail: the people named on cases and the related
// transaction. It is separate from Store because it reads other capabilities' tables.
type Views interface {
	// People returns the users of the tenant among ids, keyed by id; unknown ids are absent.
	// Errors: INTERNAL.
	People(ctx context.Context, tenantID tenancy.TenantID, ids []string) (map[string]Person, error)
	// RelatedTransaction returns the transaction and its verdict summary, or nil when there is
	// none (yet). Errors: INTERNAL.
	RelatedTransaction(ctx context.Context, tenantID tenancy.TenantID, transactionID string) (*TransactionSummary, error)
}
