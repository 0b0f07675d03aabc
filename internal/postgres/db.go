package postgres

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/tenancy"
)

// AppRole is the role every pooled connection switches to, so that row-level security applies
// even when DATABASE_URL names a superuser (docs/design/architecture.md).
const AppRole = "complyd_app"

// psql is the squirrel builder for PostgreSQL placeholders.
var psql = sq.StatementBuilder.PlaceholderFormat(sq.Dollar)

// DB is the database handle shared by every store.
type DB struct {
	Pool   *pgxpool.Pool
	river  *river.Client[pgx.Tx]
	now    func() time.Time
	logger *slog.Logger
	seal   *sealer
	// lowBalance is the default low-balance warning threshold (zero: off).
	lowBalance decimal.Decimal
	// replica is the optional read replica (replica.go; nil without one).
	replica *replica
}

// Options tune Open.
type Options struct {
	MaxConns int32
	Now      func() time.Time
	Logger   *slog.Logger
	// CredentialsKey (32 bytes) seals the secrets the service reads back: TOTP seeds, webhook
	// secrets, BYOL provider credentials.
	CredentialsKey []byte
	// ReplicaURL, when set, names a streaming standby to which the staleness-tolerant reads go
	// (docs/guide/read-replica.md); ReplicaMaxLag (default 10 s) is the lag above which they go to
	// the primary instead, ReplicaProbeEvery (default 1 s) how often the lag is measured, and
	// ReplicaMaxConns sizes its pool (default MaxConns).
	ReplicaURL        string
	ReplicaMaxLag     time.Duration
	ReplicaProbeEvery time.Duration
	ReplicaMaxConns   int32
}

// Open connects a pool whose connections run as AppRole.
func Open(ctx context.Context, url string, o Options) (*DB, error) {
	seal, err := newSealer(o.CredentialsKey)
	if err != nil {
		return nil, fmt.Errorf("credentials key: %w", err)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse database url: %w", err)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	// No JIT compilation (docs/guide/operations.md "PostgreSQL's JIT"): the service's statements run
	// in a millisecond or less, and PostgreSQL compiles a plan again on every execution once
	// its estimated cost passes jit_above_cost. The batched prefetch's generic plan passes it
	// when the statistics of the history tables are stale (a tenant whose accounts grew since
	// the last analysis): each prefetch then took 2.3 to 3.0 s of compilation for 2 ms of work.
	// Sent in the startup packet, so it costs no round trip; a jit option in the URL wins.
	if _, set := cfg.ConnConfig.RuntimeParams["jit"]; !set {
		cfg.ConnConfig.RuntimeParams["jit"] = "off"
	}
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, "SET ROLE "+AppRole)
		return err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ping database: %w", err)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	rc, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: o.Logger})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("river insert client: %w", err)
	}
	db := &DB{Pool: pool, river: rc, now: o.Now, logger: o.Logger, seal: seal}
	if o.ReplicaURL != "" {
		ro := replicaOptions{maxConns: o.ReplicaMaxConns, maxLag: o.ReplicaMaxLag, probeEvery: o.ReplicaProbeEvery, now: o.Now, role: AppRole}
		if ro.maxConns <= 0 {
			ro.maxConns = o.MaxConns
		}
		if db.replica, err = openReplica(ctx, o.ReplicaURL, ro); err != nil {
			pool.Close()
			return nil, err
		}
		probeCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
		db.replica.stop = stop
		go db.replica.run(probeCtx, pool)
	}
	return db, nil
}

// Close stops the replica's probe and closes the pools.
func (db *DB) Close() {
	if db.replica != nil {
		db.replica.close()
	}
	db.Pool.Close()
}

// Ping checks the database.
func (db *DB) Ping(ctx context.Context) error { return db.Pool.Ping(ctx) }

// inTenant runs fn in one transaction scoped to tenant for row-level security.
func (db *DB) inTenant(ctx context.Context, tenant tenancy.TenantID, fn func(pgx.Tx) error) error {
	return dbErr(pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			return fmt.Errorf("set tenant: %w", err)
		}
		return fn(tx)
	}))
}

