package cases

import "time"

// Event is one timeline entry of a case (docs/reference/specification.md 2.3 "Case event").
type Event struct {
	ID            string // cevt_<id>
	CaseID        string
	EventType     string
	ActorID       string // user id; "" when the system acted (stored as NULL)
	Description   string
	PreviousValue *string
	NewValue      *string
	Metadata      map[string]any
	CreatedAt     time.Time
}

// Timeline event types (docs/reference/specification.md 2.3, docs/design/design-choices.md §5).
const (
	EventCaseCreated           = "CASE_CREATED"
	EventNoteAdded             = "NOTE_ADDED"
	EventStatusChanged         = "STATUS_CHANGED"
	EventAssigned              = "ASSIGNED"
	EventResolutionProposed    = "RESOLUTION_PROPOSED"
	EventResolutionApproved    = "RESOLUTION_APPROVED"
	EventResolutionRejected    = "RESOLUTION_REJECTED"
	EventInterdictionRequested = "INTERDICTION_REQUESTED"
	EventInterdictionConfirmed = "INTERDICTION_CONFIRMED"
	// Lifting an interdiction (interdiction_lift.go).
	EventInterdictionLiftRequested = "INTERDICTION_LIFT_REQUESTED"
	EventInterdictionLifted        = "INTERDICTION_LIFTED"
	EventInterdictionLiftRejected  = "INTERDICTION_LIFT_REJECTED"
)

// EventTypes lists every timeline event type.
func EventTypes() []string {
	return []string{
		EventCaseCreated, EventNoteAdded, EventStatusChanged, EventAssigned,
		EventResolutionProposed, EventResolutionApproved, EventResolutionRejected,
		EventInterdictionRequested, EventInterdictionConfirmed,
		EventInterdictionLiftRequested, EventInterdictionLifted, EventInterdictionLiftRejected,
	}
}

// Webhook event names that cases emits. They equal webhook.EventCaseCreated and friends; they
// are repeated here so that cases does not import webhook (see the package comment).
const (
	WebhookCaseCreated           = "case.created"
	WebhookCaseResolved          = "case.resolved"
	WebhookInterdictionRequested = "interdiction.requested"
	WebhookInterdictionLifted    = "interdiction.lifted"
)

// NotifyComplianceOfficers is the Notification kind for "automatically created cases notify
// compliance officers by email and on the dashboard" (docs/reference/specification.md part 1).
const NotifyComplianceOfficers = "notify.compliance_officers"

// Actor is who performs an operation, and when. UserID "" is the system (automatic case
// creation by screening).
type Actor struct {
	UserID string
	// APIKey: the call came with an API key (an integration such as the bank's core), not from
	// a person in the dashboard.
	APIKey bool
	At     time.Time
}

// Effects are what an operation asks the store to write besides the case row, in the same
// transaction: timeline events, webhook deliveries (enqueued with River InsertTx) and
// notifications (mail outbox, dashboard).
type Effects struct {
	Events        []Event
	Webhooks      []WebhookEffect
	Notifications []Notification
}

// WebhookEffect asks for one webhook event; the store turns it into a webhook.Delivery when the
// tenant has a webhook URL configured and drops it otherwise.
type WebhookEffect struct {
	Event string         // case.created, case.resolved, interdiction.requested
	Data  map[string]any // the payload's data object
}

// Notification asks for a notification to people of the tenant; the notify capability renders
// and addresses it (for NotifyComplianceOfficers: every active COMPLIANCE_OFFICER).
type Notification struct {
	Kind string
	// Case is the case the notification is about, as written (CaseNumber already assigned).
	Case Case
}

// add appends other's effects to e.
func (e *Effects) add(other Effects) {
	e.Events = append(e.Events, other.Events...)
	e.Webhooks = append(e.Webhooks, other.Webhooks...)
	e.Notifications = append(e.Notifications, other.Notifications...)
}

// newEvent returns a timeline event of the actor on the case.
func newEvent(c *Case, a Actor, typ, desc string) Event {
	return Event{
		ID:          NewID(PrefixEvent),
		CaseID:      c.ID,
		EventType:   typ,
		ActorID:     a.UserID,
		Description: desc,
		CreatedAt:   a.At,
	}
}

// caseData is the data object of case webhooks: the case's public fields (docs/reference/specification.md 2.3).
func caseData(c *Case) map[string]any {
	d := map[string]any{
		"caseId":                  c.ID,
		"caseNumber":              c.CaseNumber,
		"type":                    c.Type,
		"priority":                c.Priority,
		"title":                   c.Title,
		"status":                  c.Status,
		"assignedTo":              c.AssignedTo,
		"relatedTransactionId":    c.RelatedTransactionID,
		"relatedKycApplicationId": c.RelatedKYCApplicationID,
		"tags":                    c.Tags,
		"resolvedAt":              c.ResolvedAt,
		"createdAt":               c.CreatedAt,
		"updatedAt":               c.UpdatedAt,
	}
	if c.ResolutionNote != "" {
		d["resolutionNote"] = c.ResolutionNote
	}
	return d
}

func ptr[T any](v T) *T { return &v }
