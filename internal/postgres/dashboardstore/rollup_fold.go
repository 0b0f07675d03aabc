package dashboardstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// Folding the rollups' shards (docs/performance-at-scale.md "The transactions list's total").
//
// Each rollup row is spread over a few shards (migration 0018): concurrent group commits and
// status triggers of one tenant pick different rows, so they do not queue on one hot row. That
// matters only while an hour is being written. Afterwards the shards are rows every reader
// sums for nothing: the overview over a quarter, and the transactions list's total, which sums
// every hour kept (about 110,000 rows a tenant-year at 4 shards). Once a night, the hours older
// than FoldAge are folded into shard 0, a quarter of the rows, with the same sums.
//
// One statement per table and range deletes the other shards' rows and adds their counts to
// shard 0, so a reader (another transaction) sees the sums before or after, never in between.
// A late screening that writes an old hour meanwhile waits for the fold's delete and then
// inserts its row afresh (ON CONFLICT finds the deleted row gone); the next night folds it.
// The fold locks the rows it deletes with SKIP LOCKED, so it never waits for a screening's
// commit over those rows, and its transaction has a short lock_timeout, so it gives up (and
// tries again the next night) rather than make a screening wait behind it on shard 0's rows.

// FoldAge is how old an hour is (from the start of the current one) before its shards are folded:
// two days, past the late transactions of a bank's end-of-day batches.
const FoldAge = 48 * time.Hour

// FoldCutoff is the first hour not folded at now.
func FoldCutoff(now time.Time) time.Time { return now.UTC().Truncate(time.Hour).Add(-FoldAge) }

// foldSpan is how many days of buckets one transaction folds: its locks are short, and a pass
// over an upgraded database's years gives way to screening between them.
const foldSpan = 7 * 24 * time.Hour

// foldLockTimeout bounds the fold's wait for a row lock (a screening's commit on shard 0).
const foldLockTimeout = "200ms"

// rollupTable is a rollup table's shape: its key columns besides tenant_id, bucket and shard,
// and how its counted columns fold.
type rollupTable struct {
	name string
	key  string // the other key columns, comma-separated
	sums string // select list of the folded values, for the insert
	cols string // their column names
	set  string // the update of shard 0's row
}

var rollupTables = []rollupTable{
	{name: "screening_rollups", key: "outcome, risk_level", sums: "sum(screenings)", cols: "screenings",
		set: "screenings = screening_rollups.screenings + excluded.screenings"},
	// A rule renamed within a day has its old name on some shards; shard 0 keeps its own.
	{name: "screening_rule_rollups", key: "rule_id", sums: "max(rule_name), sum(hits)", cols: "rule_name, hits",
		set: "hits = screening_rule_rollups.hits + excluded.hits"},
	{name: "status_rollups", key: "kind, status", sums: "sum(n)", cols: "n",
		set: "n = status_rollups.n + excluded.n"},
}

// foldSQL moves the rows of shards other than 0 of buckets [$2, $3) of tenant $1 into shard 0,
// in key order (as the screening commit's upserts lock them), and returns how many rows the
// table lost: those deleted less the shard-0 rows it created (xmax is 0 on a row the upsert
// inserted, the transaction's own on one it updated).
func (t rollupTable) foldSQL() string {
	return fmt.Sprintf(`with moved as (
	delete from %[1]s r using (select ctid from %[1]s where tenant_id = $1 and bucket >= $2 and bucket < $3 and shard <> 0
		for update skip locked) d where r.ctid = d.ctid and r.tenant_id = $1 returning r.*),
folded as (insert into %[1]s (tenant_id, bucket, %[2]s, shard, %[4]s)
select tenant_id, bucket, %[2]s, 0, %[3]s from moved group by tenant_id, bucket, %[2]s order by bucket, %[2]s
on conflict (tenant_id, bucket, %[2]s, shard) do update set %[5]s
returning xmax = 0 as created)
select (select count(*) from moved) - (select count(*) from folded where created)`, t.name, t.key, t.sums, t.cols, t.set)
}

// firstSQL is the oldest bucket before $2 of tenant $1 that has a shard to fold.
func (t rollupTable) firstSQL() string {
	return fmt.Sprintf(`select min(bucket) from %s where tenant_id = $1 and bucket < $2 and shard <> 0`, t.name)
}

// RollupFolder folds the rollups' shards (the store of jobs.RollupsWorker).
type RollupFolder struct {
	db *postgres.DB
	// Pause, when set, is called between transactions (to give way to screening); an error
	// stops the pass.
	Pause func(context.Context) error
}

// NewRollupFolder returns the folder of db's rollups.
func NewRollupFolder(db *postgres.DB) *RollupFolder { return &RollupFolder{db: db} }

// Fold folds every tenant's shards of the buckets before before (FoldCutoff of the pass's
// now) and returns how many rows it removed (rows deleted less shard-0 rows created). A range
// whose locks it could not take in time is left for the next pass, not an error.
func (f *RollupFolder) Fold(ctx context.Context, before time.Time) (int64, error) {
	tenants, err := f.db.TenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, t := range tenants {
		for _, table := range rollupTables {
			n, err := f.foldTable(ctx, t, table, before)
			total += n
			if err != nil {
				return total, fmt.Errorf("fold %s of tenant %s: %w", table.name, t, err)
			}
		}
	}
	return total, nil
}

func (f *RollupFolder) foldTable(ctx context.Context, t tenancy.TenantID, table rollupTable, before time.Time) (int64, error) {
	var from *time.Time
	if err := f.db.InTenantRead(ctx, t, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, table.firstSQL(), string(t), before).Scan(&from)
	}); err != nil || from == nil {
		return 0, err
	}
	var total int64
	for lo := *from; lo.Before(before); lo = lo.Add(foldSpan) {
		hi := lo.Add(foldSpan)
		if hi.After(before) {
			hi = before
		}
		var n int64
		err := f.db.InTenant(ctx, t, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "set local lock_timeout = '"+foldLockTimeout+"'"); err != nil {
				return err
			}
			return tx.QueryRow(ctx, table.foldSQL(), string(t), lo, hi).Scan(&n)
		})
		if isLockTimeout(err) {
			continue // a screening holds one of the rows: the next pass folds this range
		}
		if err != nil {
			return total, err
		}
		total += n
		if f.Pause != nil {
			if err := f.Pause(ctx); err != nil {
				return total, err
			}
		}
	}
	return total, nil
}

// isLockTimeout reports whether err is PostgreSQL's lock_timeout (55P03, lock_not_available).
func isLockTimeout(err error) bool {
	var code interface{ SQLState() string }
	return errors.As(err, &code) && code.SQLState() == "55P03"
}
