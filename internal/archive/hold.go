package archive

import (
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// Subject types of a legal hold.
const (
	SubjectAccount     = "ACCOUNT"     // a sender or receiver account number
	SubjectCustomer    = "CUSTOMER"    // a sender or receiver BVN
	SubjectCase        = "CASE"        // a case id: its transaction
	SubjectTransaction = "TRANSACTION" // a transaction id
)

// Hold is a legal hold: while active (not lifted), the rows it names stay in the database and
// are never archived or dropped.
type Hold struct {
	ID          string
	TenantID    tenancy.TenantID
	SubjectType string
	SubjectID   string
	Reason      string
	PlacedBy    string
	PlacedAt    time.Time
	LiftedBy    string
	LiftedAt    *time.Time
	LiftReason  string
}

// Active reports whether the hold is in force.
func (h Hold) Active() bool { return h.LiftedAt == nil }
