package webhook

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/complyd/complyd/internal/ids"
	"github.com/complyd/complyd/internal/tenancy"
)

// Event names (docs/reference/specification.md part 6, docs/design/design-choices.md §9).
const (
	EventCaseCreated           = "case.created"
	EventCaseResolved          = "case.resolved"
	EventTransactionScreened   = "transaction.screened"
	EventKYCStatusChanged      = "kyc.status_changed"
	EventKYBStatusChanged      = "kyb.status_changed"
	EventInterdictionRequested = "interdiction.requested"
	EventInterdictionLifted    = "interdiction.lifted"
	// EventCustomerRiskChanged: a customer's risk rating moved (docs/guide/customers.md).
	EventCustomerRiskChanged = "customer.risk_changed"
	// EventCustomerReviewDue: a customer's periodic review fell due (docs/guide/customers.md).
	EventCustomerReviewDue = "customer.review_due"
	// Regulatory reports (issue 14, docs/guide/reports.md "Webhooks").
	EventReportCreated  = "report.created"
	EventReportApproved = "report.approved"
	EventReportFiled    = "report.filed"
)

// Events lists every event name.
func Events() []string {
	return []string{
		EventCaseCreated, EventCaseResolved, EventTransactionScreened,
		EventKYCStatusChanged, EventKYBStatusChanged, EventInterdictionRequested,
		EventInterdictionLifted,
		EventCustomerRiskChanged, EventCustomerReviewDue,
		EventReportCreated, EventReportApproved, EventReportFiled,
	}
}

// IsEvent reports whether name is an event name.
func IsEvent(name string) bool { return slices.Contains(Events(), name) }

// Id prefixes.
const (
	PrefixEvent    = "evt_"
	PrefixDelivery = "whd_"
)

// NewID returns prefix followed by 26 characters that sort by creation time (ids.New).
func NewID(prefix string) string { return ids.New(prefix) }

// Payload is the JSON body of every webhook (docs/design/design-choices.md §9). ID is unique per event and
// repeated on every retry of it, so receivers deduplicate on it.
type Payload struct {
	ID        string           `json:"id"`
	Event     string           `json:"event"`
	Timestamp time.Time        `json:"timestamp"`
	TenantID  tenancy.TenantID `json:"tenantId"`
	Data      any              `json:"data"`
}

// NewPayload returns the payload of a new event with a fresh evt_ id, stamped at now in UTC.
func NewPayload(tenantID tenancy.TenantID, event string, data any, now time.Time) Payload {
	return Payload{ID: NewID(PrefixEvent), Event: event, Timestamp: now.UTC(), TenantID: tenantID, Data: data}
}

// Marshal returns the body exactly as it is signed and sent.
func (p Payload) Marshal() ([]byte, error) {
	if !IsEvent(p.Event) {
		return nil, fmt.Errorf("marshal webhook payload: unknown event %q", p.Event)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("marshal webhook payload: %w", err)
	}
	return b, nil
}
