package app

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
)

// TestArchiveGrainsCommand: `complyd archive grains` deletes the buckets before the cutoff of
// its clock, in every tenant, keeps the rest, and says so.
func TestArchiveGrainsCommand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t)
	f := pgtest.Tenant(ctx, t, db)
	admin := pgtest.AdminOf(ctx, t, url)
	now := time.Date(2026, 12, 3, 1, 0, 0, 0, time.UTC)
	_, err := admin.Exec(ctx, `insert into account_versions (tenant_id, account, version, first_at, last_at) values ($1, '5000000001', 2, $2, $3)`,
		string(f.ID), now.AddDate(0, 0, -200), now.AddDate(0, 0, -1))
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `insert into account_activity_grains (tenant_id, account, grain, bucket, n, sum_ngn, sum_sq_ngn, devices, last_at)
		values ($1, '5000000001', 'day', $4, 1, 10, 100, '{}', $2), ($1, '5000000001', 'day', $5, 1, 10, 100, '{}', $3)`,
		string(f.ID), now.AddDate(0, 0, -200), now.AddDate(0, 0, -1), now.AddDate(0, 0, -200).Truncate(24*time.Hour),
		now.AddDate(0, 0, -1).Truncate(24*time.Hour))
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, pruneGrains(ctx, db, &out, now))
	var got struct {
		Cutoff  string
		Deleted int64
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &got))
	require.Equal(t, "2026-08-05T00:00:00Z", got.Cutoff)
	require.EqualValues(t, 1, got.Deleted)
	var left time.Time
	require.NoError(t, admin.QueryRow(ctx, `select bucket from account_activity_grains where tenant_id = $1`, string(f.ID)).Scan(&left))
	require.Equal(t, now.AddDate(0, 0, -1).Truncate(24*time.Hour), left.UTC())
}

// TestArchiveRollupsCommand: `complyd archive rollups` folds the shards of the hours before the
// cutoff of its clock into shard 0, keeps the sums and the recent hours' shards, and says so.
func TestArchiveRollupsCommand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t)
	f := pgtest.Tenant(ctx, t, db)
	admin := pgtest.AdminOf(ctx, t, url)
	now := time.Date(2026, 12, 3, 2, 0, 0, 0, time.UTC)
	old, recent := now.Add(-72*time.Hour), now.Add(-time.Hour)
	_, err := admin.Exec(ctx, `insert into screening_rollups (tenant_id, bucket, shard, outcome, risk_level, screenings)
		values ($1, $2, 0, 'APPROVE', 'LOW', 5), ($1, $2, 2, 'APPROVE', 'LOW', 7), ($1, $2, 3, 'BLOCK', 'CRITICAL', 1),
			($1, $3, 1, 'APPROVE', 'LOW', 4), ($1, $3, 2, 'APPROVE', 'LOW', 6)`, string(f.ID), old, recent)
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, foldRollups(ctx, db, &out, now))
	var got struct {
		Cutoff  string
		Removed int64
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &got))
	require.Equal(t, "2026-12-01T02:00:00Z", got.Cutoff)
	require.EqualValues(t, 1, got.Removed, "two rows deleted, one shard-0 row created")
	rows, err := admin.Query(ctx, `select bucket = $2, shard, outcome, screenings from screening_rollups where tenant_id = $1
		order by bucket, outcome, shard`, string(f.ID), old)
	require.NoError(t, err)
	type row struct {
		Old        bool
		Shard      int16
		Outcome    string
		Screenings int64
	}
	left, err := pgx.CollectRows(rows, pgx.RowToStructByPos[row])
	require.NoError(t, err)
	require.Equal(t, []row{{true, 0, "APPROVE", 12}, {true, 0, "BLOCK", 1}, {false, 1, "APPROVE", 4}, {false, 2, "APPROVE", 6}}, left)
}
