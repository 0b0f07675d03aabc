package postgres

import (
	"time"

	"github.com/complyd/complyd/internal/cases"
)

const proposalColumns = "id, case_id, resolution, note, status, proposed_by, proposed_at, decided_by, decided_at, reason"

type proposalRow struct {
	ID         string     `db:"id"`
	CaseID     string     `db:"case_id"`
	Resolution string     `db:"resolution"`
	Note       string     `db:"note"`
	Status     string     `db:"status"`
	ProposedBy string     `db:"proposed_by"`
	ProposedAt time.Time  `db:"proposed_at"`
	DecidedBy  *string    `db:"decided_by"`
	DecidedAt  *time.Time `db:"decided_at"`
	Reason     string     `db:"reason"`
}

func toProposal(r proposalRow) cases.Proposal {
	return cases.Proposal{ID: r.ID, CaseID: r.CaseID, Resolution: r.Resolution, Note: r.Note, Status: r.Status,
		ProposedBy: r.ProposedBy, ProposedAt: r.ProposedAt, DecidedBy: r.DecidedBy, DecidedAt: r.DecidedAt, Reason: r.Reason}
}
