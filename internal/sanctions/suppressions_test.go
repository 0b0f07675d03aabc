package sanctions

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/tenancy"
)

// TestSuppressionsShareColdReads: screenings that miss the tenant's false positives at once
// share one read (a dozen identical reads at a service's start under load), and a read that
// began before a drop (a false positive created meanwhile) is not kept.
func TestSuppressionsShareColdReads(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	started, release := make(chan struct{}, 32), make(chan struct{})
	fps := []FalsePositive{{ID: "fp_1", SubjectKey: "BVN-1", EntryID: "e1"}}
	load := func(ctx context.Context) ([]FalsePositive, error) {
		calls.Add(1)
		started <- struct{}{}
		<-release
		return fps, nil
	}
	svc := newTestService(&fakeStore{ActiveFalsePositivesFunc: func(ctx context.Context, _ tenancy.TenantID) ([]FalsePositive, error) {
		return load(ctx)
	}})
	c := &svc.suppressed
	var wg, arrived sync.WaitGroup
	arrived.Add(16)
	for range 16 {
		wg.Go(func() {
			arrived.Done()
			m, err := svc.suppressions(context.Background(), "t1")
			require.NoError(t, err)
			require.Equal(t, "fp_1", m["BVN-1"]["e1"])
		})
	}
	<-started
	arrived.Wait()
	time.Sleep(50 * time.Millisecond) // the others, all started, reach the cache and miss too
	close(release)
	wg.Wait()
	require.EqualValues(t, 1, calls.Load())

	// A drop while a read is under way: that read answers its callers but is not kept.
	c.drop("t1")
	release = make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := c.get(context.Background(), "t1", load)
		require.NoError(t, err)
	}()
	<-started
	c.drop("t1")
	close(release)
	<-done
	fps = []FalsePositive{{ID: "fp_2", SubjectKey: "BVN-1", EntryID: "e2"}}
	release = make(chan struct{})
	close(release)
	m, err := c.get(context.Background(), "t1", load)
	require.NoError(t, err)
	require.Equal(t, "fp_2", m["BVN-1"]["e2"], "read again after the drop")
	require.EqualValues(t, 3, calls.Load())
}
