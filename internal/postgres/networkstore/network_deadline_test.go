package networkstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/network"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/networkstore"
)

// TestNetworkLimitIsPerRequest is issue 48 point 7d: the network query's limit bounds the whole
// request, not each statement. Two locks make two statements of one request wait 0.4 s each:
// each is under the 0.6 s limit (a per-statement timeout lets the request run 0.8 s and
// succeed), the request is over it and answers SERVICE_UNAVAILABLE at about 0.6 s.
func TestNetworkLimitIsPerRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := pgtest.Fresh(t)
	f := pgtest.Tenant(ctx, t, db)
	setup := pgtest.AdminOf(ctx, t, url)
	_, err := setup.Exec(ctx, `insert into customer_profiles (id, tenant_id, profile_type, profile_key, display_name, bvn, data, source,
		last_lookup_at, created_at, updated_at) values ('cus_lock', $1, 'INDIVIDUAL', 'bvn:22200000001', 'Locked Out', '22200000001', '{}', 'LOOKUP', now(), now(), now())`,
		string(f.ID))
	require.NoError(t, err)
	plant(ctx, t, setup, f.ID, "9100000001", "9100000002", "", 1000, time.Hour)

	// The request reads customer_profiles (its seeds), then transactions: one lock on each,
	// released 0.4 s apart.
	lockA, lockB := pgtest.AdminOf(ctx, t, url), pgtest.AdminOf(ctx, t, url)
	txA, err := lockA.Begin(ctx)
	require.NoError(t, err)
	_, err = txA.Exec(ctx, "lock table customer_profiles in access exclusive mode")
	require.NoError(t, err)
	txB, err := lockB.Begin(ctx)
	require.NoError(t, err)
	_, err = txB.Exec(ctx, "lock table transactions in access exclusive mode")
	require.NoError(t, err)
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(400 * time.Millisecond)
		_ = txA.Commit(ctx)
		time.Sleep(400 * time.Millisecond)
		_ = txB.Commit(ctx)
	}()
	// The request gives up before the second lock is released: wait for both commits before the
	// cleanups (run last-in first-out) close the connections they use.
	t.Cleanup(func() { <-released })

	store := networkstore.NewNetworkStore(db)
	store.Timeout = 600 * time.Millisecond
	start := time.Now()
	_, err = store.Graph(ctx, f.ID, network.Params{CustomerID: "cus_lock", Hops: 1, From: time.Now().Add(-24 * time.Hour), To: time.Now(),
		MaxNodes: 10, MaxEdges: 10})
	took := time.Since(start)
	require.Equal(t, apperr.Unavailable, apperr.CodeOf(err), "err %v after %s", err, took)
	require.Less(t, took, 780*time.Millisecond, "the request stops at its limit, not at the end of its last statement")
	require.Contains(t, err.Error(), "600ms")
}
