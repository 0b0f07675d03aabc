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

// TenantLimiter enforces per-tenant request ceilings (docs/design/design-choices.md §7): one class for
// screening, one for every other endpoint. A rate of 0 turns a class off. Alone it counts per
// process; with a RateLeaser (Share) every replica spends from one bucket per tenant and class.
type TenantLimiter struct {
	mu      sync.Mutex
	buckets map[tenantBucket]*rate.Limiter
	rates   map[string]int
	now     func() time.Time
	leaser  RateLeaser
	shared  map[tenantBucket]*leasedBucket
}

// RateLeaser is a token bucket shared by every replica (internal/postgres's): capacity one
// second of perSecond, refilled evenly. Lease takes up to n tokens of key's bucket at once and
// returns how many it took; with none taken, wait is how long until one is there.
type RateLeaser interface {
	Lease(ctx context.Context, key string, perSecond, n int) (granted int, wait time.Duration, err error)
}

// leasedBucket is a replica's share of a shared bucket: tokens leased and not yet spent (valid
// for leaseLife), or a refusal remembered until a token is due, so that an over-limit burst
// does not ask the database once per request.
type leasedBucket struct {
	mu           sync.Mutex
	tokens       int
	expires      time.Time
	refusedUntil time.Time
	// openUntil lets requests through without asking after a lease failed, so that a database
	// that does not answer is not waited for by every request in turn.
	openUntil time.Time
}

// leaseLife is how long leased tokens may be spent: one second, the bucket's own horizon, so
// that tokens a replica leased and did not use cannot be spent much later.
const leaseLife = time.Second

// leaseSize is how many tokens a replica leases at once for a rate: 2 % of a second's worth
// (at least one), so that with a few replicas the tokens leased and left unspent stay far below
// the 10 % the limits must hold to, and a tenant at 5,000 screenings a second costs about 50
// statements a second.
func leaseSize(perSecond int) int { return max(1, perSecond/50) }

// Share makes l spend from leaser's buckets, shared by every replica, instead of counting in
// this process alone. Call it before the limiter is used.
func (l *TenantLimiter) Share(leaser RateLeaser) {
	l.leaser = leaser
	l.shared = map[tenantBucket]*leasedBucket{}
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
	if l.leaser != nil {
		return l.allowShared(key, n)
	}
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

// allowShared spends a token leased from the shared bucket, leasing more when none is left. A
// lease that fails (the database cannot answer) allows the request, and the tenant's requests
// for the next second without asking: the limit protects capacity, and a request that needs
// the database fails on its own.
func (l *TenantLimiter) allowShared(key tenantBucket, perSecond int) (bool, time.Duration) {
	l.mu.Lock()
	b, ok := l.shared[key]
	if !ok {
		b = &leasedBucket{}
		l.shared[key] = b
	}
	l.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	now := l.now()
	if b.tokens > 0 && now.Before(b.expires) {
		b.tokens--
		return true, 0
	}
	if now.Before(b.refusedUntil) {
		return false, b.refusedUntil.Sub(now)
	}
	if now.Before(b.openUntil) {
		return true, 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	granted, wait, err := l.leaser.Lease(ctx, key.class+":"+key.tenant, perSecond, leaseSize(perSecond))
	if err != nil {
		b.openUntil = now.Add(leaseLife)
		return true, 0
	}
	if granted == 0 {
		b.tokens, b.refusedUntil = 0, now.Add(wait)
		return false, wait
	}
	b.tokens, b.expires = granted-1, now.Add(leaseLife)
	return true, 0
}
