package dashboardstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/dashboardstore"
	"github.com/complyd/complyd/internal/tenancy"
)

// rollupState is what a tenant's rollups say, read as the tenant: the sum per table, bucket and
// key (what every reader computes), the rows at or after the cutoff as they are (shard
// included), and how many rows before it have a shard other than 0.
type rollupState struct {
	sums     map[string]int64
	recent   map[string]int64
	unfolded int64
	rows     int64
}

// rollupKeys selects, per table, the key of a row (besides tenant and shard) and its count.
var rollupKeys = map[string]string{
	"screening_rollups":      "outcome || '/' || risk_level, screenings",
	"screening_rule_rollups": "rule_id, hits",
	"status_rollups":         "kind || '/' || status, n",
}

func readRollups(ctx context.Context, t *testing.T, db *postgres.DB, tenant tenancy.TenantID, cutoff time.Time) rollupState {
	t.Helper()
	s := rollupState{sums: map[string]int64{}, recent: map[string]int64{}}
	require.NoError(t, asTenant(ctx, db, tenant, func(tx pgx.Tx) error {
		for table, key := range rollupKeys {
			rows, err := tx.Query(ctx, fmt.Sprintf("select bucket, shard, %s from %s", key, table))
			if err != nil {
				return err
			}
			for rows.Next() {
				var b time.Time
				var shard int16
				var k string
				var n int64
				if err := rows.Scan(&b, &shard, &k, &n); err != nil {
					return err
				}
				id := fmt.Sprintf("%s %s %s", table, b.UTC().Format(time.RFC3339), k)
				s.sums[id] += n
				s.rows++
				if !b.Before(cutoff) {
					s.recent[fmt.Sprintf("%s #%d", id, shard)] = n
				} else if shard != 0 {
					s.unfolded++
				}
			}
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	}))
	return s
}

// TestRollupFoldKeepsSums seeds three weeks of hourly rollups over four shards (and daily rule
// rollups, and status rollups with negative shard counts as a delete leaves them) for two
// tenants, folds the hours before the cutoff, and checks that every sum a reader computes is
// unchanged, that no shard but 0 is left before the cutoff and that the hours after it are
// untouched. A row another transaction holds is not waited for: a locked shard row is skipped
// and a locked shard-0 row leaves its range for the next pass (lock_timeout), with the sums
// unchanged either way; the next pass folds them.
func TestRollupFoldKeepsSums(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t)
	now := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	cutoff := dashboardstore.FoldCutoff(now)
	require.Equal(t, time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC), cutoff)
	tenants := []tenancy.TenantID{pgtest.Tenant(ctx, t, db).ID, pgtest.Tenant(ctx, t, db).ID}
	start := cutoff.Add(-19*24*time.Hour - 7*time.Hour)
	for i, ten := range tenants {
		// Every shard of some hours, a few of others (the shard is random per statement), so
		// that some keys have no shard-0 row to add to.
		inTenantSQL(ctx, t, db, ten, fmt.Sprintf(`insert into screening_rollups (tenant_id, bucket, shard, outcome, risk_level, screenings)
			select '%[1]s', h, s, o, r, 1 + (extract(epoch from h)::bigint / 3600 * 7 + s * 3 + %[2]d) %% 11
			from generate_series('%[3]s'::timestamptz, '%[4]s'::timestamptz, '1 hour') h, generate_series(0, 3) s,
				(values ('APPROVE', 'LOW'), ('BLOCK', 'CRITICAL'), ('REVIEW', 'MEDIUM')) v(o, r)
			where (extract(epoch from h)::bigint / 3600 + s + length(o)) %% 3 <> 0`,
			ten, i, start.Format(time.RFC3339), now.Format(time.RFC3339)),
			fmt.Sprintf(`insert into screening_rule_rollups (tenant_id, bucket, shard, rule_id, rule_name, hits)
			select '%[1]s', d, s, r, 'rule ' || r || ' #' || s, 1 + s + %[2]d
			from generate_series('%[3]s'::timestamptz, '%[4]s'::timestamptz, '1 day') d, generate_series(0, 3) s,
				(values ('AML-001'), ('AML-004')) v(r) where s <> 1 or r = 'AML-001'`,
				ten, i, start.Truncate(24*time.Hour).Format(time.RFC3339), now.Format(time.RFC3339)),
			fmt.Sprintf(`insert into status_rollups (tenant_id, kind, bucket, status, shard, n)
			select '%[1]s', 'kyc', h, st, s, case when s = 2 then -1 else 2 + s end
			from generate_series('%[2]s'::timestamptz, '%[3]s'::timestamptz, '5 hours') h, generate_series(0, 3) s,
				(values ('PENDING'), ('APPROVED')) v(st)`, ten, start.Format(time.RFC3339), now.Format(time.RFC3339)))
	}
	before := map[tenancy.TenantID]rollupState{}
	for _, ten := range tenants {
		before[ten] = readRollups(ctx, t, db, ten, cutoff)
		require.Positive(t, before[ten].unfolded)
	}
	check := func(name string) map[tenancy.TenantID]rollupState {
		t.Helper()
		got := map[tenancy.TenantID]rollupState{}
		for _, ten := range tenants {
			got[ten] = readRollups(ctx, t, db, ten, cutoff)
			require.Equal(t, before[ten].sums, got[ten].sums, "%s: the sums of tenant %s changed", name, ten)
			require.Equal(t, before[ten].recent, got[ten].recent, "%s: rows after the cutoff changed in tenant %s", name, ten)
		}
		return got
	}

	// Another transaction (a connection of its own) holds a shard-3 row and a shard-0 row of
	// different weeks.
	shardRow := start.Add(30 * time.Hour)
	zeroRow := cutoff.Add(-50 * time.Hour)
	holder, err := pgtest.AdminOf(ctx, t, url).Begin(ctx)
	require.NoError(t, err)
	var held, heldZero int
	require.NoError(t, holder.QueryRow(ctx, `select count(*) from (select 1 from screening_rollups
		where tenant_id = $1 and bucket = $2 and shard = 3 for update) l`, string(tenants[0]), shardRow).Scan(&held))
	require.Positive(t, held)
	// A shard-0 row the fold must add to: its key has rows on other shards.
	require.NoError(t, holder.QueryRow(ctx, `select count(*) from (select 1 from screening_rollups r
		where tenant_id = $1 and bucket = $2 and shard = 0 and exists (select 1 from screening_rollups o where o.tenant_id = $1
			and o.bucket = $2 and o.outcome = r.outcome and o.risk_level = r.risk_level and o.shard <> 0) for update) l`,
		string(tenants[0]), zeroRow).Scan(&heldZero))
	require.Positive(t, heldZero)
	f := dashboardstore.NewRollupFolder(db)
	pauses := 0
	f.Pause = func(context.Context) error { pauses++; return nil }
	n, err := f.Fold(ctx, cutoff)
	require.NoError(t, err, "a held row is not waited for")
	require.Positive(t, n)
	require.Positive(t, pauses)
	mid := check("with rows held")
	require.Zero(t, mid[tenants[1]].unfolded)
	require.Positive(t, mid[tenants[0]].unfolded, "the held rows' shards are left")
	var left []time.Time
	require.NoError(t, asTenant(ctx, db, tenants[0], func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `select distinct bucket from screening_rollups where bucket < $1 and shard <> 0 order by 1`, cutoff)
		if err != nil {
			return err
		}
		left, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (time.Time, error) {
			b, err := pgx.RowTo[time.Time](r)
			return b.UTC(), err
		})
		return err
	}))
	require.Contains(t, left, shardRow.UTC())
	require.Contains(t, left, zeroRow.UTC(), "the range of the held shard-0 row is left whole")
	require.NoError(t, holder.Rollback(ctx))

	n2, err := f.Fold(ctx, cutoff)
	require.NoError(t, err)
	require.Positive(t, n2)
	after := check("after the second pass")
	for _, ten := range tenants {
		require.Zero(t, after[ten].unfolded, "tenant %s", ten)
	}
	require.Equal(t, before[tenants[0]].rows+before[tenants[1]].rows-n-n2, after[tenants[0]].rows+after[tenants[1]].rows,
		"the rows removed are those the passes report")
	n3, err := f.Fold(ctx, cutoff)
	require.NoError(t, err)
	require.Zero(t, n3)
}
