package auth

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// Service is the authentication and user-management logic.
type Service struct {
	store   Store
	tokens  *AccessTokens
	limiter LoginThrottle
	now     func() time.Time
	log     *slog.Logger
}

// Deps are the Service's collaborators; all are required.
type Deps struct {
	Store   Store
	Tokens  *AccessTokens
	Limiter LoginThrottle
	Now     func() time.Time
	Logger  *slog.Logger
}

// NewService returns a Service; it panics on a missing dependency.
func NewService(d Deps) *Service {
	if d.Store == nil || d.Tokens == nil || d.Limiter == nil || d.Now == nil || d.Logger == nil {
		panic("auth.NewService: missing dependency")
	}
	return &Service{store: d.Store, tokens: d.Tokens, limiter: d.Limiter, now: d.Now, log: d.Logger}
}

// Tokens is the answer of a completed login or refresh.
type Tokens struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    int
	User         User
	FamilyID     string
}

// LoginResult is either Tokens or an MFA challenge.
type LoginResult struct {
	Tokens           *Tokens
	MFARequired      bool
	MFASetupRequired bool
	TempToken        string
}

// LoginParams are the inputs of Login.
type LoginParams struct {
	Email      string
	Password   string
	UseCookies bool
	IP         string
	RequestID  string
}

// Login checks credentials (docs/reference/specification.md 4.1, part 5). Codes: RATE_LIMITED,
// INVALID_CREDENTIALS, ACCOUNT_DISABLED.
func (s *Service) Login(ctx context.Context, p LoginParams) (LoginResult, error) {
	email := normalizeEmail(p.Email)
	ok, wait, err := s.limiter.Allow(ctx, email, p.IP)
	if err != nil {
		return LoginResult{}, err
	}
	if !ok {
		e := apperr.New(apperr.RateLimited, "too many login attempts; try again later")
		e.RetryAfter = wait
		return LoginResult{}, e
	}
	bad := apperr.New(apperr.InvalidCredentials, "invalid email or password")
	tenantID, userID, err := s.store.FindLogin(ctx, email)
	if apperr.CodeOf(err) == apperr.NotFound {
		CheckPassword(dummyHash, p.Password)
		return LoginResult{}, bad
	} else if err != nil {
		return LoginResult{}, err
	}
	creds, err := s.store.GetCredentials(ctx, tenantID, userID)
	if err != nil {
		return LoginResult{}, err
	}
	actor := audit.Actor{ID: userID, Type: audit.ActorUser, IP: p.IP, RequestID: p.RequestID}
	if !CheckPassword(creds.PasswordHash, p.Password) {
		if err := s.store.RecordLoginFailure(ctx, audit.Event{TenantID: tenantID, Actor: actor, Action: "auth.login_failed",
			ResourceType: "user", ResourceID: userID}); err != nil {
			s.log.ErrorContext(ctx, "record login failure", "err", err)
		}
		return LoginResult{}, bad
	}
	u, err := s.store.GetUser(ctx, tenantID, userID)
	if err != nil {
		return LoginResult{}, err
	}
	if !u.IsActive {
		return LoginResult{}, apperr.New(apperr.AccountDisabled, "this account is deactivated")
	}
	mfa, err := s.store.GetMFARequired(ctx, tenantID)
	if err != nil {
		return LoginResult{}, err
	}
	if mfa {
		return s.startChallenge(ctx, u, creds, p.UseCookies)
	}
	t, err := s.startSession(ctx, u, actor, "auth.login")
	if err != nil {
		return LoginResult{}, err
	}
	return LoginResult{Tokens: &t}, nil
}

func (s *Service) startSession(ctx context.Context, u User, actor audit.Actor, action string) (Tokens, error) {
	familyID := uuid.NewString()
	refresh, hash := NewOpaque(PrefixRefresh, u.TenantID)
	rt := RefreshToken{ID: uuid.NewString(), FamilyID: familyID, UserID: u.ID, Hash: hash, ExpiresAt: s.now().Add(RefreshTTL)}
	ev := audit.Event{TenantID: u.TenantID, Actor: actor, Action: action, ResourceType: "user", ResourceID: u.ID}
	if err := s.store.StartSession(ctx, u.TenantID, rt, ev); err != nil {
		return Tokens{}, err
	}
	return s.issue(u, familyID, refresh)
}

func (s *Service) issue(u User, familyID, refresh string) (Tokens, error) {
	access, err := s.tokens.Issue(AccessClaims{UserID: u.ID, TenantID: u.TenantID, FamilyID: familyID})
	if err != nil {
		return Tokens{}, err
	}
	return Tokens{AccessToken: access, RefreshToken: refresh, ExpiresIn: int(s.tokens.TTL().Seconds()), User: u, FamilyID: familyID}, nil
}

