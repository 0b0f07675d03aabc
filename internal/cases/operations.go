package cases

import (
	"fmt"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/prose"
	"github.com/complyd/complyd/internal/tenancy"
)

// NewParams is the body of a case creation (docs/reference/specification.md 4.2 POST /cases), plus the flag that
// tells automatic creation by screening from manual creation.
type NewParams struct {
	// ID, when set, is the case's id; New makes one otherwise. The screening commit sets it
	// ahead, so that the report drafts it writes in the same round trip as the transaction can
	// link an STR to its case.
	ID                      string
	TenantID                tenancy.TenantID
	Type                    string
	Priority                string
	Title                   string
	Description             string
	RelatedTransactionID    *string
	RelatedKYCApplicationID *string
	Tags                    []string
	// Automatic is set when screening creates the case (outcome REVIEW, ESCALATE or BLOCK).
	Automatic bool
}

// Validate checks p as New does, without building the case: the screening's case lane checks
// a batch's cases before it takes their numbers, and New builds them once numbered (building
// each twice was about 1 % of the server's CPU at 1,000 screenings/s).
//
// Errors: VALIDATION_ERROR, as New.
func (p NewParams) Validate() error {
	_, _, _, err := p.normalized()
	return err
}

// normalized returns p's title, description and tags as stored, or New's validation error.
func (p NewParams) normalized() (title, desc string, tags []string, err error) {
	var bad []apperr.FieldError
	var fe *apperr.FieldError
	if !IsType(p.Type) {
		bad = append(bad, apperr.FieldError{Field: "type", Message: "must be a case type"})
	}
	if !IsPriority(p.Priority) {
		bad = append(bad, apperr.FieldError{Field: "priority", Message: "must be LOW, MEDIUM, HIGH or CRITICAL"})
	}
	title, fe = requiredText("title", p.Title, MaxTitleLen)
	if fe != nil {
		bad = append(bad, *fe)
	}
	desc, fe = requiredText("description", p.Description, MaxDescriptionLen)
	if fe != nil {
		bad = append(bad, *fe)
	}
	tags, fe = normalizeTags(p.Tags)
	if fe != nil {
		bad = append(bad, *fe)
	}
	if len(bad) > 0 {
		return "", "", nil, apperr.InvalidFields(bad...)
	}
	return title, desc, tags, nil
}

// New validates p and returns a new OPEN, unassigned case numbered caseNumber, with a
// CASE_CREATED timeline event. Automatic creation also yields a case.created webhook effect and a
// NotifyComplianceOfficers notification (docs/reference/specification.md part 1 and 6, docs/design/design-choices.md §9).
//
// Errors: VALIDATION_ERROR naming every invalid field (type, priority, title, description, tags).
func New(p NewParams, a Actor, caseNumber string) (Case, Effects, error) {
	title, desc, tags, err := p.normalized()
	if err != nil {
		return Case{}, Effects{}, err
	}

	id := p.ID
	if id == "" {
		id = NewID(PrefixCase)
	}
	c := Case{
		ID:                      id,
		TenantID:                p.TenantID,
		CaseNumber:              caseNumber,
		Type:                    p.Type,
		Priority:                p.Priority,
		Title:                   title,
		Description:             desc,
		Status:                  StatusOpen,
		RelatedTransactionID:    p.RelatedTransactionID,
		RelatedKYCApplicationID: p.RelatedKYCApplicationID,
		Tags:                    tags,
		CreatedBy:               a.UserID,
		CreatedAt:               a.At,
		UpdatedAt:               a.At,
	}
	ev := newEvent(&c, a, EventCaseCreated, fmt.Sprintf("Case %s created", caseNumber))
	ev.NewValue = ptr(StatusOpen)
	ev.Metadata = map[string]any{"automatic": p.Automatic, "type": c.Type, "priority": c.Priority}
	eff := Effects{Events: []Event{ev}}
	if p.Automatic {
		eff.Webhooks = append(eff.Webhooks, WebhookEffect{Event: WebhookCaseCreated, Data: caseData(&c)})
		eff.Notifications = append(eff.Notifications, Notification{Kind: NotifyComplianceOfficers, Case: c})
	}
	return c, eff, nil
}

