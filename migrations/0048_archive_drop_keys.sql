-- archive_drop_month (0047) deleted a dropped month's rows but left their idempotency keys in
-- transaction_keys (0043), so a resent externalId of a dropped row was refused as a duplicate of a
-- row that no longer exists (TestArchiveVerifyDropRestore). The keys now go with their rows, as
-- drop_monthly_partition already does for a whole partition: after retention, an externalId is
-- screened afresh.

-- +goose Up
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

-- +goose Down
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
