package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/complyd/complyd/internal/tenancy"
)

// The DB's side of the read replica (replica.go): its state for /health and the routing of the
// staleness-tolerant reads.

// ReplicaState reports the read replica's last verdict (Status ReplicaNone without one).
func (db *DB) ReplicaState() ReplicaState {
	if db.replica == nil {
		return ReplicaState{Status: ReplicaNone}
	}
	st := *db.replica.state.Load()
	if st.Status == ReplicaOK && !db.replica.usable() {
		st.Status, st.Error = ReplicaDown, "no probe answered since "+st.CheckedAt.UTC().Format(time.RFC3339)
	}
	return st
}

// ReplicaReads counts the routed reads so far (all on the primary without a replica).
func (db *DB) ReplicaReads() ReplicaReads {
	if db.replica == nil {
		return ReplicaReads{}
	}
	return ReplicaReads{Replica: db.replica.replica.Load(), Primary: db.replica.primary.Load(), Fallbacks: db.replica.fallbacks.Load()}
}

// inTenantRead is inTenant for a read-only, staleness-tolerant read (docs/guide/read-replica.md "What
// goes where"): on the replica when it is usable, on the primary otherwise, in a read-only
// transaction scoped to tenant either way. A read whose transaction could not start on the
// replica (the standby died since the last probe) marks it down and is answered by the
// primary; once fn has run, a failure is returned as it is (fn may have handed rows on), and
// marks the standby down when it is a lost connection.
func (db *DB) inTenantRead(ctx context.Context, tenant tenancy.TenantID, fn func(pgx.Tx) error) error {
	r := db.replica
	if r == nil {
		return db.inTenantOn(ctx, db.Pool, tenant, fn)
	}
	if !r.usable() {
		r.primary.Add(1)
		return db.inTenantOn(ctx, db.Pool, tenant, fn)
	}
	started := false
	err := db.inTenantOn(ctx, r.pool, tenant, func(tx pgx.Tx) error {
		started = true
		return fn(tx)
	})
	switch {
	case err == nil || ctx.Err() != nil:
	case !started:
		// Before fn only the connection, BEGIN and the tenant's setting can fail: whatever the
		// error ("conn closed" from a connection the standby's death broke is none of
		// isConnFailure's), the standby did not serve, and the primary answers.
		r.markDown(err)
		r.fallbacks.Add(1)
		r.primary.Add(1)
		return db.inTenantOn(ctx, db.Pool, tenant, fn)
	case isConnFailure(err):
		r.markDown(err)
	}
	if err == nil {
		r.replica.Add(1)
	}
	return err
}

// inTenantOn runs fn in a read-only transaction on pool scoped to tenant.
func (db *DB) inTenantOn(ctx context.Context, pool *pgxpool.Pool, tenant tenancy.TenantID, fn func(pgx.Tx) error) error {
	return dbErr(pgx.BeginTxFunc(ctx, pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenant)); err != nil {
			return fmt.Errorf("set tenant: %w", err)
		}
		return fn(tx)
	}))
}
