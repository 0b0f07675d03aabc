-- +goose Up
-- The per-tenant request rate limits' token buckets (COMPLYD_RATE_LIMIT_SCREENING,
-- COMPLYD_RATE_LIMIT_API), one row per class and tenant, shared by every replica: each replica
-- leases a few tokens at a time (docs/guide/operations.md "Replicas and shared state"). Global, like
-- the login throttle: the row is read before any tenant-scoped work.
CREATE TABLE rate_buckets (
  key        text PRIMARY KEY,
  tokens     double precision NOT NULL,
  granted    integer NOT NULL,
  updated_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE rate_buckets;
