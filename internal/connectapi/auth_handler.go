package connectapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"connectrpc.com/connect"
	"github.com/alexedwards/scs/v2"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/requestid"
)

// RefreshCookie is the dashboard's refresh-token cookie (docs/reference/specification.md part 5).
const RefreshCookie = "svc_refresh_token"

// AccessCookie is the dashboard's session cookie (docs/design/design-choices.md §3).
const AccessCookie = "svc_access_token"

// AuthHandler serves complyd.v1.AuthService.
type AuthHandler struct {
	svc          *auth.Service
	sessions     *scs.SessionManager
	cookieSecure bool
	log          *slog.Logger
}

// NewAuthHandler returns the AuthService handler. cookieSecure sets the Secure flag on the
// cookie pair (off only for plain-HTTP loopback in dev).
func NewAuthHandler(svc *auth.Service, sessions *scs.SessionManager, cookieSecure bool, log *slog.Logger) *AuthHandler {
	return &AuthHandler{svc: svc, sessions: sessions, cookieSecure: cookieSecure, log: log}
}

// Login implements AuthService.Login.
func (h *AuthHandler) Login(ctx context.Context, req *connect.Request[complydv1.LoginRequest]) (*connect.Response[complydv1.LoginResponse], error) {
	res, err := h.svc.Login(ctx, auth.LoginParams{Email: req.Msg.Email, Password: req.Msg.Password, UseCookies: req.Msg.UseCookies,
		IP: clientIP(req.Peer().Addr), RequestID: requestid.From(ctx)})
	if err != nil {
		return nil, err
	}
	if res.Tokens == nil {
		return connect.NewResponse(&complydv1.LoginResponse{MfaRequired: res.MFARequired, MfaSetupRequired: res.MFASetupRequired,
			TempToken: strPtr(res.TempToken)}), nil
	}
	return h.tokens(ctx, *res.Tokens, req.Msg.UseCookies)
}

// tokens answers a completed login in the body form or the cookie form.
func (h *AuthHandler) tokens(ctx context.Context, t auth.Tokens, useCookies bool) (*connect.Response[complydv1.LoginResponse], error) {
	if !useCookies {
		exp := int32(t.ExpiresIn)
		return connect.NewResponse(&complydv1.LoginResponse{AccessToken: &t.AccessToken, RefreshToken: &t.RefreshToken, ExpiresIn: &exp}), nil
	}
	if h.sessions == nil || !sessionLoaded(ctx) {
		return nil, errNoSessions
	}
	if err := h.sessions.RenewToken(ctx); err != nil {
		return nil, err
	}
	h.sessions.Put(ctx, sessUser, t.User.ID)
	h.sessions.Put(ctx, sessTenant, string(t.User.TenantID))
	h.sessions.Put(ctx, sessFamily, t.FamilyID)
	// The cookie form carries no token, but says how long the access cookie lives so that the
	// dashboard refreshes before it ends (docs/guide/dashboard.md "Sessions").
	exp := int32(t.ExpiresIn)
	resp := connect.NewResponse(&complydv1.LoginResponse{ExpiresIn: &exp})
	resp.Header().Add("Set-Cookie", h.refreshCookie(t.RefreshToken, auth.RefreshTTL).String())
	return resp, nil
}

func (h *AuthHandler) refreshCookie(value string, ttl time.Duration) *http.Cookie {
	c := &http.Cookie{Name: RefreshCookie, Value: value, Path: "/", HttpOnly: true, Secure: h.cookieSecure,
		SameSite: http.SameSiteStrictMode, MaxAge: int(ttl.Seconds())}
	if ttl <= 0 {
		c.MaxAge = -1
	}
	return c
}

func cookieValue(header http.Header, name string) string {
	c, err := (&http.Request{Header: header}).Cookie(name)
	if err != nil {
		return ""
	}
	return c.Value
}

// Refresh implements AuthService.Refresh: body token → body pair; cookie → cookie pair.
func (h *AuthHandler) Refresh(ctx context.Context, req *connect.Request[complydv1.RefreshRequest]) (*connect.Response[complydv1.LoginResponse], error) {
	token, useCookies := req.Msg.RefreshToken, false
	if token == "" {
		token, useCookies = cookieValue(req.Header(), RefreshCookie), true
	}
	t, err := h.svc.Refresh(ctx, token)
	if err != nil {
		return nil, err
	}
	return h.tokens(ctx, t, useCookies)
}

