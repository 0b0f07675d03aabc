package connectapi

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"github.com/alexedwards/scs/v2"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/requestid"
	"github.com/complyd/complyd/internal/tenancy"
)

// Session keys of the dashboard cookie session (scs).
const (
	sessUser   = "uid"
	sessTenant = "tid"
	sessFamily = "fam"
)

// Authenticator resolves credentials to a principal and enforces the permission table. It is
// HTTP middleware around each Connect handler, so it runs before the request is decoded.
type Authenticator struct {
	svc      *auth.Service
	sessions *scs.SessionManager
	log      *slog.Logger
	errs     *connect.ErrorWriter
	limits   *auth.TenantLimiter
}

// AuthOption configures an Authenticator.
type AuthOption func(*Authenticator)

// WithTenantLimits enforces per-tenant request ceilings after authentication (docs/design/design-choices.md §7).
func WithTenantLimits(l *auth.TenantLimiter) AuthOption {
	return func(a *Authenticator) { a.limits = l }
}

// NewAuthenticator returns the middleware factory.
func NewAuthenticator(svc *auth.Service, sessions *scs.SessionManager, log *slog.Logger, opts ...AuthOption) *Authenticator {
	a := &Authenticator{svc: svc, sessions: sessions, log: log, errs: connect.NewErrorWriter()}
	for _, o := range opts {
		o(a)
	}
	return a
}

// screeningPrefix marks the procedures of the screening rate class.
const screeningPrefix = "/complyd.v1.TransactionService/"

// overLimit reports RATE_LIMITED when the tenant spent its ceiling for this class of call.
func (a *Authenticator) overLimit(p auth.Principal, procedure string) error {
	class := auth.ClassAPI
	if strings.HasPrefix(procedure, screeningPrefix) {
		class = auth.ClassScreening
	}
	return spend(a.limits, p.TenantID, class)
}

// spend takes one request of class from the tenant's budget (nil limits: unlimited); refused,
// it is RATE_LIMITED with the wait in RetryAfter. Procedures marked perMessage call it once per
// message or item from their handler instead of once per call here.
func spend(l *auth.TenantLimiter, tenant tenancy.TenantID, class string) error {
	if l == nil {
		return nil
	}
	if ok, wait := l.Allow(string(tenant), class); !ok {
		e := apperr.New(apperr.RateLimited, "request rate limit exceeded for your institution; retry shortly")
		e.RetryAfter = wait
		return e
	}
	return nil
}

// Wrap guards h, whose procedures must all be in the permission table.
func (a *Authenticator) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		rule, ok := permissions[r.URL.Path]
		if !ok {
			a.fail(w, r, apperr.New(apperr.NotFound, "no such procedure"))
			return
		}
		if rule.public {
			h.ServeHTTP(w, r)
			return
		}
		p, err := a.principal(ctx, r)
		if err != nil {
			if rule.optional && apperr.CodeOf(err) == apperr.Unauthenticated {
				h.ServeHTTP(w, r)
				return
			}
			a.fail(w, r, err)
			return
		}
		if !rule.optional && !rule.roles.Has(p.Role) {
			a.fail(w, r, apperr.New(apperr.Forbidden, "your role may not perform this action"))
			return
		}
		if !rule.perMessage {
			if err := a.overLimit(p, r.URL.Path); err != nil {
				a.fail(w, r, err)
				return
			}
		}
		ctx = auth.WithPrincipal(ctx, p)
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Authenticate authenticates a plain HTTP request (routes that are not Connect procedures, such
// as the multipart document upload) exactly like Wrap does, and checks roles. Errors:
// UNAUTHENTICATED, FORBIDDEN, ACCOUNT_DISABLED.
func (a *Authenticator) Authenticate(r *http.Request, roles auth.Roles) (auth.Principal, error) {
	p, err := a.principal(r.Context(), r)
	if err != nil {
		return auth.Principal{}, err
	}
	if !roles.Has(p.Role) {
		return auth.Principal{}, apperr.New(apperr.Forbidden, "your role may not perform this action")
	}
	return p, nil
}

// CallActor returns the audit actor of a plain HTTP request made by p.
func CallActor(r *http.Request, p auth.Principal) audit.Actor {
	return callActor(r.Context(), p, r.RemoteAddr)
}

func (a *Authenticator) principal(ctx context.Context, r *http.Request) (auth.Principal, error) {
	if key := r.Header.Get("X-API-Key"); key != "" {
		return a.svc.AuthenticateAPIKey(ctx, key)
	}
	if h := r.Header.Get("Authorization"); h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || tok == "" {
			return auth.Principal{}, apperr.New(apperr.Unauthenticated, "Authorization must be 'Bearer <token>'")
		}
		return a.svc.AuthenticateAccess(ctx, strings.TrimSpace(tok))
	}
	if a.sessions != nil && sessionLoaded(ctx) {
		if uid := a.sessions.GetString(ctx, sessUser); uid != "" {
			return a.svc.AuthenticateSession(ctx, auth.AccessClaims{
				UserID:   uid,
				TenantID: tenancy.TenantID(a.sessions.GetString(ctx, sessTenant)),
				FamilyID: a.sessions.GetString(ctx, sessFamily),
			}, auth.MethodSession)
		}
	}
	return auth.Principal{}, apperr.New(apperr.Unauthenticated, "authentication required: send a bearer token or X-API-Key")
}

