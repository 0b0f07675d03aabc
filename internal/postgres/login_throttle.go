package postgres

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/auth"
)

// LoginThrottle is auth.LoginThrottle over PostgreSQL: one token bucket row per email and per IP,
// refilled and spent in a single statement, so that every replica spends from the same buckets
// and a restart forgets nothing. A login is rare next to a screening, so one round trip for it is
// cheap.
type LoginThrottle struct {
	db  *DB
	now func() time.Time
}

// NewLoginThrottle returns the shared login throttle.
func NewLoginThrottle(db *DB, now func() time.Time) *LoginThrottle {
	return &LoginThrottle{db: db, now: now}
}

var _ auth.LoginThrottle = (*LoginThrottle)(nil)

// spendSQL refills the bucket for the time since its last use (capacity $2 a minute), then takes
// one token if there is one; allowed says whether it did. A new key starts full.
const spendSQL = `
insert into login_throttle as t (key, tokens, allowed, updated_at) values ($1, $2::float8 - 1, true, $3)
on conflict (key) do update set
  allowed = least($2::float8, t.tokens + greatest(0, extract(epoch from ($3 - t.updated_at))) * $2::float8 / 60) >= 1,
  tokens = least($2::float8, t.tokens + greatest(0, extract(epoch from ($3 - t.updated_at))) * $2::float8 / 60)
    - case when least($2::float8, t.tokens + greatest(0, extract(epoch from ($3 - t.updated_at))) * $2::float8 / 60) >= 1 then 1 else 0 end,
  updated_at = greatest(t.updated_at, $3)
returning allowed, tokens`

// Allow implements auth.LoginThrottle: the email's bucket, then the IP's, in one transaction;
// a refusal says how long until the bucket holds a token again.
func (l *LoginThrottle) Allow(ctx context.Context, email, ip string) (bool, time.Duration, error) {
	now := l.now()
	ok, wait := true, time.Duration(0)
	err := l.db.global(ctx, func(tx pgx.Tx) error {
		for _, k := range auth.LoginKeys(email, ip) {
			var allowed bool
			var tokens float64
			if err := tx.QueryRow(ctx, spendSQL, k.Key, k.PerMinute, now).Scan(&allowed, &tokens); err != nil {
				return fmt.Errorf("login throttle: %w", err)
			}
			if !allowed {
				ok = false
				wait = time.Duration(math.Ceil((1-tokens)*60/float64(k.PerMinute)*1000)) * time.Millisecond
				return nil
			}
		}
		// Now and then, forget buckets idle for an hour (they would be full again).
		if rand.IntN(100) == 0 {
			if _, err := tx.Exec(ctx, "delete from login_throttle where updated_at < $1", now.Add(-time.Hour)); err != nil {
				return fmt.Errorf("login throttle sweep: %w", err)
			}
		}
		return nil
	})
	return ok, wait, err
}
