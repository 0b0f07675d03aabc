-- +goose Up
-- Retention and archive on the partitioned tables (issue 54, docs/guide/retention.md): the
-- audit log is archived like the stored screenings, and a month's partition is dropped whole
-- once every tenant's rows in it are archived and verified, or retained: rows of a tenant whose
-- retention is longer, and rows a hold protects, are copied to <table>_retained first.

ALTER TABLE archives DROP CONSTRAINT archives_table_name_check;
ALTER TABLE archives ADD CONSTRAINT archives_table_name_check CHECK (table_name IN ('transactions', 'audit_events'));

-- The retained rows of dropped partitions: not partitioned, the parent's columns (in its order,
-- so that a partition's rows copy with SELECT *), tenant-scoped, append-only (the application
-- may read and insert; `complyd migrate` keeps UPDATE and DELETE revoked). A later migration
-- that adds a column to transactions or audit_events adds it here too and recreates the view.
CREATE TABLE transactions_retained (LIKE transactions INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE
	INCLUDING COMPRESSION);
ALTER TABLE transactions_retained ADD CONSTRAINT transactions_retained_pkey PRIMARY KEY (id, transaction_timestamp);
CREATE INDEX transactions_retained_list_idx ON transactions_retained (tenant_id, transaction_timestamp DESC, id DESC);
ALTER TABLE transactions_retained ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON transactions_retained USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
REVOKE ALL ON transactions_retained FROM complyd_app;
GRANT SELECT, INSERT ON transactions_retained TO complyd_app;

CREATE TABLE audit_events_retained (LIKE audit_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE
	INCLUDING COMPRESSION);
ALTER TABLE audit_events_retained ADD CONSTRAINT audit_events_retained_pkey PRIMARY KEY (id, created_at);
CREATE INDEX audit_events_retained_tenant_created_idx ON audit_events_retained (tenant_id, created_at DESC, id DESC);
ALTER TABLE audit_events_retained ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_events_retained USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
REVOKE ALL ON audit_events_retained FROM complyd_app;
GRANT SELECT, INSERT ON audit_events_retained TO complyd_app;