// inTenantBatch sends b's statements after the tenant's setting in one round trip: a batch up
// to its Sync is one implicit transaction, so the setting (local) applies to them and to
// nothing after, and they commit or fail together. For the side-effect workers' short reads
// and writes, which inTenant spent four round trips or more on (BEGIN, the setting, each
// statement, COMMIT), each a wake-up of both processes; at a few hundred emails and webhooks
// a second they add up (docs/guide/webhooks.md "Throughput"). b's callbacks run as its results
// arrive.
func (db *DB) inTenantBatch(ctx context.Context, tenant tenancy.TenantID, b *pgx.Batch) error {
	full := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, 1+b.Len())}
	full.Queue("select set_config('app.tenant_id', $1, true)", string(tenant))
	full.QueuedQueries = append(full.QueuedQueries, b.QueuedQueries...)
	return dbErr(db.Pool.SendBatch(ctx, full).Close())
}

// global runs fn in one transaction with no tenant (global tables only).
func (db *DB) global(ctx context.Context, fn func(pgx.Tx) error) error {
	return dbErr(pgx.BeginFunc(ctx, db.Pool, fn))
}

// exec runs a squirrel statement in tx.
func exec(ctx context.Context, tx writer, b sq.Sqlizer) error {
	q, args, err := b.ToSql()
	if err != nil {
		return fmt.Errorf("build sql: %w", err)
	}
	_, err = tx.Exec(ctx, q, args...)
	return err
}

// collect runs a squirrel query in tx and scans every row into T by column name.
func collect[T any](ctx context.Context, tx writer, b sq.Sqlizer) ([]T, error) {
	q, args, err := b.ToSql()
	if err != nil {
		return nil, fmt.Errorf("build sql: %w", err)
	}
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByName[T])
}

// one runs a squirrel query in tx and scans exactly one row into T; NOT_FOUND when none.
func one[T any](ctx context.Context, tx writer, b sq.Sqlizer, what string) (T, error) {
	var zero T
	q, args, err := b.ToSql()
	if err != nil {
		return zero, fmt.Errorf("build sql: %w", err)
	}
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return zero, err
	}
	v, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[T])
	if err != nil {
		return zero, mapErr(err, what)
	}
	return v, nil
}

// count runs a count query.
func count(ctx context.Context, tx writer, b sq.SelectBuilder) (int, error) {
	q, args, err := b.ToSql()
	if err != nil {
		return 0, fmt.Errorf("build sql: %w", err)
	}
	var n int
	err = tx.QueryRow(ctx, q, args...).Scan(&n)
	return n, err
}

// readOne runs one read-only query in a tenant transaction in a single round trip: BEGIN,
// set_config, the query and COMMIT are pipelined as one batch (inTenant takes four round trips).
// scan receives the query's row; a missing row is NOT_FOUND named what. Used on the hot paths
// every authenticated call takes.
func (db *DB) readOne(ctx context.Context, tenant tenancy.TenantID, what string, b sq.Sqlizer, scan func(pgx.Row) error) error {
	q, args, err := b.ToSql()
	if err != nil {
		return fmt.Errorf("build sql: %w", err)
	}
	batch := &pgx.Batch{}
	batch.Queue("begin read only")
	batch.Queue("select set_config('app.tenant_id', $1, true)", string(tenant))
	var scanErr error
	batch.Queue(q, args...).QueryRow(func(row pgx.Row) error {
		scanErr = mapErr(scan(row), what)
		return nil
	})
	batch.Queue("commit")
	if err := db.Pool.SendBatch(ctx, batch).Close(); err != nil {
		return dbErr(err)
	}
	return scanErr
}

// tenantIDs lists every tenant, for the sweeps that work tenant by tenant (each in a
// transaction of its own, so that row-level security applies).
func (db *DB) tenantIDs(ctx context.Context) ([]tenancy.TenantID, error) {
	rows, err := db.Pool.Query(ctx, `select id::text from tenants`)
	if err != nil {
		return nil, fmt.Errorf("list tenants: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[tenancy.TenantID])
}
