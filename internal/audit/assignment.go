package audit

import (
	"errors"

	"github.com/complyd/complyd/internal/tenancy"
)

// Assignment is the audit event of a change of who works a resource (a KYC or KYB application):
// "<prefix>.assigned", or "<prefix>.unassigned" when to is empty, with the assignee before and
// after (null when nobody).
func Assignment(tenantID tenancy.TenantID, actor Actor, prefix, resourceType, resourceID, from, to string) Event {
	action := prefix + ".assigned"
	if to == "" {
		action = prefix + ".unassigned"
	}
	return Event{TenantID: tenantID, Actor: actor, Action: action, ResourceType: resourceType, ResourceID: resourceID,
		Before: map[string]any{"assignedTo": nullable(from)}, After: map[string]any{"assignedTo": nullable(to)}}
}

// ErrUnchanged rolls back an update that would change nothing (assigning the current assignee
// again): the caller answers with the row as it is and writes no audit event.
var ErrUnchanged = errors.New("unchanged")

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
