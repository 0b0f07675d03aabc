package postgres

import (
	"time"

	"github.com/complyd/complyd/internal/cases"
)

const interdictionColumns = "id, case_id, action, account_number, reason, status, requested_by, requested_at, confirmed_by, confirmed_at, reference, " +
	"lift_reason, lift_requested_by, lift_requested_at, lifted_by, lifted_at"

type interdictionRow struct {
	ID            string     `db:"id"`
	CaseID        string     `db:"case_id"`
	Action        string     `db:"action"`
	AccountNumber string     `db:"account_number"`
	Reason        string     `db:"reason"`
	Status        string     `db:"status"`
	RequestedBy   string     `db:"requested_by"`
	RequestedAt   time.Time  `db:"requested_at"`
	ConfirmedBy   *string    `db:"confirmed_by"`
	ConfirmedAt   *time.Time `db:"confirmed_at"`
	Reference     string     `db:"reference"`
	// Lift columns (migration 0015, interdiction_store.go).
	LiftReason      string     `db:"lift_reason"`
	LiftRequestedBy *string    `db:"lift_requested_by"`
	LiftRequestedAt *time.Time `db:"lift_requested_at"`
	LiftedBy        *string    `db:"lifted_by"`
	LiftedAt        *time.Time `db:"lifted_at"`
}

func toInterdiction(r interdictionRow) cases.Interdiction {
	return cases.Interdiction{ID: r.ID, CaseID: r.CaseID, Action: r.Action, AccountNumber: r.AccountNumber, Reason: r.Reason,
		Status: r.Status, RequestedBy: r.RequestedBy, RequestedAt: r.RequestedAt, ConfirmedBy: r.ConfirmedBy,
		ConfirmedAt: r.ConfirmedAt, Reference: r.Reference, LiftReason: r.LiftReason, LiftRequestedBy: r.LiftRequestedBy,
		LiftRequestedAt: r.LiftRequestedAt, LiftedBy: r.LiftedBy, LiftedAt: r.LiftedAt}
}
