-- +goose Up
-- Retention and archive (issue 54 point 3, docs/guide/retention.md): a tenant's retention
-- period, the archives of its tenant-months of stored screenings written to the object store,
-- the legal holds that keep evidence in place, and the examiner's copy of restored rows.

-- retention_years: how long a tenant's stored screenings stay in the database before the
-- archiver may export and drop them. Never below five years (the law's minimum).
ALTER TABLE tenant_settings ADD COLUMN retention_years integer NOT NULL DEFAULT 5
  CONSTRAINT tenant_settings_retention_years_check CHECK (retention_years BETWEEN 5 AND 100);

-- archives: one tenant-month of one table exported to the object store. state:
--   WRITTEN  objects and manifest written, not yet read back;
--   VERIFIED every object read back, its SHA-256, row count and id digest as the manifest says;
--   FAILED   a verification failed (failure says why): nothing may be dropped;
--   DROPPED  the archived rows were deleted from the table (archive_drop_month).
-- id_digest is the sum over the archived rows of the first 60 bits of md5(id::text): what
-- archive_drop_month compares with the rows it is about to delete.
CREATE TABLE archives (
  id            uuid PRIMARY KEY,
  tenant_id     uuid NOT NULL REFERENCES tenants (id),
  table_name    text NOT NULL CHECK (table_name IN ('transactions')),
  month         date NOT NULL CHECK (extract(day FROM month) = 1),
  prefix        text NOT NULL,
  data_key      text NOT NULL,
  manifest_key  text NOT NULL,
  row_count     bigint NOT NULL,
  held_rows     bigint NOT NULL DEFAULT 0,
  byte_size     bigint NOT NULL,
  sha256        text NOT NULL,
  id_digest     numeric NOT NULL,
  state         text NOT NULL CHECK (state IN ('WRITTEN', 'VERIFIED', 'FAILED', 'DROPPED')),
  failure       text,
  created_at    timestamptz NOT NULL,
  verified_at   timestamptz,
  dropped_at    timestamptz,
  restored_at   timestamptz,
  restored_rows bigint
);
-- One live archive per tenant, table and month; a FAILED one may be redone.
CREATE UNIQUE INDEX archives_tenant_table_month_key ON archives (tenant_id, table_name, month) WHERE state <> 'FAILED';
CREATE INDEX archives_tenant_created_idx ON archives (tenant_id, month DESC, id);
ALTER TABLE archives ENABLE ROW LEVEL SECURITY;
ALTER TABLE archives FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON archives USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());

-- legal_holds keep a subject's evidence in the database whatever its age: an ACCOUNT (sender
-- or receiver account number), a CUSTOMER (sender or receiver BVN), a CASE (its transaction)
-- or a TRANSACTION (its id). A hold is active until lifted.
CREATE TABLE legal_holds (
  id           uuid PRIMARY KEY,
  tenant_id    uuid NOT NULL REFERENCES tenants (id),
  subject_type text NOT NULL CHECK (subject_type IN ('ACCOUNT', 'CUSTOMER', 'CASE', 'TRANSACTION')),
  subject_id   text NOT NULL CHECK (subject_id <> ''),
  reason       text NOT NULL CHECK (reason <> ''),
  placed_by    text NOT NULL,
  placed_at    timestamptz NOT NULL,
  lifted_by    text,
  lifted_at    timestamptz,
  lift_reason  text
);
CREATE INDEX legal_holds_active_idx ON legal_holds (tenant_id, subject_type, subject_id) WHERE lifted_at IS NULL;
CREATE INDEX legal_holds_tenant_placed_idx ON legal_holds (tenant_id, placed_at DESC, id);
ALTER TABLE legal_holds ENABLE ROW LEVEL SECURITY;
ALTER TABLE legal_holds FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON legal_holds USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());

-- archive_restored_rows is the examiner's copy of a restored archive: the rows as the archive
-- holds them (one JSON object per row), readable by the tenant, never changed by the
-- application (UPDATE and DELETE revoked; `complyd migrate` keeps them revoked).
CREATE TABLE archive_restored_rows (
  tenant_id  uuid NOT NULL,
  archive_id uuid NOT NULL REFERENCES archives (id),
  row_number bigint NOT NULL,
  row        jsonb NOT NULL,
  PRIMARY KEY (archive_id, row_number)
);
ALTER TABLE archive_restored_rows ENABLE ROW LEVEL SECURITY;
ALTER TABLE archive_restored_rows FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON archive_restored_rows USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
REVOKE UPDATE, DELETE ON archive_restored_rows FROM complyd_app;

