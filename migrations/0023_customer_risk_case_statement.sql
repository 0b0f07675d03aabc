-- +goose Up
-- Cases opened queue their customer's risk recomputation once per statement, not once per row
-- (issue 15, docs/guide/customers.md). The screening commit opens a batch's automatic cases in
-- multi-row inserts; 0017's row trigger ran a plpgsql call and a join per case there, about 37 us
-- of PostgreSQL per case-opening screening (pg_stat_user_functions, `just bench-screening`).
-- This one joins the statement's new cases once, like 0017's trigger on transactions. The
-- transaction is found by its primary key: related_transaction_id is text, and 0017 compared
-- t.id::text with it, which no index serves; a value that is not a UUID matches no transaction.
-- Status changes stay per row (an officer changes one case at a time), with the same fix.
-- +goose StatementBegin
CREATE FUNCTION customer_risk_queue_cases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_risk_queue (tenant_id, customer_id, reason)
  SELECT DISTINCT ON (q.tenant_id, q.customer_id) q.tenant_id, q.customer_id, q.reason FROM (
    SELECT p.tenant_id, p.id AS customer_id, 'CASE_' || n.status AS reason FROM (
      -- The UUID is computed before the join (OFFSET 0): under row-level security a join
      -- condition that calls a function not marked leakproof (the regex, the cast) is a filter
      -- applied after the policy, never an index condition, and every statement would scan the
      -- tenant's transactions (37 ms a statement at 50,000 rows, against 0.1 ms this way).
      SELECT n.tenant_id, n.status, CASE
        WHEN n.related_transaction_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        THEN n.related_transaction_id::uuid END AS tid
      FROM new_rows n WHERE n.related_transaction_id IS NOT NULL OFFSET 0) n
    JOIN transactions t ON t.tenant_id = n.tenant_id AND t.id = n.tid
    JOIN customer_profiles p ON p.tenant_id = t.tenant_id AND p.bvn = t.sender_bvn AND p.bvn <> ''
    UNION ALL
    SELECT r.tenant_id, r.customer_id, 'CASE_' || n.status FROM new_rows n
    JOIN kyc_applications k ON k.tenant_id = n.tenant_id AND k.id = n.related_kyc_application_id
    JOIN customer_risk r ON r.tenant_id = k.tenant_id AND r.bvn_hash = k.bvn_hash
    WHERE n.related_kyc_application_id IS NOT NULL
  ) q
  ORDER BY q.tenant_id, q.customer_id, q.reason
  ON CONFLICT (tenant_id, customer_id) DO NOTHING;
  RETURN NULL;
END
$$;
-- +goose StatementEnd
-- A case's status changed (per row, an officer's change): the same lookup by primary key. 0017's
-- body compared t.id::text, so under row-level security every status change scanned the
-- tenant's transactions.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION customer_risk_queue_case() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tid uuid;
BEGIN
  IF NEW.related_transaction_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    tid := NEW.related_transaction_id::uuid;
  END IF;
  INSERT INTO customer_risk_queue (tenant_id, customer_id, reason)
  SELECT p.tenant_id, p.id, 'CASE_' || NEW.status FROM transactions t
  JOIN customer_profiles p ON p.tenant_id = t.tenant_id AND p.bvn = t.sender_bvn AND p.bvn <> ''
  WHERE tid IS NOT NULL AND t.tenant_id = NEW.tenant_id AND t.id = tid
  UNION
  SELECT r.tenant_id, r.customer_id, 'CASE_' || NEW.status FROM kyc_applications k
  JOIN customer_risk r ON r.tenant_id = k.tenant_id AND r.bvn_hash = k.bvn_hash
  WHERE NEW.related_kyc_application_id IS NOT NULL AND k.tenant_id = NEW.tenant_id
    AND k.id = NEW.related_kyc_application_id
  ON CONFLICT (tenant_id, customer_id) DO NOTHING;
  RETURN NULL;
END
$$;
-- +goose StatementEnd
DROP TRIGGER customer_risk_case_insert ON cases;
CREATE TRIGGER customer_risk_case_insert AFTER INSERT ON cases
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_risk_queue_cases();

-- +goose Down
DROP TRIGGER customer_risk_case_insert ON cases;
CREATE TRIGGER customer_risk_case_insert AFTER INSERT ON cases
  FOR EACH ROW EXECUTE FUNCTION customer_risk_queue_case();
DROP FUNCTION customer_risk_queue_cases();
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION customer_risk_queue_case() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_risk_queue (tenant_id, customer_id, reason)
  SELECT p.tenant_id, p.id, 'CASE_' || NEW.status FROM transactions t
  JOIN customer_profiles p ON p.tenant_id = t.tenant_id AND p.bvn = t.sender_bvn AND p.bvn <> ''
  WHERE NEW.related_transaction_id IS NOT NULL AND t.tenant_id = NEW.tenant_id
    AND t.id::text = NEW.related_transaction_id
  UNION
  SELECT r.tenant_id, r.customer_id, 'CASE_' || NEW.status FROM kyc_applications k
  JOIN customer_risk r ON r.tenant_id = k.tenant_id AND r.bvn_hash = k.bvn_hash
  WHERE NEW.related_kyc_application_id IS NOT NULL AND k.tenant_id = NEW.tenant_id
    AND k.id = NEW.related_kyc_application_id
  ON CONFLICT (tenant_id, customer_id) DO NOTHING;
  RETURN NULL;
END
$$;
-- +goose StatementEnd
