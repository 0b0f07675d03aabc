package auth

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Store is the persistence auth needs. Every method is one transaction; every method but
// FindLogin is scoped by tenant. Missing rows (and rows of another tenant) are NOT_FOUND.
type Store interface {
	// FindLogin resolves a login email to its tenant and user. NOT_FOUND when unknown.
	FindLogin(ctx context.Context, email string) (tenancy.TenantID, string, error)
	// GetTenant returns the tenant. NOT_FOUND.
	GetTenant(ctx context.Context, tenantID tenancy.TenantID) (tenancy.Tenant, error)
	// GetUser returns a user. NOT_FOUND.
	GetUser(ctx context.Context, tenantID tenancy.TenantID, id string) (User, error)
	// GetProfile returns a user with its tenant in one read. NOT_FOUND.
	GetProfile(ctx context.Context, tenantID tenancy.TenantID, id string) (User, tenancy.Tenant, error)
	// GetCredentials returns a user's secrets. NOT_FOUND.
	GetCredentials(ctx context.Context, tenantID tenancy.TenantID, id string) (Credentials, error)
	// ListUsers pages users, oldest first, optionally filtered by role.
	ListUsers(ctx context.Context, tenantID tenancy.TenantID, role Role, p paging.Params) (paging.Result[User], error)
	// CreateUser inserts the user, its login email, the welcome email and its send job, and the
	// audit event, together. USER_ALREADY_EXISTS when the email is taken.
	CreateUser(ctx context.Context, u User, passwordHash string, welcome notify.Message, ev audit.Event) (User, error)
	// UpdateUser locks the user, applies fn and writes the row and the audit event fn returns.
	// When the user ends inactive, every token family of the user is revoked. NOT_FOUND.
	UpdateUser(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*User) (audit.Event, error)) (User, error)
	// RecordLoginFailure writes an audit event for a failed login of a known user.
	RecordLoginFailure(ctx context.Context, ev audit.Event) error

	// StartSession creates a token family with its first refresh token, stamps last_login_at and
	// writes the login audit event.
	StartSession(ctx context.Context, tenantID tenancy.TenantID, rt RefreshToken, ev audit.Event) error
	// RotateRefresh exchanges the token with oldHash for next, in the same family.
	// INVALID_REFRESH_TOKEN when the token is unknown, expired, revoked or its user inactive; a
	// token already rotated revokes its whole family (committed) and is INVALID_REFRESH_TOKEN.
	// It returns the user and the family id; now is the service clock.
	RotateRefresh(ctx context.Context, tenantID tenancy.TenantID, oldHash []byte, next RefreshToken, now time.Time) (User, string, error)
	// RevokeFamilyOf revokes the family of the refresh token with hash (no error if unknown).
	RevokeFamilyOf(ctx context.Context, tenantID tenancy.TenantID, hash []byte, ev audit.Event) error
	// RevokeFamily revokes a family by id.
	RevokeFamily(ctx context.Context, tenantID tenancy.TenantID, familyID string, ev audit.Event) error
	// ResolveSession returns the user of a live family. UNAUTHENTICATED when the family is
	// revoked or the user inactive.
	ResolveSession(ctx context.Context, tenantID tenancy.TenantID, userID, familyID string) (User, error)

	// CreateAPIKey stores a key by hash with its audit event.
	CreateAPIKey(ctx context.Context, k APIKey, hash []byte, ev audit.Event) error
	// ListAPIKeys lists the tenant's keys, newest first.
	ListAPIKeys(ctx context.Context, tenantID tenancy.TenantID) ([]APIKey, error)
	// RevokeAPIKey revokes a key. NOT_FOUND.
	RevokeAPIKey(ctx context.Context, tenantID tenancy.TenantID, id string, at time.Time, ev audit.Event) (APIKey, error)
	// ResolveAPIKey returns the creator and the key with that hash if the key is live.
	// UNAUTHENTICATED otherwise.
	ResolveAPIKey(ctx context.Context, tenantID tenancy.TenantID, hash []byte, now time.Time) (User, APIKey, error)

	// CreateChallenge stores an MFA challenge.
	CreateChallenge(ctx context.Context, c Challenge) error
	// UpdateChallenge locks the challenge with hash, applies fn and saves it, and, when fn sets
	// enrol, stores the user's TOTP secret. UNAUTHENTICATED when unknown.
	UpdateChallenge(ctx context.Context, tenantID tenancy.TenantID, hash []byte, fn func(*Challenge, *Credentials) (ChallengeOutcome, error)) (Challenge, error)

	// SetMFARequired changes the tenant's MFA policy with its audit event.
	SetMFARequired(ctx context.Context, tenantID tenancy.TenantID, required bool, ev audit.Event) error
	// GetMFARequired reads the tenant's MFA policy.
	GetMFARequired(ctx context.Context, tenantID tenancy.TenantID) (bool, error)
	// CreateTenant inserts a tenant, its settings and its first BANK_ADMIN user. CONFLICT when
	// the slug is taken, USER_ALREADY_EXISTS when the email is.
	CreateTenant(ctx context.Context, t tenancy.Tenant, admin User, passwordHash string, ev audit.Event) error
	// ListAudit pages the tenant's audit log, newest first.
	ListAudit(ctx context.Context, tenantID tenancy.TenantID, f audit.ListParams, p paging.Params) (paging.Result[audit.Event], error)
}

// ChallengeOutcome tells UpdateChallenge what else to write with the challenge.
type ChallengeOutcome struct {
	// EnrolSecret, when set, becomes the user's TOTP secret.
	EnrolSecret string
	// Audit, when Action is set, is written too.
	Audit audit.Event
	// Err is returned to the caller after the challenge is saved (a wrong code still counts).
	Err error
}
