-- +goose Up
-- Issue 48: controls that cannot be bypassed.
--
-- The tenant's case control (docs/guide/cases.md "Four eyes"): every resolution goes through a
-- proposal approved by a second officer. Off by default, as the spec's PATCH /cases/:id/status
-- resolves directly; `complyd dev` turns it on for its demo tenant.
ALTER TABLE tenant_settings ADD COLUMN four_eyes_resolution boolean NOT NULL DEFAULT false;

-- Four eyes on a report counts everyone who changed it (docs/guide/reports.md "Four eyes"): whoever
-- drafted it, edited a field or submitted it. Existing reports get their contributors from
-- their own timeline (CREATED, UPDATED, SUBMITTED events) and the preparer and submitter
-- columns. The table's RLS is forced and the backfill runs with no tenant set: the owner lifts
-- the force for this statement and puts it back (as 0011 does; a superuser bypasses RLS anyway).
ALTER TABLE reports ADD COLUMN contributors uuid[] NOT NULL DEFAULT '{}';
ALTER TABLE reports NO FORCE ROW LEVEL SECURITY;
ALTER TABLE report_events NO FORCE ROW LEVEL SECURITY;
UPDATE reports r SET contributors = ARRAY(
  SELECT DISTINCT u FROM (
    SELECT r.prepared_by AS u
    UNION ALL SELECT r.submitted_by
    UNION ALL SELECT e.actor_id FROM report_events e
      WHERE e.tenant_id = r.tenant_id AND e.report_id = r.id AND e.action IN ('CREATED', 'UPDATED', 'SUBMITTED')
  ) x WHERE u IS NOT NULL ORDER BY u);
ALTER TABLE reports FORCE ROW LEVEL SECURITY;
ALTER TABLE report_events FORCE ROW LEVEL SECURITY;

-- A report is never filed twice (docs/guide/reports.md "Filing"): a filing over HTTP first claims the
-- report (APPROVED -> FILING, a conditional UPDATE), then sends it with the idempotency key
-- <report id>-<attempt>. An answer that cannot be used (a 5xx, a timeout, a reference over 255
-- characters) leaves FILING_FAILED with what the endpoint said; a retry claims it again and
-- re-sends with the same key (the attempt only grows once the endpoint has refused the key).
ALTER TABLE reports DROP CONSTRAINT reports_status_check;
ALTER TABLE reports ADD CONSTRAINT reports_status_check
  CHECK (status IN ('DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'FILING', 'FILING_FAILED', 'FILED'));
ALTER TABLE reports
  ADD COLUMN filing_attempt     integer NOT NULL DEFAULT 0,
  ADD COLUMN filing_claimed_at  timestamptz,
  ADD COLUMN filing_answer      jsonb;

-- A direct lookup answered by the sandbox outside `complyd dev` is free (wallet.Paid waives it):
-- it has no wallet hold, so its lookup row has no hold_id (issue 48 point 7a: the empty id made
-- these lookups 500). UNIQUE still guards every charged lookup's hold.
ALTER TABLE lookups ALTER COLUMN hold_id DROP NOT NULL;

-- +goose Down
DELETE FROM lookups WHERE hold_id IS NULL;
ALTER TABLE lookups ALTER COLUMN hold_id SET NOT NULL;
ALTER TABLE reports DROP COLUMN filing_attempt, DROP COLUMN filing_claimed_at, DROP COLUMN filing_answer;
UPDATE reports SET status = 'APPROVED' WHERE status IN ('FILING', 'FILING_FAILED');
ALTER TABLE reports DROP CONSTRAINT reports_status_check;
ALTER TABLE reports ADD CONSTRAINT reports_status_check CHECK (status IN ('DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'FILED'));
ALTER TABLE reports DROP COLUMN contributors;
ALTER TABLE tenant_settings DROP COLUMN four_eyes_resolution;
