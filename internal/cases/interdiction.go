package cases

import (
	"fmt"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/prose"
)

// Interdiction is an account freeze, block or post-no-debit order queued from a case
// (docs/reference/specification.md 4.8 "interdictions (account freezes or blocks queued from cases)"). complyd
// records and announces it; the bank's core system executes it and an officer confirms it.
type Interdiction struct {
	ID            string // intd_<id>
	CaseID        string
	CaseNumber    string // filled by reads that join the case (the queue, the screening cache)
	Action        string // InterdictionFreeze, InterdictionBlock or InterdictionPostNoDebit
	AccountNumber string // 10 digits (docs/reference/specification.md part 8)
	Reason        string
	Status        string // InterdictionRequested, InterdictionConfirmed, InterdictionLiftRequested or InterdictionLifted
	RequestedBy   string
	RequestedAt   time.Time
	ConfirmedBy   *string
	ConfirmedAt   *time.Time
	// Reference is the bank's own reference for the executed order, given on confirmation.
	Reference string
	// Lift (interdiction_lift.go): the reason given by the officer who asked for it, who and
	// when; then who approved it (a second officer) and when.
	LiftReason      string
	LiftRequestedBy *string
	LiftRequestedAt *time.Time
	LiftedBy        *string
	LiftedAt        *time.Time
}

// Interdiction actions.
const (
	InterdictionFreeze      = "FREEZE"
	InterdictionBlock       = "BLOCK"
	InterdictionPostNoDebit = "POST_NO_DEBIT"
)

// Interdiction states.
const (
	InterdictionRequested     = "REQUESTED"
	InterdictionConfirmed     = "CONFIRMED"
	InterdictionLiftRequested = "LIFT_REQUESTED"
	InterdictionLifted        = "LIFTED"
)

// InterdictionParams is the body of an interdiction request.
type InterdictionParams struct {
	Action        string
	AccountNumber string
	Reason        string
}

// RequestInterdiction records an interdiction on the case with an INTERDICTION_REQUESTED event
// and an interdiction.requested webhook effect, so the bank's backend can execute it. A CLOSED
// case takes no new interdictions.
//
// Errors: VALIDATION_ERROR on action, accountNumber or reason; CONFLICT when the case is CLOSED.
func RequestInterdiction(c Case, a Actor, p InterdictionParams) (Case, Interdiction, Effects, error) {
	var bad []apperr.FieldError
	switch p.Action {
	case InterdictionFreeze, InterdictionBlock, InterdictionPostNoDebit:
	default:
		bad = append(bad, apperr.FieldError{Field: "action", Message: "must be FREEZE, BLOCK or POST_NO_DEBIT"})
	}
	if !isAccountNumber(p.AccountNumber) {
		bad = append(bad, apperr.FieldError{Field: "accountNumber", Message: "must be exactly 10 digits"})
	}
	reason, fe := requiredText("reason", p.Reason, MaxNoteLen)
	if fe != nil {
		bad = append(bad, *fe)
	}
	if len(bad) > 0 {
		return c, Interdiction{}, Effects{}, apperr.InvalidFields(bad...)
	}
	if c.Status == StatusClosed {
		return c, Interdiction{}, Effects{}, apperr.New(apperr.Conflict, "a closed case takes no interdictions")
	}

	in := Interdiction{
		ID:            NewID(PrefixInterdiction),
		CaseID:        c.ID,
		Action:        p.Action,
		AccountNumber: p.AccountNumber,
		Reason:        reason,
		Status:        InterdictionRequested,
		RequestedBy:   a.UserID,
		RequestedAt:   a.At,
	}
	ev := newEvent(&c, a, EventInterdictionRequested,
		prose.Capital(fmt.Sprintf("%s requested on account %s", prose.Enum(p.Action), p.AccountNumber)))
	ev.NewValue = ptr(InterdictionRequested)
	ev.Metadata = map[string]any{"interdictionId": in.ID, "action": in.Action, "accountNumber": in.AccountNumber, "reason": reason}
	c.UpdatedAt = a.At
	eff := Effects{
		Events: []Event{ev},
		Webhooks: []WebhookEffect{{Event: WebhookInterdictionRequested, Data: map[string]any{
			"interdictionId": in.ID,
			"caseId":         c.ID,
			"caseNumber":     c.CaseNumber,
			"action":         in.Action,
			"accountNumber":  in.AccountNumber,
			"reason":         in.Reason,
			"requestedBy":    in.RequestedBy,
			"requestedAt":    in.RequestedAt,
		}}},
	}
	return c, in, eff, nil
}

// ConfirmInterdiction records that the bank executed the interdiction, with an optional
// reference, and returns an INTERDICTION_CONFIRMED event. Four eyes (issue 48 point 5,
// docs/guide/interdictions.md): a person confirming (a dashboard or bearer session) cannot be the
// officer who requested it; the bank's core confirming with an API key may, whoever owns the key.
//
// Errors: NOT_FOUND when the interdiction is not the case's; CONFLICT when already confirmed;
// FORBIDDEN for the requester.
func ConfirmInterdiction(c Case, in Interdiction, a Actor, reference string) (Case, Interdiction, Effects, error) {
	if in.CaseID != c.ID {
		return c, in, Effects{}, apperr.NotFoundf("interdiction not found")
	}
	if in.Status != InterdictionRequested {
		return c, in, Effects{}, apperr.Newf(apperr.Conflict, "interdiction is already %s", in.Status)
	}
	if !a.APIKey && a.UserID != "" && a.UserID == in.RequestedBy {
		return c, in, Effects{}, apperr.New(apperr.Forbidden,
			"an interdiction must be confirmed by someone other than the officer who requested it (the bank's operations, or its core over the API)")
	}
	in.Status = InterdictionConfirmed
	in.ConfirmedBy = ptr(a.UserID)
	in.ConfirmedAt = ptr(a.At)
	in.Reference = reference
	ev := newEvent(&c, a, EventInterdictionConfirmed,
		prose.Capital(fmt.Sprintf("%s confirmed on account %s", prose.Enum(in.Action), in.AccountNumber)))
	ev.PreviousValue = ptr(InterdictionRequested)
	ev.NewValue = ptr(InterdictionConfirmed)
	ev.Metadata = map[string]any{"interdictionId": in.ID, "reference": reference}
	c.UpdatedAt = a.At
	return c, in, Effects{Events: []Event{ev}}, nil
}

func isAccountNumber(s string) bool {
	if len(s) != 10 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