-- transaction_held says whether a stored screening is evidence that must stay in place: the
-- transaction of a case not yet resolved, a transaction a report covers, or one an active
-- legal hold names (by its account, its customer's BVN, its case or itself). Read with the
-- caller's row-level security (the tenant's own cases, reports and holds).
-- +goose StatementBegin
CREATE FUNCTION transaction_held(p_tenant uuid, p_id uuid, p_sender text, p_receiver text,
  p_sender_bvn text, p_receiver_bvn text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM cases c WHERE c.tenant_id = p_tenant AND c.related_transaction_id = p_id::text
                   AND c.status IN ('OPEN', 'IN_PROGRESS', 'PENDING_REVIEW', 'ESCALATED'))
      OR EXISTS (SELECT 1 FROM report_transactions r WHERE r.tenant_id = p_tenant AND r.transaction_id = p_id)
      OR EXISTS (SELECT 1 FROM legal_holds h WHERE h.tenant_id = p_tenant AND h.lifted_at IS NULL AND (
                   (h.subject_type = 'ACCOUNT' AND h.subject_id IN (p_sender, p_receiver))
                OR (h.subject_type = 'CUSTOMER' AND h.subject_id IN (p_sender_bvn, p_receiver_bvn))
                OR (h.subject_type = 'TRANSACTION' AND h.subject_id = p_id::text)
                OR (h.subject_type = 'CASE' AND EXISTS (SELECT 1 FROM cases c WHERE c.tenant_id = p_tenant
                      AND c.id = h.subject_id AND c.related_transaction_id = p_id::text))))
$$;
-- +goose StatementEnd

-- archive_id_hash is one row's share of an archive's id_digest (the Go archiver computes the
-- same from the rows it reads back from the object store).
-- +goose StatementBegin
CREATE FUNCTION archive_id_hash(p_id uuid) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT (('x' || substr(md5(p_id::text), 1, 15))::bit(60)::bigint)::numeric
$$;
-- +goose StatementEnd

-- archive_drop_month deletes the rows of a VERIFIED archive from the append-only table, as the
-- migration owner (the application role has no DELETE on it), and marks the archive DROPPED.
-- It refuses unless the month ended more than the tenant's retention ago, the archive belongs to the caller's tenant (app.tenant_id), is VERIFIED,
-- and the month's rows that no hold protects are exactly the archived ones (same count, same
-- id digest): a row screened into the month since, or a hold placed since, stops the drop.
-- Holds cannot be placed while it runs (the lock on legal_holds); held rows are never deleted.
-- +goose StatementBegin
CREATE FUNCTION archive_drop_month(p_archive uuid) RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp AS $$
DECLARE
  a archives%ROWTYPE;
  n bigint;
  d numeric;
BEGIN
  SELECT * INTO a FROM archives WHERE id = p_archive FOR UPDATE;
  IF NOT FOUND OR a.tenant_id IS DISTINCT FROM app_tenant() THEN
    RAISE EXCEPTION 'archive % not found', p_archive USING ERRCODE = 'no_data_found';
  END IF;
  IF a.state <> 'VERIFIED' THEN
    RAISE EXCEPTION 'archive % is %, not VERIFIED', p_archive, a.state USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  IF a.month + interval '1 month' > now() - make_interval(years => coalesce(
       (SELECT retention_years FROM tenant_settings WHERE tenant_id = a.tenant_id), 5)) THEN
    RAISE EXCEPTION 'archive % is of % months, within the tenant''s retention', p_archive, a.month
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  LOCK TABLE legal_holds IN SHARE ROW EXCLUSIVE MODE;
  SELECT count(*), coalesce(sum(archive_id_hash(t.id)), 0) INTO n, d FROM transactions t
   WHERE t.tenant_id = a.tenant_id AND t.transaction_timestamp >= a.month
     AND t.transaction_timestamp < (a.month + interval '1 month')
     AND NOT transaction_held(t.tenant_id, t.id, t.sender_account_number, t.receiver_account_number, t.sender_bvn, t.receiver_bvn);
  IF n <> a.row_count OR d <> a.id_digest THEN
    RAISE EXCEPTION 'archive % does not match the month''s rows (% rows now, % archived)', p_archive, n, a.row_count
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  DELETE FROM transactions t
   WHERE t.tenant_id = a.tenant_id AND t.transaction_timestamp >= a.month
     AND t.transaction_timestamp < (a.month + interval '1 month')
     AND NOT transaction_held(t.tenant_id, t.id, t.sender_account_number, t.receiver_account_number, t.sender_bvn, t.receiver_bvn);
  GET DIAGNOSTICS n = ROW_COUNT;
  UPDATE archives SET state = 'DROPPED', dropped_at = now() WHERE id = p_archive;
  RETURN n;
END
$$;
-- +goose StatementEnd
REVOKE EXECUTE ON FUNCTION archive_drop_month(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION archive_drop_month(uuid) TO complyd_app;

-- +goose Down
DROP FUNCTION archive_drop_month(uuid);
DROP FUNCTION archive_id_hash(uuid);
DROP FUNCTION transaction_held(uuid, uuid, text, text, text, text);
DROP TABLE archive_restored_rows;
DROP TABLE legal_holds;
DROP TABLE archives;
ALTER TABLE tenant_settings DROP COLUMN retention_years;
