package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
)

// startRunner starts a River runner on db with workers, holding jobs back as y says, and stops
// it when the test ends.
func startRunner(t *testing.T, db *postgres.DB, workers *river.Workers, y jobs.Yield) *jobs.Runner {
	t.Helper()
	runner, err := jobs.NewRunnerYielding(db.Pool, workers, slog.New(slog.DiscardHandler), y)
	require.NoError(t, err)
	require.NoError(t, runner.Start(context.Background()))
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_ = runner.Stop(sctx)
	})
	return runner
}
