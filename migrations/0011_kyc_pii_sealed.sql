-- +goose Up
-- Personal data of KYC applicants at rest (issue 19 point 5; docs/guide/kyc.md "What is stored";
-- NDPA 2023).
--
-- 1. BVN and NIN are sealed (AES-256-GCM under COMPLYD_CREDENTIALS_KEY) with a keyed lookup hash
--    (HMAC-SHA256 under a key derived from it) for equality lookups; internal/postgres/kyc_pii.go.
--    SQL cannot seal (the key never reaches the database), so this migration only adds the
--    columns: the Go step postgres.(*DB).SealKYCIdentifiers, run by `complyd migrate`, `serve` and
--    `dev` right after the migrations, seals the numbers existing rows hold in bvn and nin and
--    empties those columns. New writes never fill them.
ALTER TABLE kyc_applications
  ADD COLUMN bvn_sealed bytea,
  ADD COLUMN bvn_hash   bytea,
  ADD COLUMN nin_sealed bytea,
  ADD COLUMN nin_hash   bytea;

-- Screening's stored-KYC lookup by the sender's BVN (prefetchSQL) now compares hashes; the index
-- on the plaintext goes with it.
DROP INDEX kyc_applications_tenant_bvn_idx;
CREATE INDEX kyc_applications_tenant_bvn_hash_idx ON kyc_applications (tenant_id, bvn_hash, created_at DESC)
  WHERE bvn_hash IS NOT NULL;
CREATE INDEX kyc_applications_tenant_nin_hash_idx ON kyc_applications (tenant_id, nin_hash)
  WHERE nin_hash IS NOT NULL;
-- The rows the Go step still has to seal: empty once it has run, so its check at every start
-- costs one probe per tenant.
CREATE INDEX kyc_applications_plaintext_idx ON kyc_applications (tenant_id)
  WHERE bvn <> '' OR nin <> '';

-- 2. The audit log's KYC snapshots written so far carry the full BVN, NIN, email, phone and date
--    of birth. They are rewritten to what the service now records (internal/kyc snapshot,
--    internal/audit/mask.go; keep the two in step): BVN, NIN and phone masked to their last
--    four characters, email to its first character and domain, the date of birth replaced by
--    hasDateOfBirth. Nothing else in a record changes (who, when, action, status, tier, flags).
--    audit_events is append-only by design: no store ever updates or deletes a row, and no
--    trigger enforces it in this schema (0001 grants the application role UPDATE like every
--    table). This scrub is the one sanctioned rewrite; if an immutability trigger is added
--    later, a migration like this one must disable it for its UPDATE and re-enable it after,
--    saying so.
-- +goose StatementBegin
CREATE FUNCTION pg_temp.complyd_mask_tail(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN length(v) <= 4 THEN repeat('*', length(v))
              ELSE repeat('*', length(v) - 4) || right(v, 4) END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION pg_temp.complyd_mask_email(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN v = '' THEN ''
              WHEN v !~ '.@[^@]+$' THEN '***'
              ELSE left(v, 1) || '***@' || substring(v FROM '@([^@]*)$') END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION pg_temp.complyd_scrub_kyc(j jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
BEGIN
  IF j IS NULL OR jsonb_typeof(j) <> 'object' THEN
    RETURN j;
  END IF;
  FOREACH k IN ARRAY ARRAY['bvn', 'nin', 'phone'] LOOP
    IF jsonb_typeof(j -> k) = 'string' THEN
      j := jsonb_set(j, ARRAY[k], to_jsonb(pg_temp.complyd_mask_tail(j ->> k)));
    END IF;
  END LOOP;
  IF jsonb_typeof(j -> 'email') = 'string' THEN
    j := jsonb_set(j, '{email}', to_jsonb(pg_temp.complyd_mask_email(j ->> 'email')));
  END IF;
  -- A full snapshot (it has the bvn key) says whether there is a date of birth; the date goes.
  IF j ? 'bvn' THEN
    j := j || jsonb_build_object('hasDateOfBirth', j ? 'dateOfBirth');
  END IF;
  RETURN j - 'dateOfBirth';
END
$$;
-- +goose StatementEnd

-- Row-level security is forced on audit_events, so for a migrating user that owns the table
-- but is not a superuser the UPDATE would see no row (no tenant is set) and scrub nothing. The
-- owner lifts the force for this one statement, inside the migration's transaction, and puts it
-- back right after (a superuser bypasses RLS either way).
ALTER TABLE audit_events NO FORCE ROW LEVEL SECURITY;
UPDATE audit_events
SET before = pg_temp.complyd_scrub_kyc(before),
    after  = pg_temp.complyd_scrub_kyc(after)
WHERE resource_type = 'kyc_application'
  AND (before ?| ARRAY['bvn', 'nin', 'email', 'phone', 'dateOfBirth']
    OR after ?| ARRAY['bvn', 'nin', 'email', 'phone', 'dateOfBirth']);
ALTER TABLE audit_events FORCE ROW LEVEL SECURITY;

DROP FUNCTION pg_temp.complyd_scrub_kyc(jsonb);
DROP FUNCTION pg_temp.complyd_mask_email(text);
DROP FUNCTION pg_temp.complyd_mask_tail(text);

-- +goose Down
-- The audit scrub cannot be undone (the values are gone), and sealed numbers are not moved back
-- into clear: going down keeps the sealed columns' data unreadable to the old code, so refuse.
ALTER TABLE kyc_applications NO FORCE ROW LEVEL SECURITY;
-- +goose StatementBegin
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM kyc_applications WHERE bvn_sealed IS NOT NULL OR nin_sealed IS NOT NULL) THEN
    RAISE EXCEPTION '0011_kyc_pii_sealed: sealed BVNs/NINs exist; the old schema would lose them';
  END IF;
END
$$;
-- +goose StatementEnd
ALTER TABLE kyc_applications FORCE ROW LEVEL SECURITY;
DROP INDEX kyc_applications_plaintext_idx;
DROP INDEX kyc_applications_tenant_nin_hash_idx;
DROP INDEX kyc_applications_tenant_bvn_hash_idx;
CREATE INDEX kyc_applications_tenant_bvn_idx ON kyc_applications (tenant_id, bvn, created_at DESC) WHERE bvn <> '';
ALTER TABLE kyc_applications
  DROP COLUMN bvn_sealed,
  DROP COLUMN bvn_hash,
  DROP COLUMN nin_sealed,
  DROP COLUMN nin_hash;