// Refresh rotates a refresh token (docs/design/design-choices.md §3). Codes: INVALID_REFRESH_TOKEN.
func (s *Service) Refresh(ctx context.Context, refreshToken string) (Tokens, error) {
	bad := apperr.New(apperr.InvalidRefreshToken, "refresh token is invalid, expired or already used")
	tenantID, ok := ParseOpaque(PrefixRefresh, refreshToken)
	if !ok {
		return Tokens{}, bad
	}
	next, hash := NewOpaque(PrefixRefresh, tenantID)
	rt := RefreshToken{ID: uuid.NewString(), Hash: hash, ExpiresAt: s.now().Add(RefreshTTL)}
	u, familyID, err := s.store.RotateRefresh(ctx, tenantID, HashOpaque(refreshToken), rt, s.now())
	if err != nil {
		if apperr.CodeOf(err) == apperr.InvalidRefreshToken {
			return Tokens{}, bad
		}
		return Tokens{}, err
	}
	return s.issue(u, familyID, next)
}

// Logout revokes the family of the refresh token, or the caller's own family.
func (s *Service) Logout(ctx context.Context, refreshToken string, p *Principal, actor audit.Actor) error {
	if refreshToken != "" {
		tenantID, ok := ParseOpaque(PrefixRefresh, refreshToken)
		if !ok {
			return nil
		}
		ev := audit.Event{TenantID: tenantID, Actor: actor, Action: "auth.logout", ResourceType: "session"}
		return s.store.RevokeFamilyOf(ctx, tenantID, HashOpaque(refreshToken), ev)
	}
	if p != nil && p.FamilyID != "" {
		ev := audit.Event{TenantID: p.TenantID, Actor: actor, Action: "auth.logout", ResourceType: "session", ResourceID: p.FamilyID}
		return s.store.RevokeFamily(ctx, p.TenantID, p.FamilyID, ev)
	}
	return nil
}

// AuthenticateAccess resolves a bearer access token (or a dashboard session's ids) to a
// principal with the user's current role. Codes: UNAUTHENTICATED.
func (s *Service) AuthenticateAccess(ctx context.Context, token string) (Principal, error) {
	c, err := s.tokens.Parse(token)
	if err != nil {
		return Principal{}, apperr.New(apperr.Unauthenticated, "access token is invalid or expired")
	}
	return s.AuthenticateSession(ctx, c, MethodBearer)
}

// AuthenticateSession resolves already-verified session claims. Codes: UNAUTHENTICATED.
func (s *Service) AuthenticateSession(ctx context.Context, c AccessClaims, method string) (Principal, error) {
	u, err := s.store.ResolveSession(ctx, c.TenantID, c.UserID, c.FamilyID)
	if err != nil {
		return Principal{}, unauthenticated(err)
	}
	return Principal{UserID: u.ID, TenantID: u.TenantID, Role: u.Role, Email: u.Email, Method: method, FamilyID: c.FamilyID}, nil
}

// AuthenticateAPIKey resolves an X-API-Key. Codes: UNAUTHENTICATED.
func (s *Service) AuthenticateAPIKey(ctx context.Context, key string) (Principal, error) {
	tenantID, ok := ParseOpaque(PrefixAPIKey, key)
	if !ok {
		return Principal{}, apperr.New(apperr.Unauthenticated, "API key is invalid")
	}
	u, k, err := s.store.ResolveAPIKey(ctx, tenantID, HashOpaque(key), s.now())
	if err != nil {
		return Principal{}, unauthenticated(err)
	}
	return Principal{UserID: u.ID, TenantID: u.TenantID, Role: u.Role, Email: u.Email, Method: MethodAPIKey, APIKeyID: k.ID}, nil
}

// unauthenticated keeps internal failures internal, an unreachable database a 503 (the caller
// should retry, not sign in again), and turns everything else into UNAUTHENTICATED.
func unauthenticated(err error) error {
	switch apperr.CodeOf(err) {
	case apperr.Internal, apperr.Unavailable, apperr.Unauthenticated:
		return err
	}
	return apperr.New(apperr.Unauthenticated, "credentials are invalid or revoked")
}

// Me returns the caller's user and tenant.
func (s *Service) Me(ctx context.Context, p Principal) (User, tenancy.Tenant, error) {
	return s.store.GetProfile(ctx, p.TenantID, p.UserID)
}

func normalizeEmail(e string) string { return strings.ToLower(strings.TrimSpace(e)) }