// Logout implements AuthService.Logout.
func (h *AuthHandler) Logout(ctx context.Context, req *connect.Request[complydv1.LogoutRequest]) (*connect.Response[complydv1.LogoutResponse], error) {
	token := req.Msg.RefreshToken
	if token == "" {
		token = cookieValue(req.Header(), RefreshCookie)
	}
	var pp *auth.Principal
	act := audit.Actor{Type: audit.ActorUser, IP: clientIP(req.Peer().Addr), RequestID: requestid.From(ctx)}
	if p, ok := auth.FromContext(ctx); ok {
		pp = &p
		act = callActor(ctx, p, req.Peer().Addr)
	}
	if err := h.svc.Logout(ctx, token, pp, act); err != nil {
		return nil, err
	}
	if h.sessions != nil && sessionLoaded(ctx) {
		if err := h.sessions.Destroy(ctx); err != nil {
			h.log.WarnContext(ctx, "destroy session", "err", err)
		}
	}
	resp := connect.NewResponse(&complydv1.LogoutResponse{LoggedOut: true})
	resp.Header().Add("Set-Cookie", h.refreshCookie("", 0).String())
	return resp, nil
}

// Me implements AuthService.Me.
func (h *AuthHandler) Me(ctx context.Context, _ *connect.Request[complydv1.MeRequest]) (*connect.Response[complydv1.Profile], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	u, t, err := h.svc.Me(ctx, p)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.Profile{Id: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		Role: string(u.Role), IsActive: u.IsActive, LastLoginAt: tsPtr(u.LastLoginAt), CreatedAt: ts(u.CreatedAt), MfaEnabled: u.MFAEnabled,
		Tenant: tenantSummary(t)}), nil
}

// SetupMfa implements AuthService.SetupMfa.
func (h *AuthHandler) SetupMfa(ctx context.Context, req *connect.Request[complydv1.SetupMfaRequest]) (*connect.Response[complydv1.SetupMfaResponse], error) {
	secret, url, err := h.svc.SetupMFA(ctx, req.Msg.TempToken)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.SetupMfaResponse{Secret: secret, OtpauthUrl: url}), nil
}

// VerifyMfa implements AuthService.VerifyMfa.
func (h *AuthHandler) VerifyMfa(ctx context.Context, req *connect.Request[complydv1.VerifyMfaRequest]) (*connect.Response[complydv1.LoginResponse], error) {
	t, useCookies, err := h.svc.VerifyMFA(ctx, auth.VerifyMFAParams{TempToken: req.Msg.TempToken, Code: req.Msg.Code,
		IP: clientIP(req.Peer().Addr), RequestID: requestid.From(ctx)})
	if err != nil {
		return nil, err
	}
	return h.tokens(ctx, t, useCookies)
}

// CreateApiKey implements AuthService.CreateApiKey.
func (h *AuthHandler) CreateApiKey(ctx context.Context, req *connect.Request[complydv1.CreateApiKeyRequest]) (*connect.Response[complydv1.ApiKey], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	k, err := h.svc.CreateAPIKey(ctx, p, callActor(ctx, p, req.Peer().Addr), req.Msg.Name, timePtr(req.Msg.ExpiresAt))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(apiKeyToProto(k)), nil
}

// ListApiKeys implements AuthService.ListApiKeys.
func (h *AuthHandler) ListApiKeys(ctx context.Context, _ *connect.Request[complydv1.ListApiKeysRequest]) (*connect.Response[complydv1.ListApiKeysResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	keys, err := h.svc.ListAPIKeys(ctx, p)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListApiKeysResponse{Items: make([]*complydv1.ApiKey, 0, len(keys))}
	for _, k := range keys {
		out.Items = append(out.Items, apiKeyToProto(k))
	}
	return connect.NewResponse(out), nil
}

// RevokeApiKey implements AuthService.RevokeApiKey.
func (h *AuthHandler) RevokeApiKey(ctx context.Context, req *connect.Request[complydv1.RevokeApiKeyRequest]) (*connect.Response[complydv1.ApiKey], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	k, err := h.svc.RevokeAPIKey(ctx, p, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(apiKeyToProto(k)), nil
}

func apiKeyToProto(k auth.APIKey) *complydv1.ApiKey {
	return &complydv1.ApiKey{Id: k.ID, Name: k.Name, Key: strPtr(k.Key), Prefix: k.Prefix, CreatedAt: ts(k.CreatedAt),
		ExpiresAt: tsPtr(k.ExpiresAt), RevokedAt: tsPtr(k.RevokedAt), LastUsedAt: tsPtr(k.LastUsedAt), CreatedBy: k.CreatedBy}
}
