package cases

import (
	"fmt"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/prose"
)

// Proposal is a proposed resolution of a case awaiting a second person's decision (the four-eyes
// workflow of docs/design/design-choices.md §4 and §5).
type Proposal struct {
	ID         string // prop_<id>
	CaseID     string
	Resolution string // ResolutionTruePositive or ResolutionFalsePositive
	Note       string // becomes the case's resolutionNote on approval
	Status     string // ProposalPending, ProposalApproved or ProposalRejected
	ProposedBy string
	ProposedAt time.Time
	DecidedBy  *string
	DecidedAt  *time.Time
	Reason     string // the rejection reason
}

// Proposed resolutions.
const (
	ResolutionTruePositive  = "TRUE_POSITIVE"
	ResolutionFalsePositive = "FALSE_POSITIVE"
)

// Proposal states (docs/design/design-choices.md §5).
const (
	ProposalPending  = "PENDING"
	ProposalApproved = "APPROVED"
	ProposalRejected = "REJECTED"
)

// ResolvedStatus returns the case status a resolution resolves to.
func ResolvedStatus(resolution string) string {
	if resolution == ResolutionTruePositive {
		return StatusResolvedTruePositive
	}
	return StatusResolvedFalsePositive
}

// ProposeParams is the body of POST /cases/:id/resolution-proposals.
type ProposeParams struct {
	Resolution string
	Note       string
}

// Propose records a proposed resolution and moves the case to PENDING_REVIEW along legal moves
// of docs/design/design-choices.md §5, one STATUS_CHANGED event per move:
//   - OPEN: OPEN → IN_PROGRESS → PENDING_REVIEW (two events; proposing means work has started);
//   - IN_PROGRESS, ESCALATED: one move to PENDING_REVIEW;
//   - PENDING_REVIEW: no move (a case put in review by hand can receive its proposal);
//   - RESOLVED_*, CLOSED: INVALID_STATUS_TRANSITION {from, to: PENDING_REVIEW, allowed}.
//
// A RESOLUTION_PROPOSED event follows the moves. At most one PENDING proposal per case is the
// store's invariant (a partial unique index; CONFLICT).
//
// Errors: VALIDATION_ERROR on resolution or note; INVALID_STATUS_TRANSITION as above.
func Propose(c Case, a Actor, p ProposeParams) (Case, Proposal, Effects, error) {
	var bad []apperr.FieldError
	if p.Resolution != ResolutionTruePositive && p.Resolution != ResolutionFalsePositive {
		bad = append(bad, apperr.FieldError{Field: "resolution", Message: "must be TRUE_POSITIVE or FALSE_POSITIVE"})
	}
	note, fe := requiredText("note", p.Note, MaxNoteLen)
	if fe != nil {
		bad = append(bad, *fe)
	}
	if len(bad) > 0 {
		return c, Proposal{}, Effects{}, apperr.InvalidFields(bad...)
	}

	var path []string
	switch c.Status {
	case StatusOpen:
		path = []string{StatusInProgress, StatusPendingReview}
	case StatusInProgress, StatusEscalated:
		path = []string{StatusPendingReview}
	case StatusPendingReview:
	default:
		return c, Proposal{}, Effects{}, apperr.Transition(c.Status, StatusPendingReview, Allowed(c.Status))
	}
	var eff Effects
	for _, to := range path {
		eff.add(effectsOfMove(c, a, to, ""))
		c = moveStatus(c, a, to, "")
	}

	prop := Proposal{
		ID:         NewID(PrefixProposal),
		CaseID:     c.ID,
		Resolution: p.Resolution,
		Note:       note,
		Status:     ProposalPending,
		ProposedBy: a.UserID,
		ProposedAt: a.At,
	}
	ev := newEvent(&c, a, EventResolutionProposed, note)
	ev.NewValue = ptr(p.Resolution)
	ev.Metadata = map[string]any{"proposalId": prop.ID, "resolution": p.Resolution}
	eff.Events = append(eff.Events, ev)
	c.UpdatedAt = a.At
	return c, prop, eff, nil
}

