// Package review owns the review queue of KYC and KYB applications: who may be assigned an
// application (an active user of the tenant whose role may decide applications, the rule of
// docs/reference/specification.md part 5 for approve and reject) and the queue filter assignedTo=me, a user id
// or unassigned (docs/guide/application-assignment.md; the filter itself is application.Queue).
// Recording the assignee is the shared step application.Core.SetAssignee, which review calls
// through kyc and kyb.
//
// review is core: it imports application, kyc, kyb, auth, audit, apperr and tenancy; never pgx, river,
// connect, net/http or an adapter.
package review

import (
	"context"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/tenancy"
)

// Reviewers are the roles that may be assigned an application: those allowed to approve or
// reject it (docs/reference/specification.md part 5).
var Reviewers = auth.Officers

// Users is the port to the tenant's user directory.
type Users interface {
	// GetUser returns a user of the tenant. Errors: NOT_FOUND (also for another tenant's user).
	GetUser(ctx context.Context, tenantID tenancy.TenantID, id string) (auth.User, error)
}

// Service assigns applications.
type Service struct {
	users Users
	kyc   *kyc.Service
	kyb   *kyb.Service
}

// NewService returns the service; it panics on a missing dependency.
func NewService(users Users, k *kyc.Service, b *kyb.Service) *Service {
	if users == nil || k == nil || b == nil {
		panic("review: NewService needs every dependency")
	}
	return &Service{users: users, kyc: k, kyb: b}
}

// CheckAssignee validates an assignee as cases.Service.Assign does, plus the role: Errors:
// VALIDATION_ERROR on assigneeId (blank, deactivated, or a role that may not decide
// applications); NOT_FOUND for a user that is not of the caller's tenant (unknown, or of another
// tenant: indistinguishable on purpose, docs/design/design-choices.md §2).
func (s *Service) CheckAssignee(ctx context.Context, tenantID tenancy.TenantID, assigneeID string) error {
	if assigneeID == "" {
		return apperr.Invalid("assigneeId", "is required")
	}
	u, err := s.users.GetUser(ctx, tenantID, assigneeID)
	switch {
	case apperr.CodeOf(err) == apperr.NotFound:
		return apperr.NotFoundf("assignee not found")
	case err != nil:
		return err
	case !u.IsActive:
		return apperr.Invalid("assigneeId", "must be an active user")
	case !Reviewers.Has(u.Role):
		return apperr.Invalid("assigneeId", "must be a BANK_ADMIN or COMPLIANCE_OFFICER (a role that may decide applications)")
	}
	return nil
}

// AssignKYC assigns a KYC application. Errors: CheckAssignee's, NOT_FOUND for the application.
func (s *Service) AssignKYC(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, assigneeID string) (kyc.Application, error) {
	if err := s.CheckAssignee(ctx, tenantID, assigneeID); err != nil {
		return kyc.Application{}, err
	}
	return s.kyc.SetAssignee(ctx, tenantID, actor, id, assigneeID)
}

// UnassignKYC clears a KYC application's assignee. Errors: NOT_FOUND.
func (s *Service) UnassignKYC(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (kyc.Application, error) {
	return s.kyc.SetAssignee(ctx, tenantID, actor, id, "")
}

// AssignKYB assigns a KYB application. Errors: CheckAssignee's, NOT_FOUND for the application.
func (s *Service) AssignKYB(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, assigneeID string) (kyb.Application, error) {
	if err := s.CheckAssignee(ctx, tenantID, assigneeID); err != nil {
		return kyb.Application{}, err
	}
	return s.kyb.SetAssignee(ctx, tenantID, actor, id, assigneeID)
}

// UnassignKYB clears a KYB application's assignee. Errors: NOT_FOUND.
func (s *Service) UnassignKYB(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (kyb.Application, error) {
	return s.kyb.SetAssignee(ctx, tenantID, actor, id, "")
}

// QueueFilter turns the assignedTo query value into a list filter: "me" is the caller, a user
// id that user, "unassigned" nobody; "" no filter.
func QueueFilter(value, callerID string) (assignedTo string, unassigned bool) {
	f := application.Queue("", value, callerID)
	return f.AssignedTo, f.Unassigned
}
