package pgcluster_test

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"

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

// TestStartWaitsForRecoveryAndStopsOnSignal is issue 48 point 7e. A server that does not accept
// connections yet (here a standby with hot_standby off: it stays "starting up" as a long crash
// recovery does) is waited for as long as the context lasts, not a fixed 60 s; when the context
// ends (the SIGTERM/SIGINT of `complyd dev`: main's signal.NotifyContext) the server is stopped,
// so nothing is left running. The old start (pg_ctl -w under CommandContext) left the
// postmaster running when the context ended.
func TestStartWaitsForRecoveryAndStopsOnSignal(t *testing.T) {
	t.Parallel()
	dir, err := os.MkdirTemp("", "complyd-pgcluster-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cl, err := pgcluster.Start(context.Background(), dir+"/pg", "hot_standby=off")
	if err != nil && os.Getenv("CI") == "" {
		t.Skipf("no PostgreSQL binaries for a private cluster: %v", err)
	}
	require.NoError(t, err)
	t.Cleanup(func() { _ = cl.Stop() })
	require.True(t, cl.Running())
	require.NoError(t, cl.Stop())
	require.False(t, cl.Running())

	signal := filepath.Join(cl.Dir, "data", "standby.signal")
	require.NoError(t, os.WriteFile(signal, nil, 0o600))
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		require.NoError(t, err)
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		require.NoError(t, os.Chown(signal, uid, gid))
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(1500*time.Millisecond, cancel)
	start := time.Now()
	err = cl.Restart(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.GreaterOrEqual(t, time.Since(start), 1400*time.Millisecond, "it waited for the server, not a fixed time")
	require.False(t, cl.Running(), "the signal stopped the server that was still starting")
}
