package postgres

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/flight"
	"github.com/complyd/complyd/internal/tenancy"
)

// AuthChannel announces, with the tenant id as payload, a change that can end an API key's or a
// session's validity (user deactivated or role changed, key revoked, session revoked); every
// replica's PrincipalCache drops that tenant's entries.
const AuthChannel = "complyd_auth"

// PrincipalCache is an auth.Store that keeps resolved API keys and sessions (the user behind a
// bearer token's token family) in memory for at most TTL, so a bank core's calls cost no
// database round trip to authenticate, with either credential (docs/guide/screening.md
// "Performance"). "Deactivation stops keys at once" (docs/design/design-choices.md §3) holds: UpdateUser and
// RevokeAPIKey through this store drop the tenant's entries before they return, and announce
// the change on AuthChannel so other replicas drop theirs; TTL bounds what a lost announcement
// could leave behind. Expiry is checked against the cached key on every use; failed lookups
// are never cached.
//
// An entry is read again ahead of its expiry (refreshAhead), in the background, while callers
// go on being served from it: with a plain TTL every key expired under load at once, each 30 s,
// and the callers of that second all waited on the one lookup, which itself waited for a pool
// connection behind the screenings; the ramp's per-second p99 rose to 150-300 ms in those
// seconds (docs/performance-at-scale.md, "The seconds of every half minute"). A refresh that
// finds the key revoked or its user deactivated drops the entry at once.
type PrincipalCache struct {
	auth.Store
	db  *DB
	ttl time.Duration
	log *slog.Logger
	now func() time.Time

	// refreshing holds the flight keys of the background refreshes under way, so that the
	// callers of an entry due for a refresh start one, not one each.
	refreshing sync.Map

	gen      atomic.Uint64
	mu       sync.RWMutex
	entries  map[string]principalEntry // by key hash
	sessions map[sessionKey]sessionEntry
	// keyReads and sessionReads share one lookup among the callers that miss the same key at
	// once (flight.Group; a cold start under load sent dozens of identical lookups).
	keyReads     flight.Group[principalEntry]
	sessionReads flight.Group[auth.User]
}

type sessionKey struct{ tenant, user, family string }

type sessionEntry struct {
	user auth.User
	at   time.Time
}

type principalEntry struct {
	user auth.User
	key  auth.APIKey
	at   time.Time
}

// NewPrincipalCache wraps store.
func NewPrincipalCache(store auth.Store, db *DB, ttl time.Duration, log *slog.Logger) *PrincipalCache {
	return &PrincipalCache{Store: store, db: db, ttl: ttl, log: log, now: time.Now, entries: map[string]principalEntry{},
		sessions: map[sessionKey]sessionEntry{}}
}

// refreshAhead is the share of the TTL after which an entry in use is read again in the
// background: a quarter of the TTL is left for that read, far more than it takes.
func (c *PrincipalCache) refreshAhead() time.Duration { return c.ttl * 3 / 4 }

// refresh runs fetch under key in the background unless a refresh of key is already under
// way. The caller that started it has been answered from the entry; fetch runs on its own
// context (flight.Group's budget), not the request's, which ends with the answer.
func refresh[V any](c *PrincipalCache, g *flight.Group[V], key string, fetch func(context.Context) (V, error)) {
	if _, busy := c.refreshing.LoadOrStore(key, struct{}{}); busy {
		return
	}
	go func() {
		defer c.refreshing.Delete(key)
		_, _ = g.Do(context.Background(), key, fetch)
	}()
}

// denied reports whether a lookup's error says the credential is no longer good (revoked,
// expired, its user deactivated), as opposed to the database failing to answer.
func denied(err error) bool {
	switch apperr.CodeOf(err) {
	case apperr.Unauthenticated, apperr.NotFound, apperr.Forbidden, apperr.AccountDisabled, apperr.InvalidRefreshToken:
		return true
	}
	return false
}

// ResolveSession implements auth.Store from the cache when it can: the user of a live token
// family. Revocations and deactivations go through this store, which drops the tenant's entries
// and announces them to the other replicas before returning.
func (c *PrincipalCache) ResolveSession(ctx context.Context, tenantID tenancy.TenantID, userID, familyID string) (auth.User, error) {
	k := sessionKey{string(tenantID), userID, familyID}
	c.mu.RLock()
	e, ok := c.sessions[k]
	c.mu.RUnlock()
	age := c.now().Sub(e.at)
	gen := c.gen.Load()
	key := k.tenant + "/" + k.user + "/" + k.family + "/" + strconv.FormatUint(gen, 10)
	read := func(ctx context.Context) (auth.User, error) {
		u, err := c.Store.ResolveSession(ctx, tenantID, userID, familyID)
		c.mu.Lock()
		if c.gen.Load() == gen {
			switch {
			case err == nil:
				c.sessions[k] = sessionEntry{user: u, at: c.now()}
			case denied(err):
				delete(c.sessions, k)
			}
		}
		c.mu.Unlock()
		return u, err
	}
	if ok && age < c.ttl {
		if age >= c.refreshAhead() {
			refresh(c, &c.sessionReads, key, read)
		}
		return e.user, nil
	}
	return c.sessionReads.Do(ctx, key, read)
}

