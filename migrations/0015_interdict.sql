-- +goose Up
-- Interdictions that bite (issue 16 point 1, docs/guide/interdictions.md): a confirmed interdiction is
-- read by screening until it is lifted, and a lift takes two people (requested with a reason by
-- one officer, approved or rejected by another). While a lift awaits its approver
-- (LIFT_REQUESTED) the interdiction stays in force.
ALTER TABLE case_interdictions DROP CONSTRAINT case_interdictions_status_check;
ALTER TABLE case_interdictions ADD CONSTRAINT case_interdictions_status_check
  CHECK (status IN ('REQUESTED', 'CONFIRMED', 'LIFT_REQUESTED', 'LIFTED'));
ALTER TABLE case_interdictions
  ADD COLUMN lift_reason       text NOT NULL DEFAULT '',
  ADD COLUMN lift_requested_by uuid REFERENCES users (id),
  ADD COLUMN lift_requested_at timestamptz,
  ADD COLUMN lifted_by         uuid REFERENCES users (id),
  ADD COLUMN lifted_at         timestamptz;

-- The screening cache loads a tenant's interdictions in force with this index; the queue
-- (GET /interdictions) pages by status and recency.
CREATE INDEX case_interdictions_in_force_idx ON case_interdictions (tenant_id, account_number)
  WHERE status IN ('CONFIRMED', 'LIFT_REQUESTED');
CREATE INDEX case_interdictions_queue_idx ON case_interdictions (tenant_id, status, requested_at DESC, id DESC);
CREATE INDEX case_interdictions_recent_idx ON case_interdictions (tenant_id, requested_at DESC, id DESC);

-- +goose Down
DROP INDEX case_interdictions_recent_idx;
DROP INDEX case_interdictions_queue_idx;
DROP INDEX case_interdictions_in_force_idx;
UPDATE case_interdictions SET status = 'CONFIRMED' WHERE status IN ('LIFT_REQUESTED', 'LIFTED');
ALTER TABLE case_interdictions DROP COLUMN lift_reason, DROP COLUMN lift_requested_by, DROP COLUMN lift_requested_at,
  DROP COLUMN lifted_by, DROP COLUMN lifted_at;
ALTER TABLE case_interdictions DROP CONSTRAINT case_interdictions_status_check;
ALTER TABLE case_interdictions ADD CONSTRAINT case_interdictions_status_check
  CHECK (status IN ('REQUESTED', 'CONFIRMED'));
