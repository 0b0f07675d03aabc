package auth

import (
	"context"
	"regexp"

	"github.com/google/uuid"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,62}$`)

// CreateTenantParams are the inputs of CreateTenant (the operator's `complyd tenant create`).
type CreateTenantParams struct {
	Name  string
	Slug  string
	Admin NewUser
}

// CreateTenant creates a tenant and its first BANK_ADMIN. Codes: VALIDATION_ERROR, CONFLICT,
// USER_ALREADY_EXISTS.
func (s *Service) CreateTenant(ctx context.Context, p CreateTenantParams) (tenancy.Tenant, User, error) {
	var bad []apperr.FieldError
	if p.Name == "" {
		bad = append(bad, apperr.FieldError{Field: "name", Message: "is required"})
	}
	if !slugRE.MatchString(p.Slug) {
		bad = append(bad, apperr.FieldError{Field: "slug", Message: "must be 2-63 lowercase letters, digits or dashes"})
	}
	if !emailRE.MatchString(p.Admin.Email) {
		bad = append(bad, apperr.FieldError{Field: "adminEmail", Message: "must be an email address"})
	}
	if len(p.Admin.Password) < 8 {
		bad = append(bad, apperr.FieldError{Field: "adminPassword", Message: "must be at least 8 characters"})
	}
	if len(bad) > 0 {
		return tenancy.Tenant{}, User{}, apperr.InvalidFields(bad...)
	}
	hash, err := HashPassword(p.Admin.Password)
	if err != nil {
		return tenancy.Tenant{}, User{}, err
	}
	now := s.now()
	t := tenancy.Tenant{ID: tenancy.TenantID(uuid.NewString()), Name: p.Name, Slug: p.Slug, PrimaryColor: "#0B5FFF", CreatedAt: now}
	first, last := p.Admin.FirstName, p.Admin.LastName
	if first == "" {
		first = "Admin"
	}
	if last == "" {
		last = "User"
	}
	u := User{ID: uuid.NewString(), TenantID: t.ID, Email: normalizeEmail(p.Admin.Email), FirstName: first, LastName: last,
		Role: RoleBankAdmin, IsActive: true, CreatedAt: now, UpdatedAt: now}
	ev := audit.Event{TenantID: t.ID, Actor: audit.System, Action: "tenant.created", ResourceType: "tenant", ResourceID: string(t.ID),
		After: map[string]any{"name": t.Name, "slug": t.Slug, "adminEmail": u.Email}}
	if err := s.store.CreateTenant(ctx, t, u, hash, ev); err != nil {
		return tenancy.Tenant{}, User{}, err
	}
	return t, u, nil
}

var emailRE = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
