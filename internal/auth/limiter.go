package auth

import (
	"context"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// LoginThrottle bounds login attempts per email and per IP: 10 a minute per email and 100 per IP,
// as token buckets (a burst of the whole minute's allowance, refilled evenly). The service's
// throttle is internal/postgres's, shared by every replica and kept across restarts;
// LoginLimiter is an in-process one for the operator CLI and tests.
type LoginThrottle interface {
	// Allow spends one attempt for email and ip; when refused it says how long to wait.
	Allow(ctx context.Context, email, ip string) (ok bool, wait time.Duration, err error)
}

// Login attempts allowed a minute (per email, per IP).
const (
	LoginAttemptsPerEmail = 10
	LoginAttemptsPerIP    = 100
)

// LoginKeys are the throttle's buckets for one attempt, with their capacity a minute.
func LoginKeys(email, ip string) []LoginKey {
	keys := []LoginKey{{Key: "e:" + strings.ToLower(email), PerMinute: LoginAttemptsPerEmail}}
	if ip != "" {
		keys = append(keys, LoginKey{Key: "i:" + ip, PerMinute: LoginAttemptsPerIP})
	}
	return keys
}

// LoginKey is one bucket of the login throttle.
type LoginKey struct {
	Key       string
	PerMinute int
}

// LoginLimiter is an in-process LoginThrottle: each process counts on its own.
type LoginLimiter struct {
	mu      sync.Mutex
	perKey  map[string]*rate.Limiter
	now     func() time.Time
	emailRL rate.Limit
	emailN  int
	ipRL    rate.Limit
	ipN     int
	swept   time.Time
}

// NewLoginLimiter returns a limiter allowing perEmail and perIP attempts a minute.
func NewLoginLimiter(perEmail, perIP int, now func() time.Time) *LoginLimiter {
	return &LoginLimiter{
		perKey:  map[string]*rate.Limiter{},
		now:     now,
		emailRL: rate.Every(time.Minute / time.Duration(perEmail)), emailN: perEmail,
		ipRL: rate.Every(time.Minute / time.Duration(perIP)), ipN: perIP,
	}
}

// Allow implements LoginThrottle.
func (l *LoginLimiter) Allow(_ context.Context, email, ip string) (bool, time.Duration, error) {
	ok, wait := l.allow(email, ip)
	return ok, wait, nil
}

func (l *LoginLimiter) allow(email, ip string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.swept) > 10*time.Minute {
		l.perKey = map[string]*rate.Limiter{}
		l.swept = now
	}
	keys := []struct {
		k  string
		rl rate.Limit
		n  int
	}{{"e:" + strings.ToLower(email), l.emailRL, l.emailN}}
	if ip != "" {
		keys = append(keys, struct {
			k  string
			rl rate.Limit
			n  int
		}{"i:" + ip, l.ipRL, l.ipN})
	}
	for _, k := range keys {
		lim, ok := l.perKey[k.k]
		if !ok {
			lim = rate.NewLimiter(k.rl, k.n)
			l.perKey[k.k] = lim
		}
		r := lim.ReserveN(now, 1)
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			return false, d
		}
	}
	return true, 0
}

// TenantLimiter enforces per-tenant request ceilings (decisions.md §7): one class for
// screening, one for every other endpoint. A rate of 0 turns a class off. Per process.
type TenantLimiter struct {
	mu      sync.Mutex
	buckets map[tenantBucket]*rate.Limiter
	rates   map[string]int
	now     func() time.Time
}

// tenantBucket keys a tenant's bucket of one class (a struct, so that a lookup allocates
// nothing: streams ask once per message).
type tenantBucket struct{ class, tenant string }

// Request classes of TenantLimiter.
const (
	ClassScreening = "screening"
	ClassAPI       = "api"
)

// NewTenantLimiter allows screening and api requests per second per tenant (0 = unlimited).
func NewTenantLimiter(screening, api int, now func() time.Time) *TenantLimiter {
	return &TenantLimiter{buckets: map[tenantBucket]*rate.Limiter{}, rates: map[string]int{ClassScreening: screening, ClassAPI: api}, now: now}
}

// Allow spends one request of class for tenant; when refused it says how long to wait.
func (l *TenantLimiter) Allow(tenant, class string) (bool, time.Duration) {
	n := l.rates[class]
	if n <= 0 {
		return true, 0
	}
	key := tenantBucket{class: class, tenant: tenant}
	l.mu.Lock()
	lim, ok := l.buckets[key]
	if !ok {
		lim = rate.NewLimiter(rate.Limit(n), n) // one second of burst
		l.buckets[key] = lim
	}
	l.mu.Unlock()
	now := l.now()
	if lim.AllowN(now, 1) {
		return true, 0
	}
	// Refused: reserve and cancel only to learn the wait (a reservation is an allocation, so the
	// allowed path above does without).
	r := lim.ReserveN(now, 1)
	d := r.DelayFrom(now)
	r.CancelAt(now)
	return false, d
}
