package auth

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/complyd/complyd/internal/tenancy"
)

// AccessTTL is the default access token lifetime (docs/reference/specification.md part 8); COMPLYD_ACCESS_TTL
// shortens it (tests of the dashboard's silent refresh, docs/guide/dashboard.md "Sessions").
const AccessTTL = 15 * time.Minute

// RefreshTTL is the refresh token lifetime.
const RefreshTTL = 7 * 24 * time.Hour

// AccessClaims are what an access token asserts; the role is read from the database on use.
type AccessClaims struct {
	UserID   string
	TenantID tenancy.TenantID
	FamilyID string
}

// AccessTokens issues and verifies HS256 access tokens.
type AccessTokens struct {
	key []byte
	now func() time.Time
	ttl time.Duration
}

// NewAccessTokens returns an issuer keyed with key (COMPLYD_JWT_SECRET).
func NewAccessTokens(key []byte, now func() time.Time) *AccessTokens {
	if len(key) < 16 {
		panic("auth: access token key shorter than 16 bytes")
	}
	return &AccessTokens{key: key, now: now, ttl: AccessTTL}
}

// WithTTL returns a copy of a issuing tokens that live ttl (> 0) instead of AccessTTL.
func (a *AccessTokens) WithTTL(ttl time.Duration) *AccessTokens {
	if ttl <= 0 {
		panic("auth: access token TTL must be positive")
	}
	c := *a
	c.ttl = ttl
	return &c
}

// TTL is how long the tokens a issues live.
func (a *AccessTokens) TTL() time.Duration { return a.ttl }

type jwtClaims struct {
	TenantID string `json:"tid"`
	FamilyID string `json:"fam"`
	jwt.RegisteredClaims
}

// Issue returns a signed token for c.
func (a *AccessTokens) Issue(c AccessClaims) (string, error) {
	now := a.now()
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, jwtClaims{
		TenantID: string(c.TenantID),
		FamilyID: c.FamilyID,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   c.UserID,
			Issuer:    "complyd",
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(a.ttl)),
		},
	})
	s, err := tok.SignedString(a.key)
	if err != nil {
		return "", fmt.Errorf("sign access token: %w", err)
	}
	return s, nil
}

// ErrBadToken is returned for a malformed, forged or expired access token.
var ErrBadToken = errors.New("invalid access token")

// Parse verifies token and returns its claims.
func (a *AccessTokens) Parse(token string) (AccessClaims, error) {
	var c jwtClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return a.key, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer("complyd"), jwt.WithTimeFunc(a.now),
		jwt.WithExpirationRequired())
	if err != nil || c.Subject == "" || c.TenantID == "" {
		return AccessClaims{}, ErrBadToken
	}
	return AccessClaims{UserID: c.Subject, TenantID: tenancy.TenantID(c.TenantID), FamilyID: c.FamilyID}, nil
}
