package auth

import (
	"time"

	"github.com/complyd/complyd/internal/tenancy"
)

// User is a person of a tenant (docs/reference/specification.md 2.1).
type User struct {
	ID          string
	TenantID    tenancy.TenantID
	Email       string
	FirstName   string
	LastName    string
	Role        Role
	IsActive    bool
	MFAEnabled  bool
	LastLoginAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Credentials are a user's secrets, read only to check a login.
type Credentials struct {
	PasswordHash string
	TOTPSecret   string // empty until enrolled
	// TOTPLastStep is the time step (Unix time / 30 s) of the last code accepted: a code of that
	// step or an earlier one is refused, so each code completes one login at most.
	TOTPLastStep int64
}

// NewUser is what CreateUser needs.
type NewUser struct {
	Email     string
	Password  string
	FirstName string
	LastName  string
	Role      Role
}

// UserPatch holds the optional changes of UpdateUser; nil means unchanged.
type UserPatch struct {
	FirstName *string
	LastName  *string
	Role      *Role
	IsActive  *bool
}

// APIKey is a tenant-scoped key acting with its creator's current role.
type APIKey struct {
	ID         string
	TenantID   tenancy.TenantID
	CreatedBy  string
	Name       string
	Prefix     string
	Key        string // plaintext; only set in the creation response
	ExpiresAt  *time.Time
	RevokedAt  *time.Time
	LastUsedAt *time.Time
	CreatedAt  time.Time
}

// RefreshToken is one link of a token family; only its hash is stored.
type RefreshToken struct {
	ID        string
	FamilyID  string
	UserID    string
	Hash      []byte
	ExpiresAt time.Time
}

// Challenge is an MFA login in progress (docs/design/design-choices.md §3: single use, 5 minutes).
type Challenge struct {
	ID            string
	TenantID      tenancy.TenantID
	UserID        string
	Hash          []byte
	PendingSecret string
	UseCookies    bool
	Attempts      int
	ExpiresAt     time.Time
	UsedAt        *time.Time
}

// ChallengeTTL is the tempToken lifetime.
const ChallengeTTL = 5 * time.Minute

// MaxChallengeAttempts bounds wrong TOTP codes per challenge.
const MaxChallengeAttempts = 5
