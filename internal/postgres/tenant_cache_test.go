package postgres

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// blockingLoad counts its calls and holds each until release is closed.
type blockingLoad struct {
	calls   atomic.Int64
	started chan struct{}
	release chan struct{}
}

func newBlockingLoad() *blockingLoad {
	return &blockingLoad{started: make(chan struct{}, 64), release: make(chan struct{})}
}

func (b *blockingLoad) wait(ctx context.Context) error {
	b.calls.Add(1)
	b.started <- struct{}{}
	select {
	case <-b.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// coldMisses calls get from n goroutines at once while the first load is held, then releases
// it, and returns the errors.
func coldMisses(t *testing.T, b *blockingLoad, n int, get func(ctx context.Context) error) []error {
	t.Helper()
	errs := make([]error, n)
	var wg, arrived sync.WaitGroup
	arrived.Add(n)
	for i := range n {
		wg.Go(func() {
			arrived.Done()
			errs[i] = get(context.Background())
		})
	}
	<-b.started
	arrived.Wait()
	time.Sleep(50 * time.Millisecond) // the others, all started, reach the cache and miss too
	close(b.release)
	wg.Wait()
	return errs
}

// TestCachesShareColdLoads: callers that miss the same entry at once share one database read.
// At a service's start under 1,000 screenings/s, the settings, interdictions and API key
// caches each sent a dozen identical reads, each on a new pool connection, and the first
// second's p99 was 58-256 ms.
func TestCachesShareColdLoads(t *testing.T) {
	t.Parallel()
	const n = 16
	t.Run("settings", func(t *testing.T) {
		t.Parallel()
		b := newBlockingLoad()
		c := &SettingsCache{ttl: time.Minute, now: time.Now, log: slog.New(slog.DiscardHandler), entries: newTenantEntries[settingsEntry]()}
		c.load = func(ctx context.Context, _ tenancy.TenantID) (screening.Settings, error) {
			return screening.Settings{Config: tenancy.Config{KYCTrustMode: tenancy.TrustStrict}}, b.wait(ctx)
		}
		for _, err := range coldMisses(t, b, n, func(ctx context.Context) error {
			s, err := c.Settings(ctx, "t1")
			if err == nil && s.Config.KYCTrustMode != tenancy.TrustStrict {
				err = errors.New("wrong settings")
			}
			return err
		}) {
			require.NoError(t, err)
		}
		require.EqualValues(t, 1, b.calls.Load())
		_, err := c.Settings(context.Background(), "t1")
		require.NoError(t, err)
		require.EqualValues(t, 1, b.calls.Load(), "kept")
	})
	t.Run("interdictions", func(t *testing.T) {
		t.Parallel()
		b := newBlockingLoad()
		c := &InterdictionCache{log: slog.New(slog.DiscardHandler), entries: newTenantEntries[screening.Restrictions]()}
		c.load = func(ctx context.Context, _ tenancy.TenantID) (screening.Restrictions, error) {
			return screening.Restrictions{}, b.wait(ctx)
		}
		for _, err := range coldMisses(t, b, n, func(ctx context.Context) error { _, err := c.Restrictions(ctx, "t1"); return err }) {
			require.NoError(t, err)
		}
		require.EqualValues(t, 1, b.calls.Load())
	})
	t.Run("api keys", func(t *testing.T) {
		t.Parallel()
		b := newBlockingLoad()
		c := NewPrincipalCache(keyStore{b: b}, nil, time.Minute, slog.New(slog.DiscardHandler))
		for _, err := range coldMisses(t, b, n, func(ctx context.Context) error {
			_, k, err := c.ResolveAPIKey(ctx, "t1", []byte("hash"), time.Now())
			if err == nil && k.ID != "key_1" {
				err = errors.New("wrong key")
			}
			return err
		}) {
			require.NoError(t, err)
		}
		require.EqualValues(t, 1, b.calls.Load())
	})
}

// keyStore resolves one API key, through b (the rest of auth.Store is not called).
type keyStore struct {
	auth.Store
	b *blockingLoad
}

func (s keyStore) ResolveAPIKey(ctx context.Context, tenant tenancy.TenantID, _ []byte, _ time.Time) (auth.User, auth.APIKey, error) {
	return auth.User{ID: "usr_1"}, auth.APIKey{ID: "key_1", TenantID: tenant}, s.b.wait(ctx)
}

// TestSharedLoadOutlivesItsFirstCaller: the caller whose miss started the shared read may give
// up; the others still get the value, and it is kept. A miss after an invalidation does not
// join a read that began before it.
func TestSharedLoadOutlivesItsFirstCaller(t *testing.T) {
	t.Parallel()
	b := newBlockingLoad()
	e := newTenantEntries[int]()
	fetch := func(ctx context.Context) (int, error) { return 7, b.wait(ctx) }
	first, cancel := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() { _, err := e.load(first, "t1", fetch); firstErr <- err }()
	<-b.started
	second := make(chan int, 1)
	go func() { v, _ := e.load(context.Background(), "t1", fetch); second <- v }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	require.ErrorIs(t, <-firstErr, context.Canceled)

	// An invalidation now: the next miss reads again rather than join the older read.
	e.invalidate("t1")
	third := make(chan int, 1)
	go func() {
		v, _ := e.load(context.Background(), "t1", func(ctx context.Context) (int, error) { return 8, b.wait(ctx) })
		third <- v
	}()
	<-b.started
	close(b.release)
	require.Equal(t, 7, <-second)
	require.Equal(t, 8, <-third)
	require.EqualValues(t, 2, b.calls.Load())
	v, ok := e.get("t1")
	require.True(t, ok)
	require.Equal(t, 8, v, "the read begun before the invalidation is not kept")
}

// gatedKeys resolves one API key; every lookup after the first waits for release, and answers
// with err when it is set.
type gatedKeys struct {
	auth.Store
	calls   atomic.Int64
	started chan struct{}
	release chan struct{}
	err     atomic.Pointer[error]
}

func (s *gatedKeys) ResolveAPIKey(ctx context.Context, tenant tenancy.TenantID, _ []byte, _ time.Time) (auth.User, auth.APIKey, error) {
	if s.calls.Add(1) > 1 {
		s.started <- struct{}{}
		select {
		case <-s.release:
		case <-ctx.Done():
			return auth.User{}, auth.APIKey{}, ctx.Err()
		}
	}
	if p := s.err.Load(); p != nil {
		return auth.User{}, auth.APIKey{}, *p
	}
	return auth.User{ID: "usr_1"}, auth.APIKey{ID: "key_1", TenantID: tenant}, nil
}

// TestPrincipalCacheRefreshesAhead: an API key in use is read again in the background before
// its TTL runs out, and no caller waits for that read. Before, every key expired at once each
// 30 s under load and that second's callers all waited on the lookup, which waited for a pool
// connection behind the screenings: the ramp's p99 rose to 150-300 ms in those seconds.
func TestPrincipalCacheRefreshesAhead(t *testing.T) {
	t.Parallel()
	s := &gatedKeys{started: make(chan struct{}, 8), release: make(chan struct{})}
	c := NewPrincipalCache(s, nil, time.Minute, slog.New(slog.DiscardHandler))
	var clock atomic.Int64
	t0 := time.Now()
	c.now = func() time.Time { return t0.Add(time.Duration(clock.Load())) }
	resolve := func() error {
		done := make(chan error, 1)
		go func() {
			_, _, err := c.ResolveAPIKey(context.Background(), "t1", []byte("hash"), time.Now())
			done <- err
		}()
		select {
		case err := <-done:
			return err
		case <-time.After(2 * time.Second):
			return errors.New("the caller waited on the lookup")
		}
	}
	require.NoError(t, resolve())
	require.EqualValues(t, 1, s.calls.Load())

	// 50 s in (of a 60 s TTL): answered from the entry at once; one refresh starts behind it.
	clock.Store(int64(50 * time.Second))
	for range 5 {
		require.NoError(t, resolve())
	}
	select {
	case <-s.started:
	case <-time.After(2 * time.Second):
		t.Fatal("no refresh ahead of the expiry")
	}
	close(s.release)
	require.Eventually(t, func() bool {
		_, busy := c.refreshing.Load("t1/hash/0")
		return !busy
	}, 2*time.Second, 5*time.Millisecond)
	require.EqualValues(t, 2, s.calls.Load(), "one refresh for all the callers")

	// 70 s in: past the first read's TTL, within the refresh's; still no lookup in the way.
	clock.Store(int64(70 * time.Second))
	require.NoError(t, resolve())
	require.EqualValues(t, 2, s.calls.Load())

	// A refresh that finds the key revoked drops it: the next caller is refused.
	revoked := error(apperr.New(apperr.Unauthenticated, "API key is invalid, revoked or expired"))
	s.err.Store(&revoked)
	clock.Store(int64(100 * time.Second))
	require.NoError(t, resolve(), "served while the refresh runs")
	require.Eventually(t, func() bool {
		c.mu.RLock()
		defer c.mu.RUnlock()
		_, ok := c.entries["hash"]
		return !ok
	}, 2*time.Second, 5*time.Millisecond)
	require.Error(t, resolve())
}

// TestSettingsCacheRefreshesAhead: a tenant's screening settings are read again in the
// background before their TTL runs out (as the API keys', TestPrincipalCacheRefreshesAhead), so
// the screenings of the second they would expire in never wait on the read.
func TestSettingsCacheRefreshesAhead(t *testing.T) {
	t.Parallel()
	var clock atomic.Int64
	t0 := time.Now()
	var calls atomic.Int64
	started, release := make(chan struct{}, 8), make(chan struct{})
	c := &SettingsCache{ttl: time.Minute, now: func() time.Time { return t0.Add(time.Duration(clock.Load())) },
		log: slog.New(slog.DiscardHandler), entries: newTenantEntries[settingsEntry]()}
	c.load = func(ctx context.Context, _ tenancy.TenantID) (screening.Settings, error) {
		if calls.Add(1) > 1 {
			started <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
				return screening.Settings{}, ctx.Err()
			}
		}
		return screening.Settings{}, nil
	}
	settings := func() error {
		done := make(chan error, 1)
		go func() { _, err := c.Settings(context.Background(), "t1"); done <- err }()
		select {
		case err := <-done:
			return err
		case <-time.After(2 * time.Second):
			return errors.New("the screening waited on the read")
		}
	}
	require.NoError(t, settings())
	clock.Store(int64(50 * time.Second))
	for range 5 {
		require.NoError(t, settings())
	}
	select {
	case <-started:
	case <-time.After(2 * time.Second):
		t.Fatal("no refresh ahead of the expiry")
	}
	close(release)
	require.Eventually(t, func() bool {
		_, busy := c.refreshing.Load(tenancy.TenantID("t1"))
		return !busy
	}, 2*time.Second, 5*time.Millisecond)
	clock.Store(int64(70 * time.Second))
	require.NoError(t, settings())
	require.EqualValues(t, 2, calls.Load(), "one refresh, and none at the first read's expiry")
}
