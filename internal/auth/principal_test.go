package auth_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
)

// TestPrincipalCaller: the core's one caller type is built from the principal at the edge: a
// user's session is a person with a user actor, an API key an integration with an API-key actor;
// the cases and reports services take that very type (audit.Caller).
func TestPrincipalCaller(t *testing.T) {
	user := auth.Principal{UserID: "u1", TenantID: "t1", Role: auth.RoleAnalyst, Method: auth.MethodSession}
	require.Equal(t, audit.Caller{TenantID: "t1", UserID: "u1",
		Actor: audit.Actor{ID: "u1", Type: audit.ActorUser, IP: "10.0.0.1", RequestID: "req-1"}}, user.Caller("10.0.0.1", "req-1"))

	key := auth.Principal{UserID: "u2", TenantID: "t2", Method: auth.MethodAPIKey, APIKeyID: "k1"}
	c := key.Caller("", "req-2")
	require.True(t, c.APIKey)
	require.Equal(t, audit.ActorAPIKey, c.Actor.Type)
	require.Equal(t, "req-2", c.Actor.RequestID)
}
