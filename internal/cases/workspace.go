package cases

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// Evidence is what the case page shows of a case's transaction (docs/guide/dashboard-cases.md "The
// case page"): its facts, the rules that fired, the sanctions hits beside the list entries as
// the list publishes them, and the sender account's recent activity.
type Evidence struct {
	Transaction EvidenceTransaction
	Rules       []EvidenceRule
	Hits        []EvidenceHit
	Activity    []ActivityDay
}

// EvidenceParty is one party of the transaction.
type EvidenceParty struct {
	Role, Name, Account, BankCode, BVN, Country string
}

// EvidenceTransaction is the transaction's facts.
type EvidenceTransaction struct {
	ID, ExternalID, Type, Channel, Amount, Currency, AmountNGN, Narration string
	Sender, Receiver                                                      EvidenceParty
	At                                                                    time.Time
	Outcome, RiskLevel                                                    string
	Score                                                                 float64
}

// EvidenceRule is a rule that fired.
type EvidenceRule struct {
	Name, Category, Details, Outcome string
	RiskScore                        int
}

// EvidenceHit is a name match of a party with the entry (nil when no longer loaded).
type EvidenceHit struct {
	Party, List, ListType, EntryID, MatchedName, Explanation string
	Score                                                    float64
	Entry                                                    *ListEntry
}

// ListEntry is a list entry with every field the list gives.
type ListEntry struct {
	EntryID, List, ListType, Name, EntityType, Remarks, SourceID string
	Aliases, DatesOfBirth, Nationalities, Programs               []string
	PublishedAt                                                  *time.Time
	Version                                                      int
}

// ActivityDay is one UTC day of an account's activity.
type ActivityDay struct {
	Day    time.Time
	Count  int64
	SumNGN string
}

// EvidenceReader reads a case's evidence from the screening and sanctions tables
// (internal/postgres).
type EvidenceReader interface {
	// Evidence returns the transaction's evidence with since..now of the sender account's
	// activity, or nil when there is no such transaction. Errors: INTERNAL.
	Evidence(ctx context.Context, tenantID tenancy.TenantID, transactionID string, since time.Time) (*Evidence, error)
}
