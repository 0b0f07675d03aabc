package pgcluster_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgcluster"
)

// TestStartWithSettings: the settings given to Start are the server's, at start and after a
// restart (`complyd dev` starts its cluster with RecommendedSettings, issue 15 point 4).
func TestStartWithSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "complyd-pgcluster-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cl, err := pgcluster.Start(ctx, dir+"/pg", pgcluster.RecommendedSettings...)
	if err != nil && os.Getenv("CI") == "" {
		t.Skipf("no PostgreSQL binaries for a private cluster: %v", err)
	}
	require.NoError(t, err)
	t.Cleanup(func() { _ = cl.Stop() })
	show := func() map[string]string {
		conn, err := pgx.Connect(ctx, cl.URL())
		require.NoError(t, err)
		defer conn.Close(ctx)
		out := map[string]string{}
		for _, name := range []string{"shared_buffers", "max_wal_size", "checkpoint_timeout", "wal_compression", "wal_init_zero"} {
			var v string
			require.NoError(t, conn.QueryRow(ctx, "select current_setting($1)", name).Scan(&v))
			out[name] = v
		}
		return out
	}
	want := map[string]string{"shared_buffers": "1GB", "max_wal_size": "8GB", "checkpoint_timeout": "15min", "wal_compression": "lz4", "wal_init_zero": "off"}
	require.Equal(t, want, show())
	require.NoError(t, cl.Stop())
	require.NoError(t, cl.Restart(ctx))
	require.Equal(t, want, show())
}