// ChangeStatus moves the case to status to (docs/reference/specification.md 3.1, docs/design/design-choices.md §5) and returns a
// STATUS_CHANGED event; moving to RESOLVED_TRUE_POSITIVE, RESOLVED_FALSE_POSITIVE or CLOSED
// also yields a case.resolved webhook effect.
//
// Resolving sets ResolvedAt and ResolutionNote; closing keeps ResolvedAt and replaces
// ResolutionNote with the closing note; reopening (RESOLVED_* → IN_PROGRESS) clears both (the
// earlier notes stay on the timeline).
//
// Errors: VALIDATION_ERROR on status when to is not a status; INVALID_STATUS_TRANSITION with
// data {from, to, allowed} when docs/design/design-choices.md §5 forbids the move (checked before the note);
// VALIDATION_ERROR on resolutionNote when it is blank and to needs one.
func ChangeStatus(c Case, a Actor, to, resolutionNote string) (Case, Effects, error) {
	if !IsStatus(to) {
		return c, Effects{}, apperr.Invalid("status", "must be a case status")
	}
	if !CanTransition(c.Status, to) {
		return c, Effects{}, apperr.Transition(c.Status, to, Allowed(c.Status))
	}
	note := ""
	if RequiresResolutionNote(to) {
		var fe *apperr.FieldError
		note, fe = requiredText("resolutionNote", resolutionNote, MaxNoteLen)
		if fe != nil {
			return c, Effects{}, apperr.InvalidFields(*fe)
		}
	}
	return moveStatus(c, a, to, note), effectsOfMove(c, a, to, note), nil
}

// moveStatus applies an allowed move to c; effectsOfMove returns its effects. They are split so
// that the proposal workflow can chain legal moves.
func moveStatus(c Case, a Actor, to, note string) Case {
	switch {
	case to == StatusResolvedTruePositive || to == StatusResolvedFalsePositive:
		c.ResolvedAt = ptr(a.At)
		c.ResolutionNote = note
	case to == StatusClosed:
		if c.ResolvedAt == nil {
			c.ResolvedAt = ptr(a.At)
		}
		c.ResolutionNote = note
	default:
		c.ResolvedAt = nil
		c.ResolutionNote = ""
	}
	c.Status = to
	c.UpdatedAt = a.At
	return c
}

func effectsOfMove(before Case, a Actor, to, note string) Effects {
	after := moveStatus(before, a, to, note)
	ev := newEvent(&after, a, EventStatusChanged, fmt.Sprintf("Status changed from %s to %s", prose.Enum(before.Status), prose.Enum(to)))
	ev.PreviousValue = ptr(before.Status)
	ev.NewValue = ptr(to)
	if note != "" {
		ev.Metadata = map[string]any{"resolutionNote": note}
	}
	eff := Effects{Events: []Event{ev}}
	if RequiresResolutionNote(to) {
		data := caseData(&after)
		data["previousStatus"] = before.Status
		eff.Webhooks = append(eff.Webhooks, WebhookEffect{Event: WebhookCaseResolved, Data: data})
	}
	return eff
}

// Assign sets the case's assignee and returns an ASSIGNED event (docs/design/design-choices.md §5). It is allowed
// in every status (docs/reference/specification.md 3.1 "any | assign"). Re-assigning the current assignee is a
// no-op without event. That assigneeID is an active user of the tenant is the Service's check.
//
// Errors: VALIDATION_ERROR on assigneeId when it is blank.
func Assign(c Case, a Actor, assigneeID string) (Case, Effects, error) {
	if assigneeID == "" {
		return c, Effects{}, apperr.Invalid("assigneeId", "is required")
	}
	if c.AssignedTo != nil && *c.AssignedTo == assigneeID {
		return c, Effects{}, nil
	}
	ev := newEvent(&c, a, EventAssigned, "Case assigned")
	ev.PreviousValue = c.AssignedTo
	ev.NewValue = ptr(assigneeID)
	c.AssignedTo = ptr(assigneeID)
	c.UpdatedAt = a.At
	return c, Effects{Events: []Event{ev}}, nil
}

// AddNote returns a NOTE_ADDED event whose description is the note text (docs/reference/specification.md 4.2).
// Notes may be added in every status; the case itself does not change.
//
// Errors: VALIDATION_ERROR on content when it is blank or too long.
func AddNote(c Case, a Actor, content string) (Event, error) {
	text, fe := requiredText("content", content, MaxNoteLen)
	if fe != nil {
		return Event{}, apperr.InvalidFields(*fe)
	}
	return newEvent(&c, a, EventNoteAdded, text), nil
}
