package cases

import (
	"fmt"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/prose"
)

// Lifting an interdiction takes two people (docs/guide/interdictions.md): one officer asks for it with
// a reason (CONFIRMED → LIFT_REQUESTED), another approves it (→ LIFTED, the interdiction.lifted
// webhook tells the bank's core to release the account) or rejects it with a reason
// (→ CONFIRMED). Until the approval the interdiction stays in force: screening keeps blocking.
// Only a CONFIRMED interdiction can be lifted; one still REQUESTED has not bitten yet and is
// withdrawn with the bank, not here. A closed case's interdictions can still be lifted: the
// order outlives the investigation that asked for it.

// RequestLift asks for the interdiction to be lifted, with an INTERDICTION_LIFT_REQUESTED event.
//
// Errors: NOT_FOUND when the interdiction is not the case's; VALIDATION_ERROR on reason;
// CONFLICT unless the interdiction is CONFIRMED.
func RequestLift(c Case, in Interdiction, a Actor, reason string) (Case, Interdiction, Effects, error) {
	if in.CaseID != c.ID {
		return c, in, Effects{}, apperr.NotFoundf("interdiction not found")
	}
	reason, fe := requiredText("reason", reason, MaxNoteLen)
	if fe != nil {
		return c, in, Effects{}, apperr.InvalidFields(*fe)
	}
	if in.Status != InterdictionConfirmed {
		return c, in, Effects{}, apperr.Newf(apperr.Conflict, "only a CONFIRMED interdiction can be lifted; this one is %s", in.Status).
			WithData(map[string]any{"status": in.Status})
	}
	in.Status = InterdictionLiftRequested
	in.LiftReason = reason
	in.LiftRequestedBy = ptr(a.UserID)
	in.LiftRequestedAt = ptr(a.At)
	ev := newEvent(&c, a, EventInterdictionLiftRequested,
		fmt.Sprintf("Lift of %s on account %s requested", prose.Enum(in.Action), in.AccountNumber))
	ev.PreviousValue = ptr(InterdictionConfirmed)
	ev.NewValue = ptr(InterdictionLiftRequested)
	ev.Metadata = map[string]any{"interdictionId": in.ID, "reason": reason}
	c.UpdatedAt = a.At
	return c, in, Effects{Events: []Event{ev}}, nil
}

// ApproveLift lifts the interdiction: an INTERDICTION_LIFTED event and the interdiction.lifted
// webhook. The approver must not be the officer who asked for the lift.
//
// Errors: NOT_FOUND; CONFLICT unless a lift was requested; FORBIDDEN for the requester (or the
// system).
func ApproveLift(c Case, in Interdiction, a Actor, note string) (Case, Interdiction, Effects, error) {
	if err := checkLiftDecision(c, in, a); err != nil {
		return c, in, Effects{}, err
	}
	if len([]rune(note)) > MaxNoteLen {
		return c, in, Effects{}, apperr.Invalid("note", fmt.Sprintf("must be at most %d characters", MaxNoteLen))
	}
	in.Status = InterdictionLifted
	in.LiftedBy = ptr(a.UserID)
	in.LiftedAt = ptr(a.At)
	ev := newEvent(&c, a, EventInterdictionLifted, prose.Capital(fmt.Sprintf("%s on account %s lifted", prose.Enum(in.Action), in.AccountNumber)))
	ev.PreviousValue = ptr(InterdictionLiftRequested)
	ev.NewValue = ptr(InterdictionLifted)
	ev.Metadata = map[string]any{"interdictionId": in.ID, "reason": in.LiftReason, "requestedBy": deref(in.LiftRequestedBy), "note": note}
	c.UpdatedAt = a.At
	eff := Effects{Events: []Event{ev}, Webhooks: []WebhookEffect{{Event: WebhookInterdictionLifted, Data: map[string]any{
		"interdictionId":  in.ID,
		"caseId":          c.ID,
		"caseNumber":      c.CaseNumber,
		"action":          in.Action,
		"accountNumber":   in.AccountNumber,
		"reference":       in.Reference,
		"reason":          in.LiftReason,
		"liftRequestedBy": deref(in.LiftRequestedBy),
		"liftedBy":        a.UserID,
		"liftedAt":        a.At,
	}}}}
	return c, in, eff, nil
}

// RejectLift refuses the lift with a reason: the interdiction is CONFIRMED again, with an
// INTERDICTION_LIFT_REJECTED event. The rejecter must not be the officer who asked.
//
// Errors: NOT_FOUND; VALIDATION_ERROR on reason; CONFLICT unless a lift was requested; FORBIDDEN
// for the requester.
func RejectLift(c Case, in Interdiction, a Actor, reason string) (Case, Interdiction, Effects, error) {
	if err := checkLiftDecision(c, in, a); err != nil {
		return c, in, Effects{}, err
	}
	reason, fe := requiredText("reason", reason, MaxNoteLen)
	if fe != nil {
		return c, in, Effects{}, apperr.InvalidFields(*fe)
	}
	ev := newEvent(&c, a, EventInterdictionLiftRejected,
		fmt.Sprintf("Lift of %s on account %s rejected", prose.Enum(in.Action), in.AccountNumber))
	ev.PreviousValue = ptr(InterdictionLiftRequested)
	ev.NewValue = ptr(InterdictionConfirmed)
	ev.Metadata = map[string]any{"interdictionId": in.ID, "liftReason": in.LiftReason, "requestedBy": deref(in.LiftRequestedBy), "reason": reason}
	in.Status = InterdictionConfirmed
	in.LiftReason, in.LiftRequestedBy, in.LiftRequestedAt = "", nil, nil
	c.UpdatedAt = a.At
	return c, in, Effects{Events: []Event{ev}}, nil
}

func checkLiftDecision(c Case, in Interdiction, a Actor) error {
	if in.CaseID != c.ID {
		return apperr.NotFoundf("interdiction not found")
	}
	if in.Status != InterdictionLiftRequested {
		return apperr.Newf(apperr.Conflict, "no lift is awaiting a decision; the interdiction is %s", in.Status).
			WithData(map[string]any{"status": in.Status})
	}
	if a.UserID == "" || a.UserID == deref(in.LiftRequestedBy) {
		return apperr.New(apperr.Forbidden, "a lift must be approved or rejected by someone other than the officer who requested it")
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
