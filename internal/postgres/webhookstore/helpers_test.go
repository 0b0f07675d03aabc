package webhookstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
)

// (a copy of the helper in internal/postgres/write_coalescer_test.go)
// writeBehindALock runs the writes of a coalescer test: first while another transaction holds
// the row id of table, so that its write waits, then each of rest, which queue behind it; then
// it releases the row and waits for them all.
func writeBehindALock(ctx context.Context, t *testing.T, table, id string, first func(), rest []func()) {
	t.Helper()
	lock := lockRow(ctx, t, table, id)
	var wg sync.WaitGroup
	wg.Go(first)
	time.Sleep(100 * time.Millisecond) // the first write is waiting for the lock
	for _, f := range rest {
		wg.Go(f)
	}
	time.Sleep(200 * time.Millisecond) // the others have queued behind it
	require.NoError(t, lock.Commit(ctx))
	wg.Wait()
}

// lockRow locks the row id of table in a transaction of its own, which the caller ends.
func lockRow(ctx context.Context, t *testing.T, table, id string) pgx.Tx {
	t.Helper()
	lock, err := pgtest.Admin(ctx, t).Begin(ctx)
	require.NoError(t, err)
	_, err = lock.Exec(ctx, "select 1 from "+table+" where id = $1 for update", id)
	require.NoError(t, err)
	return lock
}
