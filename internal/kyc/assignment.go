package kyc

import (
	"context"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// SetAssignee records who reviews the application (PATCH .../assign and .../unassign; "" clears
// it), audited as kyc.assigned or kyc.unassigned in the same transaction. The assignee's
// eligibility is review.Service's check, made before. Assigning the current assignee again
// changes nothing and writes no audit event. Assignment is allowed in every status: a decided
// application may still need a reviewer for its follow-up. Errors: NOT_FOUND.
func (s *Service) SetAssignee(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, assigneeID string) (Application, error) {
	var unchanged *Application
	a, err := s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if a.AssignedTo == assigneeID {
			cp := *a
			unchanged = &cp
			return Change{}, audit.ErrUnchanged
		}
		ev := audit.Assignment(tenantID, actor, "kyc", "kyc_application", a.ID, a.AssignedTo, assigneeID)
		a.AssignedTo = assigneeID
		a.UpdatedAt = s.Now()
		return Change{Audit: ev}, nil
	})
	if unchanged != nil {
		return *unchanged, nil
	}
	return a, err
}
