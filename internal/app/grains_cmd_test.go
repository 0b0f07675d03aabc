package app

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

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