// checkDecision enforces what approve and reject share: the proposal belongs to the case, is
// still PENDING, and the decider is a known user other than the proposer (docs/design/design-choices.md §4).
func checkDecision(c *Case, p *Proposal, a Actor) error {
	if p.CaseID != c.ID {
		return apperr.NotFoundf("proposal not found")
	}
	if p.Status != ProposalPending {
		return apperr.Newf(apperr.Conflict, "proposal is already %s", p.Status).
			WithData(map[string]any{"status": p.Status})
	}
	if a.UserID == "" || a.UserID == p.ProposedBy {
		return apperr.New(apperr.Forbidden, "a resolution must be approved or rejected by someone other than its proposer")
	}
	return nil
}

// ApproveProposal approves a pending proposal and resolves the case to RESOLVED_TRUE_POSITIVE
// or RESOLVED_FALSE_POSITIVE with the proposal's note as resolutionNote. It returns a
// RESOLUTION_APPROVED event, the STATUS_CHANGED event and the case.resolved webhook effect.
//
// Errors: NOT_FOUND when the proposal is not the case's; CONFLICT when it is no longer PENDING;
// FORBIDDEN when the approver is the proposer; INVALID_STATUS_TRANSITION when the case has since
// left PENDING_REVIEW/ESCALATED (for example moved back to IN_PROGRESS by hand).
func ApproveProposal(c Case, p Proposal, a Actor) (Case, Proposal, Effects, error) {
	if err := checkDecision(&c, &p, a); err != nil {
		return c, p, Effects{}, err
	}
	to := ResolvedStatus(p.Resolution)
	if !CanTransition(c.Status, to) {
		return c, p, Effects{}, apperr.Transition(c.Status, to, Allowed(c.Status))
	}
	p.Status = ProposalApproved
	p.DecidedBy = ptr(a.UserID)
	p.DecidedAt = ptr(a.At)

	ev := newEvent(&c, a, EventResolutionApproved, fmt.Sprintf("Resolution %s approved", prose.Enum(p.Resolution)))
	ev.NewValue = ptr(p.Resolution)
	ev.Metadata = map[string]any{"proposalId": p.ID, "proposedBy": p.ProposedBy}
	eff := Effects{Events: []Event{ev}}
	eff.add(effectsOfMove(c, a, to, p.Note))
	c = moveStatus(c, a, to, p.Note)
	return c, p, eff, nil
}

// RejectProposal rejects a pending proposal with a reason and returns the case to IN_PROGRESS
// (docs/design/design-choices.md §5) with a RESOLUTION_REJECTED event and, when the case moves, a STATUS_CHANGED
// event. A case already IN_PROGRESS stays there.
//
// Errors: VALIDATION_ERROR on reason; NOT_FOUND, CONFLICT, FORBIDDEN as for ApproveProposal;
// INVALID_STATUS_TRANSITION when the case is resolved or closed.
func RejectProposal(c Case, p Proposal, a Actor, reason string) (Case, Proposal, Effects, error) {
	reason, fe := requiredText("reason", reason, MaxNoteLen)
	if fe != nil {
		return c, p, Effects{}, apperr.InvalidFields(*fe)
	}
	if err := checkDecision(&c, &p, a); err != nil {
		return c, p, Effects{}, err
	}
	move := c.Status != StatusInProgress
	if move && !CanTransition(c.Status, StatusInProgress) ||
		c.IsResolved() { // RESOLVED_* → IN_PROGRESS is a reopen, not a rejection
		return c, p, Effects{}, apperr.Transition(c.Status, StatusInProgress, Allowed(c.Status))
	}
	p.Status = ProposalRejected
	p.DecidedBy = ptr(a.UserID)
	p.DecidedAt = ptr(a.At)
	p.Reason = reason

	ev := newEvent(&c, a, EventResolutionRejected, reason)
	ev.PreviousValue = ptr(p.Resolution)
	ev.Metadata = map[string]any{"proposalId": p.ID, "proposedBy": p.ProposedBy}
	eff := Effects{Events: []Event{ev}}
	if move {
		eff.add(effectsOfMove(c, a, StatusInProgress, ""))
		c = moveStatus(c, a, StatusInProgress, "")
	}
	c.UpdatedAt = a.At
	return c, p, eff, nil
}