// RotateRefresh implements auth.Store; a reused refresh token revokes its family, so the
// tenant's entries are dropped whatever the outcome.
func (c *PrincipalCache) RotateRefresh(ctx context.Context, tenantID tenancy.TenantID, oldHash []byte, next auth.RefreshToken, now time.Time) (auth.User, string, error) {
	u, fam, err := c.Store.RotateRefresh(ctx, tenantID, oldHash, next, now)
	if err != nil {
		c.announce(ctx, tenantID)
	}
	return u, fam, err
}

// RevokeFamilyOf implements auth.Store and drops the tenant's cached sessions.
func (c *PrincipalCache) RevokeFamilyOf(ctx context.Context, tenantID tenancy.TenantID, hash []byte, ev audit.Event) error {
	err := c.Store.RevokeFamilyOf(ctx, tenantID, hash, ev)
	c.announce(ctx, tenantID)
	return err
}

// RevokeFamily implements auth.Store and drops the tenant's cached sessions.
func (c *PrincipalCache) RevokeFamily(ctx context.Context, tenantID tenancy.TenantID, familyID string, ev audit.Event) error {
	err := c.Store.RevokeFamily(ctx, tenantID, familyID, ev)
	c.announce(ctx, tenantID)
	return err
}

// ResolveAPIKey implements auth.Store from the cache when it can.
func (c *PrincipalCache) ResolveAPIKey(ctx context.Context, tenantID tenancy.TenantID, hash []byte, now time.Time) (auth.User, auth.APIKey, error) {
	c.mu.RLock()
	e, ok := c.entries[string(hash)]
	c.mu.RUnlock()
	age := c.now().Sub(e.at)
	gen := c.gen.Load()
	key := string(tenantID) + "/" + string(hash) + "/" + strconv.FormatUint(gen, 10)
	read := func(ctx context.Context) (principalEntry, error) {
		u, k, err := c.Store.ResolveAPIKey(ctx, tenantID, hash, now)
		e := principalEntry{user: u, key: k, at: c.now()}
		c.mu.Lock()
		if c.gen.Load() == gen {
			switch {
			case err == nil:
				c.entries[string(hash)] = e
			case denied(err):
				delete(c.entries, string(hash))
			}
		}
		c.mu.Unlock()
		return e, err
	}
	if ok && e.key.TenantID == tenantID && age < c.ttl && (e.key.ExpiresAt == nil || now.Before(*e.key.ExpiresAt)) {
		if age >= c.refreshAhead() {
			refresh(c, &c.keyReads, key, read)
		}
		return e.user, e.key, nil
	}
	e, err := c.keyReads.Do(ctx, key, read)
	return e.user, e.key, err
}

// invalidate drops the tenant's entries ("" drops all).
func (c *PrincipalCache) invalidate(tenantID tenancy.TenantID) {
	c.mu.Lock()
	c.gen.Add(1)
	for h, e := range c.entries {
		if tenantID == "" || e.key.TenantID == tenantID {
			delete(c.entries, h)
		}
	}
	for k := range c.sessions {
		if tenantID == "" || k.tenant == string(tenantID) {
			delete(c.sessions, k)
		}
	}
	c.mu.Unlock()
}

func (c *PrincipalCache) announce(ctx context.Context, tenantID tenancy.TenantID) {
	c.invalidate(tenantID)
	if _, err := c.db.Pool.Exec(context.WithoutCancel(ctx), "select pg_notify($1, $2)", AuthChannel, string(tenantID)); err != nil {
		c.log.WarnContext(ctx, "announce auth change", "err", err)
	}
}

// UpdateUser implements auth.Store and drops the tenant's cached keys.
func (c *PrincipalCache) UpdateUser(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*auth.User) (audit.Event, error)) (auth.User, error) {
	u, err := c.Store.UpdateUser(ctx, tenantID, id, fn)
	c.announce(ctx, tenantID)
	return u, err
}

// RevokeAPIKey implements auth.Store and drops the tenant's cached keys.
func (c *PrincipalCache) RevokeAPIKey(ctx context.Context, tenantID tenancy.TenantID, id string, at time.Time, ev audit.Event) (auth.APIKey, error) {
	k, err := c.Store.RevokeAPIKey(ctx, tenantID, id, at, ev)
	c.announce(ctx, tenantID)
	return k, err
}

// Listen follows AuthChannel until ctx ends (see SettingsCache.Listen).
func (c *PrincipalCache) Listen(ctx context.Context, ready func()) {
	listen(ctx, c.db, AuthChannel, c.log, ready, func(p string) { c.invalidate(tenancy.TenantID(p)) }, func() { c.invalidate("") })
}
