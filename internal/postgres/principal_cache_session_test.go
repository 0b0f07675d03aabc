package postgres_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// sessionStore answers ResolveSession without a database and counts the calls.
type sessionStore struct {
	auth.Store
	resolves atomic.Int32
}

func (s *sessionStore) ResolveSession(_ context.Context, tenantID tenancy.TenantID, userID, _ string) (auth.User, error) {
	s.resolves.Add(1)
	return auth.User{ID: userID, TenantID: tenantID, Role: auth.RoleAnalyst, IsActive: true}, nil
}

func (s *sessionStore) RevokeFamily(context.Context, tenancy.TenantID, string, audit.Event) error {
	return nil
}

// TestPrincipalCacheSessions: a bearer token's session is resolved once and then served from
// memory (no database read per request, issue 15 point 3) until a revocation drops it.
func TestPrincipalCacheSessions(t *testing.T) {
	t.Parallel()
	inner := &sessionStore{}
	c := postgres.NewPrincipalCache(inner, pgtest.DB(t), time.Minute, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	for range 5 {
		u, err := c.ResolveSession(ctx, "t1", "u1", "f1")
		require.NoError(t, err)
		require.Equal(t, "u1", u.ID)
	}
	require.Equal(t, int32(1), inner.resolves.Load())
	require.NoError(t, c.RevokeFamily(ctx, "t1", "f1", audit.Event{}))
	_, err := c.ResolveSession(ctx, "t1", "u1", "f1")
	require.NoError(t, err)
	require.Equal(t, int32(2), inner.resolves.Load(), "a revocation drops the cached session")
}
