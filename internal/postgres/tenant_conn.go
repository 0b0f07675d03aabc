package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/complyd/complyd/internal/tenancy"
)

// tenantConn is a pool connection held by one screening reader or committer for its lifetime.
// Holding it lets the tenant be set at session level, once per change of tenant, instead of
// wrapping every batch in BEGIN, set_config and COMMIT: a batch of a single tenant's
// screenings is then one statement. The connection never goes back to the pool with a tenant
// set on it (release closes it), so no other code can inherit the setting, and every statement
// sent on it is preceded by the setting of its own tenant: row-level security still checks
// every row.
type tenantConn struct {
	pool   *pgxpool.Pool
	conn   *pgxpool.Conn
	tenant tenancy.TenantID // the session's app.tenant_id; "" when unknown
}

// get returns the connection, acquiring one (with generic plans forced: the batched
// statements' custom plans cost more to make than to run) when none is held.
func (c *tenantConn) get(ctx context.Context) (*pgx.Conn, error) {
	if c.conn != nil && !c.conn.Conn().IsClosed() {
		return c.conn.Conn(), nil
	}
	c.drop()
	pc, err := c.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("acquire screening connection: %w", err)
	}
	if _, err := pc.Exec(ctx, "set plan_cache_mode = force_generic_plan"); err != nil {
		pc.Release()
		return nil, fmt.Errorf("prepare screening connection: %w", err)
	}
	c.conn = pc
	return pc.Conn(), nil
}

// setTenant queues, when needed, the session-level setting of tenant ahead of b's next
// statement; call settled(err) once b has run.
func (c *tenantConn) setTenant(b *pgx.Batch, tenant tenancy.TenantID) {
	if c.tenant != tenant {
		b.Queue("select set_config('app.tenant_id', $1, false)", string(tenant))
		c.tenant = tenant
	}
}

// settled records the outcome of a batch sent after setTenant: after an error the session's
// tenant is unknown (the batch may have stopped before or after the setting).
func (c *tenantConn) settled(err error) {
	if err != nil {
		c.tenant = ""
	}
}

// drop closes the held connection (it may carry a session-level tenant) and forgets it.
func (c *tenantConn) drop() {
	if c.conn == nil {
		return
	}
	_ = c.conn.Hijack().Close(context.Background())
	c.conn, c.tenant = nil, ""
}