-- The reads that must still find retained rows (a transaction by id, a case's transaction and
-- evidence, a report's transactions, the audit log) read these views. security_invoker: the
-- caller's row-level security applies to both tables.
CREATE VIEW transactions_kept WITH (security_invoker = true) AS
	SELECT * FROM transactions UNION ALL SELECT * FROM transactions_retained;
CREATE VIEW audit_events_kept WITH (security_invoker = true) AS
	SELECT * FROM audit_events UNION ALL SELECT * FROM audit_events_retained;
GRANT SELECT ON transactions_kept, audit_events_kept TO complyd_app;

-- audit_event_held says whether an audit row is evidence that stays in place: the trail of a
-- case not yet resolved or named by an active legal hold, of any report (a report's
-- transactions are held whatever its status, 0047), or of an active legal hold.
-- +goose StatementBegin
CREATE FUNCTION audit_event_held(p_tenant uuid, p_type text, p_resource text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT CASE p_type
    WHEN 'case' THEN EXISTS (SELECT 1 FROM cases c WHERE c.tenant_id = p_tenant AND c.id = p_resource
                               AND c.status IN ('OPEN', 'IN_PROGRESS', 'PENDING_REVIEW', 'ESCALATED'))
                  OR EXISTS (SELECT 1 FROM legal_holds h WHERE h.tenant_id = p_tenant AND h.lifted_at IS NULL
                               AND h.subject_type = 'CASE' AND h.subject_id = p_resource)
    WHEN 'report' THEN EXISTS (SELECT 1 FROM reports r WHERE r.tenant_id = p_tenant AND r.id = p_resource)
    WHEN 'legal_hold' THEN EXISTS (SELECT 1 FROM legal_holds h WHERE h.tenant_id = p_tenant AND h.id::text = p_resource
                               AND h.lifted_at IS NULL)
    ELSE false END
$$;
-- +goose StatementEnd

-- archive_drop_month (0047, 0048) now deletes an archived tenant-month of either table, from
-- the table and from its retained rows (<table>_kept: a longer-retention tenant's rows copied
-- there by archive_drop_partition are archived once its own retention has passed): the unheld
-- rows, exactly the archived ones, as before. It is the path for months without a partition
-- of their own (rows in the default partition, or retained); a month with its own partition
-- is dropped whole by archive_drop_partition below.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION archive_drop_month(p_archive uuid) RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = public, pg_temp AS $$
DECLARE
  a archives%ROWTYPE;
  n bigint;
  r bigint;
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
  IF a.table_name = 'audit_events' THEN
    SELECT count(*), coalesce(sum(archive_id_hash(e.id)), 0) INTO n, d FROM audit_events_kept e
     WHERE e.tenant_id = a.tenant_id AND e.created_at >= a.month AND e.created_at < (a.month + interval '1 month')
       AND NOT audit_event_held(e.tenant_id, e.resource_type, e.resource_id);
    IF n <> a.row_count OR d <> a.id_digest THEN
      RAISE EXCEPTION 'archive % does not match the month''s rows (% rows now, % archived)', p_archive, n, a.row_count
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    DELETE FROM audit_events e
     WHERE e.tenant_id = a.tenant_id AND e.created_at >= a.month AND e.created_at < (a.month + interval '1 month')
       AND NOT audit_event_held(e.tenant_id, e.resource_type, e.resource_id);
    GET DIAGNOSTICS n = ROW_COUNT;
    DELETE FROM audit_events_retained e
     WHERE e.tenant_id = a.tenant_id AND e.created_at >= a.month AND e.created_at < (a.month + interval '1 month')
       AND NOT audit_event_held(e.tenant_id, e.resource_type, e.resource_id);
    GET DIAGNOSTICS r = ROW_COUNT;
    n := n + r;
  ELSE
    SELECT count(*), coalesce(sum(archive_id_hash(t.id)), 0) INTO n, d FROM transactions_kept t
     WHERE t.tenant_id = a.tenant_id AND t.transaction_timestamp >= a.month
       AND t.transaction_timestamp < (a.month + interval '1 month')
       AND NOT transaction_held(t.tenant_id, t.id, t.sender_account_number, t.receiver_account_number, t.sender_bvn, t.receiver_bvn);
    IF n <> a.row_count OR d <> a.id_digest THEN
      RAISE EXCEPTION 'archive % does not match the month''s rows (% rows now, % archived)', p_archive, n, a.row_count
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    WITH gone AS (
      DELETE FROM transactions t
       WHERE t.tenant_id = a.tenant_id AND t.transaction_timestamp >= a.month
         AND t.transaction_timestamp < (a.month + interval '1 month')
         AND NOT transaction_held(t.tenant_id, t.id, t.sender_account_number, t.receiver_account_number, t.sender_bvn, t.receiver_bvn)
      RETURNING t.tenant_id, t.external_id),
    gone_retained AS (
      DELETE FROM transactions_retained t
       WHERE t.tenant_id = a.tenant_id AND t.transaction_timestamp >= a.month
         AND t.transaction_timestamp < (a.month + interval '1 month')
         AND NOT transaction_held(t.tenant_id, t.id, t.sender_account_number, t.receiver_account_number, t.sender_bvn, t.receiver_bvn)
      RETURNING t.tenant_id, t.external_id),
    keys AS (
      DELETE FROM transaction_keys k USING (SELECT * FROM gone UNION ALL SELECT * FROM gone_retained) g
       WHERE k.tenant_id = g.tenant_id AND k.external_id = g.external_id)
    SELECT (SELECT count(*) FROM gone) + (SELECT count(*) FROM gone_retained) INTO n;
  END IF;
  UPDATE archives SET state = 'DROPPED', dropped_at = now() WHERE id = p_archive;
  RETURN n;
END
$$;
-- +goose StatementEnd

-- close_monthly_gap keeps parent's partitions covering every value after its month's
-- partition was dropped: with a default partition (here) there is nothing to do; migration
-- 0050, which replaces the default by two range partitions, redefines it.
-- +goose StatementBegin
CREATE FUNCTION close_monthly_gap(parent regclass, month date) RETURNS void LANGUAGE plpgsql
SET search_path = public, pg_temp AS $$
BEGIN
END $$;
-- +goose StatementEnd
REVOKE EXECUTE ON FUNCTION close_monthly_gap(regclass, date) FROM PUBLIC, complyd_app;

-- archive_drop_partition drops the partition of p_parent (transactions or audit_events) for the
-- UTC month p_month once every tenant's rows in it are archived and verified, or retained. Per
-- tenant with rows in it (each read with that tenant's row-level security, so it works for a
-- migration owner without BYPASSRLS):
--   past the tenant's retention: the unheld rows must be exactly a VERIFIED archive's (count and
--     id digest; the archive becomes DROPPED), or none (the archive was DROPPED by
--     archive_drop_month, or every row is held); the held rows are copied to <parent>_retained;
--   within the tenant's retention (a longer one): every row is copied to <parent>_retained.
-- Then, for transactions, the partition's idempotency keys are deleted (a retained row's
-- externalId is screened afresh if sent again, like an archived one's), and the partition is
-- detached and dropped. All of it is one transaction: a refusal (SQLSTATE 55000: a tenant's
-- rows not archived, an archive not verified or not matching, no tenant past its retention)
-- changes nothing. An empty partition is dropped as it is. DETACH PARTITION ... CONCURRENTLY cannot run in a transaction block (nor
-- while the table has a default partition), so the detach is the plain one: it takes an ACCESS
-- EXCLUSIVE lock of the parent for the catalog change, waiting for the statements running on
-- the table; lock_timeout (3 s) makes it give up rather than hold screening behind it longer.
-- Rows are kept from being added to the partition meanwhile (EXCLUSIVE lock of the partition:
-- reads go on) and holds from being placed (the lock on legal_holds). Returns one row per
-- tenant with rows in the partition.
-- +goose StatementBegin
CREATE FUNCTION archive_drop_partition(p_parent regclass, p_month date)
RETURNS TABLE (tenant uuid, archive uuid, archived bigint, retained bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET lock_timeout = '3s' AS $$
#variable_conflict use_column
DECLARE
  base text;
  child regclass;
  kept regclass;
  held text;
  m timestamptz;
  t record;
  a archives%ROWTYPE;
  past boolean;
  any_past boolean := false;
  any_rows boolean := false;
  n bigint;
  unheld bigint;
  d numeric;
  k bigint;
BEGIN
  IF p_parent = 'transactions'::regclass THEN
    base := 'transactions'; kept := 'transactions_retained'::regclass;
    held := 'transaction_held(r.tenant_id, r.id, r.sender_account_number, r.receiver_account_number, r.sender_bvn, r.receiver_bvn)';
  ELSIF p_parent = 'audit_events'::regclass THEN
    base := 'audit_events'; kept := 'audit_events_retained'::regclass;
    held := 'audit_event_held(r.tenant_id, r.resource_type, r.resource_id)';
  ELSE
    RAISE EXCEPTION 'archive_drop_partition: % is not archived by partition', p_parent USING ERRCODE = '22023';
  END IF;
  IF p_month IS NULL OR p_month <> date_trunc('month', p_month)::date
     OR p_month >= date_trunc('month', now() AT TIME ZONE 'UTC')::date THEN
    RAISE EXCEPTION 'archive_drop_partition: % is not the first day of a past month', p_month USING ERRCODE = '22023';
  END IF;
  child := to_regclass(quote_ident(base || '_p' || to_char(p_month, 'YYYYMM')));
  IF child IS NULL OR NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = child AND inhparent = p_parent) THEN
    RAISE EXCEPTION 'archive_drop_partition: % has no partition for %', p_parent, to_char(p_month, 'YYYY-MM')
      USING ERRCODE = 'no_data_found';
  END IF;
  m := p_month::timestamp AT TIME ZONE 'UTC';
  EXECUTE format('LOCK TABLE %s IN EXCLUSIVE MODE', child);
  LOCK TABLE legal_holds IN SHARE ROW EXCLUSIVE MODE;
  FOR t IN SELECT x.id FROM tenants x ORDER BY x.id LOOP
    PERFORM set_config('app.tenant_id', t.id::text, true);
    EXECUTE format('SELECT count(*) FROM %s r WHERE r.tenant_id = $1', child) INTO n USING t.id;
    CONTINUE WHEN n = 0;
    any_rows := true;
    past := m + interval '1 month' <= now() - make_interval(years => coalesce(
      (SELECT s.retention_years FROM tenant_settings s WHERE s.tenant_id = t.id), 5));
    a := NULL;
    SELECT * INTO a FROM archives x WHERE x.tenant_id = t.id AND x.table_name = base AND x.month = p_month
      AND x.state <> 'FAILED' FOR UPDATE;
    IF past THEN
      any_past := true;
      EXECUTE format('SELECT count(*), coalesce(sum(archive_id_hash(r.id)), 0) FROM %s r WHERE r.tenant_id = $1 AND NOT %s',
        child, held) INTO unheld, d USING t.id;
      IF a.id IS NULL AND unheld > 0 THEN
        RAISE EXCEPTION 'tenant %: % unheld rows of % % are not archived', t.id, unheld, base, to_char(p_month, 'YYYY-MM')
          USING ERRCODE = 'object_not_in_prerequisite_state';
      ELSIF a.state = 'WRITTEN' THEN
        RAISE EXCEPTION 'tenant %: archive % is WRITTEN, not VERIFIED', t.id, a.id USING ERRCODE = 'object_not_in_prerequisite_state';
      ELSIF a.state = 'VERIFIED' AND (unheld <> a.row_count OR d <> a.id_digest) THEN
        RAISE EXCEPTION 'tenant %: archive % does not match the month''s rows (% rows now, % archived)', t.id, a.id, unheld, a.row_count
          USING ERRCODE = 'object_not_in_prerequisite_state';
      ELSIF a.state = 'DROPPED' AND unheld > 0 THEN
        RAISE EXCEPTION 'tenant %: % unheld rows of % % arrived after archive % was dropped', t.id, unheld, base,
          to_char(p_month, 'YYYY-MM'), a.id USING ERRCODE = 'object_not_in_prerequisite_state';
      END IF;
      EXECUTE format('INSERT INTO %s SELECT r.* FROM %s r WHERE r.tenant_id = $1 AND %s', kept, child, held) USING t.id;
    ELSE
      unheld := 0;
      EXECUTE format('INSERT INTO %s SELECT r.* FROM %s r WHERE r.tenant_id = $1', kept, child) USING t.id;
    END IF;
    GET DIAGNOSTICS k = ROW_COUNT;
    IF base = 'transactions' THEN
      EXECUTE format('DELETE FROM transaction_keys k USING %s p WHERE k.tenant_id = $1 AND p.tenant_id = $1
        AND k.external_id = p.external_id AND k.transaction_id = p.id', child) USING t.id;
    END IF;
    IF a.state = 'VERIFIED' THEN
      UPDATE archives x SET state = 'DROPPED', dropped_at = now() WHERE x.id = a.id;
    END IF;
    tenant := t.id;
    archive := CASE WHEN a.state = 'VERIFIED' THEN a.id END;
    archived := CASE WHEN a.state = 'VERIFIED' THEN unheld ELSE 0 END;
    retained := k;
    RETURN NEXT;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
  IF any_rows AND NOT any_past THEN
    RAISE EXCEPTION 'archive_drop_partition: no tenant''s rows in % % are past its retention', base, to_char(p_month, 'YYYY-MM')
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', p_parent, child);
  EXECUTE format('DROP TABLE %s', child);
  PERFORM close_monthly_gap(p_parent, p_month);
END $$;
-- +goose StatementEnd
REVOKE EXECUTE ON FUNCTION archive_drop_partition(regclass, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION archive_drop_partition(regclass, date) TO complyd_app;

-- +goose Down
DROP FUNCTION archive_drop_partition(regclass, date);
DROP FUNCTION close_monthly_gap(regclass, date);
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION archive_drop_month(p_archive uuid) RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
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
  WITH gone AS (
    DELETE FROM transactions t
     WHERE t.tenant_id = a.tenant_id AND t.transaction_timestamp >= a.month
       AND t.transaction_timestamp < (a.month + interval '1 month')
       AND NOT transaction_held(t.tenant_id, t.id, t.sender_account_number, t.receiver_account_number, t.sender_bvn, t.receiver_bvn)
    RETURNING t.tenant_id, t.external_id),
  keys AS (
    DELETE FROM transaction_keys k USING gone g WHERE k.tenant_id = g.tenant_id AND k.external_id = g.external_id)
  SELECT count(*) INTO n FROM gone;
  UPDATE archives SET state = 'DROPPED', dropped_at = now() WHERE id = p_archive;
  RETURN n;
END
$$;
-- +goose StatementEnd
DROP FUNCTION audit_event_held(uuid, text, text);
DROP VIEW audit_events_kept;
DROP VIEW transactions_kept;
DROP TABLE audit_events_retained;
DROP TABLE transactions_retained;
DELETE FROM archive_restored_rows r USING archives a WHERE a.id = r.archive_id AND a.table_name = 'audit_events';
DELETE FROM archives WHERE table_name = 'audit_events';
ALTER TABLE archives DROP CONSTRAINT archives_table_name_check;
ALTER TABLE archives ADD CONSTRAINT archives_table_name_check CHECK (table_name IN ('transactions'));
