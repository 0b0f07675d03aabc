package postgres

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/complyd/complyd/internal/auth"
)

// RateBuckets is auth.RateLeaser over PostgreSQL: one token bucket row per tenant and request
// class, refilled and leased from in a single statement, so that every replica spends from the
// same bucket and a restart forgets nothing. Replicas lease a few tokens at a time (auth's
// leaseSize), so a tenant at thousands of screenings a second costs tens of statements a second.
type RateBuckets struct{ db *DB }

// NewRateBuckets returns the shared buckets.
func NewRateBuckets(db *DB) *RateBuckets { return &RateBuckets{db: db} }

var _ auth.RateLeaser = (*RateBuckets)(nil)

// leaseSQL refills the bucket (capacity $2, one second's worth, refilled $2 a second) for the
// time since its last use by the database's clock (replicas' clocks may differ), then takes up
// to $3 whole tokens; granted says how many it took. A new key starts full.
const leaseSQL = `
insert into rate_buckets as b (key, tokens, granted, updated_at)
values ($1, $2::float8 - least($3, $2), least($3, $2), now())
on conflict (key) do update set
  granted = least($3::float8, floor(least($2::float8, b.tokens + greatest(0, extract(epoch from (now() - b.updated_at))) * $2::float8)))::int,
  tokens = least($2::float8, b.tokens + greatest(0, extract(epoch from (now() - b.updated_at))) * $2::float8)
    - least($3::float8, floor(least($2::float8, b.tokens + greatest(0, extract(epoch from (now() - b.updated_at))) * $2::float8))),
  updated_at = greatest(b.updated_at, now())
returning granted, tokens`

// Lease implements auth.RateLeaser. Errors: SERVICE_UNAVAILABLE when the database cannot be
// reached; INTERNAL.
func (r *RateBuckets) Lease(ctx context.Context, key string, perSecond, n int) (int, time.Duration, error) {
	var granted int
	var tokens float64
	if err := r.db.Pool.QueryRow(ctx, leaseSQL, key, perSecond, n).Scan(&granted, &tokens); err != nil {
		return 0, 0, dbErr(fmt.Errorf("rate bucket %s: %w", key, err))
	}
	if granted > 0 {
		return granted, 0, nil
	}
	return 0, time.Duration(math.Ceil((1-tokens)/float64(perSecond)*1e6)) * time.Microsecond, nil
}
