package auth

import (
	"context"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// AccountStore is what Account needs of the store (postgres.AccountStore): the user's
// credentials and the two writes of the account screens, each with its audit event in the same
// transaction.
type AccountStore interface {
	// GetUser returns a user of the tenant. Errors: NOT_FOUND.
	GetUser(ctx context.Context, tenantID tenancy.TenantID, id string) (User, error)
	// GetTenant returns the tenant. Errors: NOT_FOUND.
	GetTenant(ctx context.Context, tenantID tenancy.TenantID) (tenancy.Tenant, error)
	// GetCredentials returns the user's secrets. Errors: NOT_FOUND.
	GetCredentials(ctx context.Context, tenantID tenancy.TenantID, id string) (Credentials, error)
	// SetPassword replaces the password hash. Errors: NOT_FOUND.
	SetPassword(ctx context.Context, tenantID tenancy.TenantID, id, hash string, ev audit.Event) error
	// SetTOTP stores secret as the user's TOTP secret ("" removes it and its last step) and
	// returns the user. Errors: NOT_FOUND.
	SetTOTP(ctx context.Context, tenantID tenancy.TenantID, id, secret string, lastStep int64, ev audit.Event) (User, error)
}

// Account is a signed-in user's own account (password, MFA enrolment) and the BANK_ADMIN's
// reset of another user's MFA. It works on the principal's user: an API key acts with its
// creator's role but is not that person, so it may not change their password or MFA.
type Account struct {
	store AccountStore
	now   func() time.Time
}

// NewAccount returns an Account.
func NewAccount(store AccountStore, now func() time.Time) *Account {
	if store == nil || now == nil {
		panic("auth.NewAccount: missing dependency")
	}
	return &Account{store: store, now: now}
}

func personal(p Principal) error {
	if p.Method == MethodAPIKey {
		return apperr.New(apperr.Forbidden, "an API key cannot change its creator's password or MFA; sign in as the user")
	}
	return nil
}

// ChangePassword replaces the caller's password after checking the current one.
// Codes: FORBIDDEN (API key), INVALID_CREDENTIALS, VALIDATION_ERROR.
func (a *Account) ChangePassword(ctx context.Context, p Principal, actor audit.Actor, current, next string) error {
	if err := personal(p); err != nil {
		return err
	}
	if len(next) < 8 {
		return apperr.Invalid("newPassword", "must be at least 8 characters")
	}
	cr, err := a.store.GetCredentials(ctx, p.TenantID, p.UserID)
	if err != nil {
		return err
	}
	if !CheckPassword(cr.PasswordHash, current) {
		return apperr.New(apperr.InvalidCredentials, "the current password is wrong")
	}
	hash, err := HashPassword(next)
	if err != nil {
		return err
	}
	return a.store.SetPassword(ctx, p.TenantID, p.UserID, hash, audit.Event{TenantID: p.TenantID, Actor: actor,
		Action: "auth.password_changed", ResourceType: "user", ResourceID: p.UserID})
}

// StartEnrolment returns a new TOTP secret and its otpauth URL; nothing is stored until
// ConfirmEnrolment. Codes: FORBIDDEN (API key), CONFLICT (already enrolled).
func (a *Account) StartEnrolment(ctx context.Context, p Principal) (secret, otpauthURL string, err error) {
	if err := personal(p); err != nil {
		return "", "", err
	}
	cr, err := a.store.GetCredentials(ctx, p.TenantID, p.UserID)
	if err != nil {
		return "", "", err
	}
	if cr.TOTPSecret != "" {
		return "", "", apperr.New(apperr.Conflict, "MFA is already enrolled; an administrator can reset it")
	}
	u, err := a.store.GetUser(ctx, p.TenantID, p.UserID)
	if err != nil {
		return "", "", err
	}
	t, err := a.store.GetTenant(ctx, p.TenantID)
	if err != nil {
		return "", "", err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "complyd (" + t.Name + ")", AccountName: u.Email})
	if err != nil {
		return "", "", err
	}
	return key.Secret(), key.URL(), nil
}

// ConfirmEnrolment stores secret as the caller's TOTP secret once code is valid for it. The
// secret comes back from the client that StartEnrolment gave it to: it is the caller's own, and
// a code computed from it proves the authenticator holds it. Codes: FORBIDDEN (API key),
// CONFLICT (already enrolled), INVALID_CREDENTIALS (wrong code).
func (a *Account) ConfirmEnrolment(ctx context.Context, p Principal, actor audit.Actor, secret, code string) (User, error) {
	if err := personal(p); err != nil {
		return User{}, err
	}
	cr, err := a.store.GetCredentials(ctx, p.TenantID, p.UserID)
	if err != nil {
		return User{}, err
	}
	if cr.TOTPSecret != "" {
		return User{}, apperr.New(apperr.Conflict, "MFA is already enrolled; an administrator can reset it")
	}
	step, ok := totpStep(code, secret, a.now())
	if !ok {
		return User{}, apperr.New(apperr.InvalidCredentials, "invalid MFA code")
	}
	// The accepted step is recorded, so this code cannot complete a login afterwards.
	return a.store.SetTOTP(ctx, p.TenantID, p.UserID, secret, step, audit.Event{TenantID: p.TenantID, Actor: actor,
		Action: "auth.mfa_enrolled", ResourceType: "user", ResourceID: p.UserID})
}

// ResetMFA removes another user's TOTP enrolment (BANK_ADMIN, enforced by the transport's
// permission table). Codes: CONFLICT (own account), NOT_FOUND.
func (a *Account) ResetMFA(ctx context.Context, p Principal, actor audit.Actor, userID string) (User, error) {
	if userID == p.UserID {
		return User{}, apperr.New(apperr.Conflict, "you cannot reset your own MFA; ask another administrator")
	}
	u, err := a.store.GetUser(ctx, p.TenantID, userID)
	if err != nil {
		return User{}, err
	}
	return a.store.SetTOTP(ctx, p.TenantID, userID, "", 0, audit.Event{TenantID: p.TenantID, Actor: actor,
		Action: "user.mfa_reset", ResourceType: "user", ResourceID: userID,
		Before: map[string]any{"mfaEnabled": u.MFAEnabled}, After: map[string]any{"mfaEnabled": false}})
}
