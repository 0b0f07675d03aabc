package auth

import (
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// LoginLimiter bounds login attempts per email and per IP (decisions.md §7: 10/min per email,
// 100/min per IP). It is per process: each replica enforces its own share.
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

// Allow spends one attempt for email and ip; when refused it says how long to wait.
func (l *LoginLimiter) Allow(email, ip string) (bool, time.Duration) {
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
