package audit

import "github.com/complyd/complyd/internal/tenancy"

// Caller is who calls a core service: the one caller type of the cases, network, interdiction
// and report services; the old aliases cases.Caller and reports.Caller are gone).
// The transport builds it once from the authenticated principal (auth.Principal.Caller); the
// system builds its own (automatic case creation: a TenantID and nothing else).
type Caller struct {
	TenantID tenancy.TenantID
	// UserID is the acting user ("" for the system).
	UserID string
	// APIKey: the caller authenticated with an API key (an integration, not a person).
	APIKey bool
	// Actor is the audit actor of the call (its IP and request id when the transport knows
	// them); the report service records it on each event.
	Actor Actor
}
