package screenstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
	pool *pgxpool.Pool
	// setup are statements sent when a connection is acquired, after generic plans are forced
	// (the batched read's readerPlanSettings).
	setup  []string
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
	setup := strings.Join(append([]string{"set plan_cache_mode = force_generic_plan"}, c.setup...), "; ")
	if _, err := pc.Exec(ctx, setup); err != nil {
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

// connTx is a pgx.Tx over a held connection whose BEGIN the caller queued with its first
// statements (pgx.BeginFunc would spend a round trip on BEGIN alone); Commit and Rollback send
// COMMIT and ROLLBACK. It exists for the screening committer, whose batches with side effects
// then take three round trips whatever their size (docs/guide/screening.md "Performance").
type connTx struct{ c *pgx.Conn }

var _ pgx.Tx = connTx{}

func (t connTx) Begin(context.Context) (pgx.Tx, error) {
	return nil, errors.New("connTx: nested transactions are not supported")
}

func (t connTx) Commit(ctx context.Context) error {
	_, err := t.c.Exec(ctx, "commit")
	return err
}

func (t connTx) Rollback(ctx context.Context) error {
	_, err := t.c.Exec(ctx, "rollback")
	return err
}

func (t connTx) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	return t.c.CopyFrom(ctx, table, cols, src)
}

func (t connTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return t.c.SendBatch(ctx, b)
}

func (t connTx) LargeObjects() pgx.LargeObjects { return pgx.LargeObjects{} }

func (t connTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return t.c.Prepare(ctx, name, sql)
}

func (t connTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return t.c.Exec(ctx, sql, args...)
}

func (t connTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return t.c.Query(ctx, sql, args...)
}

func (t connTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return t.c.QueryRow(ctx, sql, args...)
}

func (t connTx) Conn() *pgx.Conn { return t.c }