func (a *Authenticator) fail(w http.ResponseWriter, r *http.Request, err error) {
	ce := ToConnect(r.Context(), a.log, err)
	a.log.LogAttrs(r.Context(), slog.LevelInfo, "rpc refused", slog.String("procedure", r.URL.Path), slog.String("code", ce.Code().String()))
	_ = a.errs.Write(w, r, ce)
}

// RequestID is outermost middleware: it accepts or assigns X-Request-Id, echoes it, and puts
// it in the context for logs and audit.
func RequestID(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 {
			id = requestid.New()
		}
		w.Header().Set("X-Request-Id", id)
		h.ServeHTTP(w, r.WithContext(requestid.With(r.Context(), id)))
	})
}

// clientIP is the caller's address (the direct peer; proxies are not trusted).
func clientIP(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return host
}

// callerOf returns the core's caller of the current call (auth.Principal.Caller), with the
// client's IP from peerAddr ("" when the handler does not pass it) and the request id.
func callerOf(ctx context.Context, peerAddr string) (audit.Caller, auth.Principal, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return audit.Caller{}, p, err
	}
	return p.Caller(clientIP(peerAddr), requestid.From(ctx)), p, nil
}

// callActor returns the audit actor of the current call.
func callActor(ctx context.Context, p auth.Principal, peerAddr string) audit.Actor {
	return p.Actor(clientIP(peerAddr), requestid.From(ctx))
}

// principalOf returns the principal the middleware put in ctx; a handler of a protected
// procedure that finds none is a wiring bug, reported as INTERNAL.
func principalOf(ctx context.Context) (auth.Principal, error) {
	p, ok := auth.FromContext(ctx)
	if !ok {
		return p, errors.New("no principal in context")
	}
	return p, nil
}

type sessionKey struct{}

func sessionLoaded(ctx context.Context) bool { return ctx.Value(sessionKey{}) != nil }

// WithSessions loads the dashboard cookie session (scs) for requests that carry a cookie or
// may start a session (the auth routes). gRPC requests are passed through untouched: they need
// the raw response writer (trailers) and never carry cookies.
func WithSessions(sm *scs.SessionManager, next http.Handler) http.Handler {
	marked := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, true)))
	})
	loaded := sm.LoadAndSave(marked)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") ||
			(r.Header.Get("Cookie") == "" && !isAuthRoute(r.URL.Path)) {
			next.ServeHTTP(w, r)
			return
		}
		loaded.ServeHTTP(w, r)
	})
}

// isAuthRoute reports routes that may start or end a cookie session.
func isAuthRoute(path string) bool {
	return strings.HasPrefix(path, "/api/v1/auth/") || strings.HasPrefix(path, "/complyd.v1.AuthService/")
}
