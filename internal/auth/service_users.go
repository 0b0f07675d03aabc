package auth

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/paging"
)

// User list paging (docs/reference/specification.md 4.1: default 50, max 100).
const (
	UserPageDefault = 50
	UserPageMax     = 100
)

// ListUsers pages the tenant's users.
func (s *Service) ListUsers(ctx context.Context, p Principal, role Role, pg paging.Params) (paging.Result[User], error) {
	return s.store.ListUsers(ctx, p.TenantID, role, pg)
}

// CreateUser creates a user and queues the welcome email in the same transaction.
// Codes: VALIDATION_ERROR, USER_ALREADY_EXISTS.
func (s *Service) CreateUser(ctx context.Context, p Principal, actor audit.Actor, nu NewUser) (User, error) {
	if !nu.Role.Valid() {
		return User{}, apperr.Invalid("role", "must be one of BANK_ADMIN, COMPLIANCE_OFFICER, ANALYST, AUDITOR")
	}
	if len(nu.Password) < 8 {
		return User{}, apperr.Invalid("password", "must be at least 8 characters")
	}
	hash, err := HashPassword(nu.Password)
	if err != nil {
		return User{}, err
	}
	t, err := s.store.GetTenant(ctx, p.TenantID)
	if err != nil {
		return User{}, err
	}
	now := s.now()
	u := User{ID: uuid.NewString(), TenantID: p.TenantID, Email: normalizeEmail(nu.Email), FirstName: nu.FirstName,
		LastName: nu.LastName, Role: nu.Role, IsActive: true, CreatedAt: now, UpdatedAt: now}
	welcome := notify.Welcome(t.Name, u.FirstName, u.Email)
	welcome.TenantID = p.TenantID
	ev := audit.Event{TenantID: p.TenantID, Actor: actor, Action: "user.created", ResourceType: "user", ResourceID: u.ID, After: userAudit(u)}
	return s.store.CreateUser(ctx, u, hash, welcome, ev)
}

// UpdateUser applies a patch. A user cannot deactivate or demote themselves.
// Codes: NOT_FOUND, CONFLICT.
func (s *Service) UpdateUser(ctx context.Context, p Principal, actor audit.Actor, id string, patch UserPatch) (User, error) {
	if id == p.UserID {
		if patch.IsActive != nil && !*patch.IsActive {
			return User{}, apperr.New(apperr.Conflict, "you cannot deactivate your own account")
		}
		if patch.Role != nil && *patch.Role != p.Role {
			return User{}, apperr.New(apperr.Conflict, "you cannot change your own role")
		}
	}
	return s.store.UpdateUser(ctx, p.TenantID, id, func(u *User) (audit.Event, error) {
		before := userAudit(*u)
		action := "user.updated"
		if patch.FirstName != nil {
			u.FirstName = *patch.FirstName
		}
		if patch.LastName != nil {
			u.LastName = *patch.LastName
		}
		if patch.Role != nil {
			u.Role = *patch.Role
		}
		if patch.IsActive != nil {
			if u.IsActive && !*patch.IsActive {
				action = "user.deactivated"
			} else if !u.IsActive && *patch.IsActive {
				action = "user.reactivated"
			}
			u.IsActive = *patch.IsActive
		}
		u.UpdatedAt = s.now()
		return audit.Event{TenantID: p.TenantID, Actor: actor, Action: action, ResourceType: "user", ResourceID: u.ID,
			Before: before, After: userAudit(*u)}, nil
	})
}

// DeactivateUser soft-deletes a user (isActive false); its tokens and keys stop working at once.
func (s *Service) DeactivateUser(ctx context.Context, p Principal, actor audit.Actor, id string) (User, error) {
	f := false
	return s.UpdateUser(ctx, p, actor, id, UserPatch{IsActive: &f})
}

func userAudit(u User) map[string]any {
	return map[string]any{"email": u.Email, "firstName": u.FirstName, "lastName": u.LastName, "role": string(u.Role), "isActive": u.IsActive}
}

// CreateAPIKey creates a key acting with the caller's role. Codes: VALIDATION_ERROR.
func (s *Service) CreateAPIKey(ctx context.Context, p Principal, actor audit.Actor, name string, expiresAt *time.Time) (APIKey, error) {
	if expiresAt != nil && !expiresAt.After(s.now()) {
		return APIKey{}, apperr.Invalid("expiresAt", "must be in the future")
	}
	token, hash := NewOpaque(PrefixAPIKey, p.TenantID)
	k := APIKey{ID: uuid.NewString(), TenantID: p.TenantID, CreatedBy: p.UserID, Name: name, Prefix: token[:16],
		ExpiresAt: expiresAt, CreatedAt: s.now()}
	ev := audit.Event{TenantID: p.TenantID, Actor: actor, Action: "api_key.created", ResourceType: "api_key", ResourceID: k.ID,
		After: map[string]any{"name": name, "prefix": k.Prefix}}
	if err := s.store.CreateAPIKey(ctx, k, hash, ev); err != nil {
		return APIKey{}, err
	}
	k.Key = token
	return k, nil
}

// ListAPIKeys lists keys without secrets.
func (s *Service) ListAPIKeys(ctx context.Context, p Principal) ([]APIKey, error) {
	return s.store.ListAPIKeys(ctx, p.TenantID)
}

// RevokeAPIKey revokes a key. Codes: NOT_FOUND.
func (s *Service) RevokeAPIKey(ctx context.Context, p Principal, actor audit.Actor, id string) (APIKey, error) {
	ev := audit.Event{TenantID: p.TenantID, Actor: actor, Action: "api_key.revoked", ResourceType: "api_key", ResourceID: id}
	return s.store.RevokeAPIKey(ctx, p.TenantID, id, s.now(), ev)
}

// MFARequired reads the tenant's policy.
func (s *Service) MFARequired(ctx context.Context, p Principal) (bool, error) {
	return s.store.GetMFARequired(ctx, p.TenantID)
}

// SetMFARequired changes the tenant's policy.
func (s *Service) SetMFARequired(ctx context.Context, p Principal, actor audit.Actor, required bool) error {
	ev := audit.Event{TenantID: p.TenantID, Actor: actor, Action: "tenant.security_updated", ResourceType: "tenant",
		ResourceID: string(p.TenantID), After: map[string]any{"mfaRequired": required}}
	return s.store.SetMFARequired(ctx, p.TenantID, required, ev)
}

// ListAudit pages the audit log.
func (s *Service) ListAudit(ctx context.Context, p Principal, f audit.ListParams, pg paging.Params) (paging.Result[audit.Event], error) {
	return s.store.ListAudit(ctx, p.TenantID, f, pg)
}
