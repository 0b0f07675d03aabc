package auth

import (
	"context"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// How a principal authenticated.
const (
	MethodBearer  = "BEARER"
	MethodSession = "SESSION"
	MethodAPIKey  = "API_KEY"
)

// Principal is the authenticated caller of a request, with the role it has now.
type Principal struct {
	UserID   string
	TenantID tenancy.TenantID
	Role     Role
	Email    string
	Method   string
	APIKeyID string
	FamilyID string
}

// Actor returns the audit actor for p.
func (p Principal) Actor(ip, requestID string) audit.Actor {
	t := audit.ActorUser
	if p.Method == MethodAPIKey {
		t = audit.ActorAPIKey
	}
	return audit.Actor{ID: p.UserID, Type: t, IP: ip, RequestID: requestID}
}

// Caller is the core's caller for p (audit.Caller), built once at the transport edge: its
// tenant, user, whether it is an API key, and its audit actor (ip and requestID as Actor).
func (p Principal) Caller(ip, requestID string) audit.Caller {
	return audit.Caller{TenantID: p.TenantID, UserID: p.UserID, APIKey: p.Method == MethodAPIKey, Actor: p.Actor(ip, requestID)}
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p; set by the transport's authentication middleware.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the principal carried by ctx.
func FromContext(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}
