-- +goose Up
-- The login throttle's token buckets (per email and per IP), shared by every replica and kept
-- across restarts (docs/guide/operations.md "Replicas and shared state"). Global: a login is throttled
-- before its tenant is known. Rows idle for an hour are full buckets and are deleted.
CREATE TABLE login_throttle (
  key        text PRIMARY KEY,
  tokens     double precision NOT NULL,
  allowed    boolean NOT NULL,
  updated_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE login_throttle;
