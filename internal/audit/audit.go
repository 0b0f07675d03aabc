// Package audit holds the audit-log event: who did what, when, with before and after
// (docs/design/design-choices.md §10). Stores write events in the same transaction as the change they record.
//
// audit must not import adapters; it depends only on tenancy.
package audit

import (
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// Actor types.
const (
	ActorUser   = "USER"
	ActorAPIKey = "API_KEY"
	ActorSystem = "SYSTEM"
)

// Actor is who made a change.
type Actor struct {
	ID        string // user id; empty for the system
	Type      string
	IP        string
	RequestID string
}

// System is the actor of background jobs and operator commands.
var System = Actor{Type: ActorSystem}

// Event is one audit record.
type Event struct {
	ID           string
	TenantID     tenancy.TenantID
	Actor        Actor
	Action       string
	ResourceType string
	ResourceID   string
	Before       any // marshalled to JSON; nil for none
	After        any
	CreatedAt    time.Time
}

// ListParams filters the audit log.
type ListParams struct {
	ActorID string
	Action  string
	// ResourceType filters on the changed resource's type (user, case, kyc_application, ...).
	ResourceType string
	From         *time.Time
	To           *time.Time
}
