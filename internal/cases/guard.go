package cases

import (
	"slices"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// Guard is what a direct status move (PATCH /cases/:id/status) must know beyond the case itself
// for the four-eyes control of docs/guide/cases.md "Four eyes": the case's pending proposal and the
// tenant's fourEyesResolution setting. The store reads both in the transaction that locks the
// case, so a proposal created concurrently cannot slip between the check and the move.
type Guard struct {
	// Pending is the case's PENDING resolution proposal, nil when there is none.
	Pending *Proposal
	// FourEyesRequired is the tenant's fourEyesResolution setting: every resolution goes
	// through a proposal and a second officer's approval.
	FourEyesRequired bool
}

// Guard refusal reasons, in the error's data.reason.
const (
	ReasonResolutionPending = "RESOLUTION_PENDING"
	ReasonFourEyesRequired  = "FOUR_EYES_REQUIRED"
)

// refuses returns why g refuses a direct move to to, or "" when it does not:
//   - a pending proposal blocks every direct resolution and closing: it is approved or rejected
//     first (by someone other than its proposer), so one person cannot propose and then resolve;
//   - the tenant's mandatory four eyes blocks every direct resolution. Closing a resolved case
//     stays direct: its resolution was already decided (and, under the setting, approved).
func (g Guard) refuses(to string) string {
	resolving := to == StatusResolvedTruePositive || to == StatusResolvedFalsePositive
	switch {
	case g.Pending != nil && (resolving || to == StatusClosed):
		return ReasonResolutionPending
	case g.FourEyesRequired && resolving:
		return ReasonFourEyesRequired
	}
	return ""
}

// Allowed returns the statuses c may move to directly under g: docs/design/design-choices.md §5's moves from
// c.Status without those g refuses. It is what the API offers the caller (allowedTransitions).
func (g Guard) Allowed(c Case) []string {
	return slices.DeleteFunc(Allowed(c.Status), func(to string) bool { return g.refuses(to) != "" })
}

// ChangeStatusGuarded is ChangeStatus under the four-eyes guard.
//
// Errors: as ChangeStatus, with g.Allowed in INVALID_STATUS_TRANSITION's data.allowed; CONFLICT
// when g refuses the move, with data {reason, from, to, allowed} and, for RESOLUTION_PENDING,
// pendingProposal {id, resolution, note, proposedBy, proposedAt}.
func ChangeStatusGuarded(c Case, a Actor, g Guard, to, resolutionNote string) (Case, Effects, error) {
	if !IsStatus(to) {
		return c, Effects{}, apperr.Invalid("status", "must be a case status")
	}
	if !CanTransition(c.Status, to) {
		return c, Effects{}, apperr.Transition(c.Status, to, g.Allowed(c))
	}
	switch g.refuses(to) {
	case ReasonResolutionPending:
		p := g.Pending
		return c, Effects{}, apperr.New(apperr.Conflict,
			"a resolution proposal is pending: a second officer approves or rejects it before the case can be resolved or closed").
			WithData(map[string]any{"reason": ReasonResolutionPending, "from": c.Status, "to": to, "allowed": g.Allowed(c),
				"pendingProposal": map[string]any{"id": p.ID, "resolution": p.Resolution, "note": p.Note, "status": p.Status,
					"proposedBy": p.ProposedBy, "proposedAt": p.ProposedAt.UTC().Format(time.RFC3339Nano)}})
	case ReasonFourEyesRequired:
		return c, Effects{}, apperr.New(apperr.Conflict,
			"four eyes is required for every resolution: propose it (POST /cases/:id/resolution-proposals) for a second officer to approve").
			WithData(map[string]any{"reason": ReasonFourEyesRequired, "from": c.Status, "to": to, "allowed": g.Allowed(c)})
	}
	return ChangeStatus(c, a, to, resolutionNote)
}

// Settings are the tenant's case controls (GET and PATCH /api/v1/tenants/me/case-settings,
// BANK_ADMIN; docs/guide/cases.md "Four eyes").
type Settings struct {
	// FourEyesResolution makes every resolution go through a proposal approved by a second
	// officer: a direct move to RESOLVED_* is refused for everyone. Off by default (the spec's
	// PATCH /cases/:id/status resolves directly); the demo tenant of `complyd dev` has it on.
	FourEyesResolution bool
}

func (s Settings) audit() map[string]any {
	return map[string]any{"fourEyesResolution": s.FourEyesResolution}
}
