-- +goose Up
-- The dashboard's aggregates (issue 17, docs/guide/dashboard.md "Overview API").
--
-- Screenings are counted in rollups kept by the screening commit: one upsert per group commit
-- adds the batch's counts per hour, outcome and risk level, and per hour and triggered rule. A live
-- count over the transactions table cannot answer in 200 ms once a tenant holds millions of
-- rows, and the triggered rules live inside engine_verdicts (jsonb), which no index serves.
--
-- shard spreads one hour's counts of a tenant over a few rows: concurrent group commits (several
-- committers, several replicas) pick different shards and do not queue on one hot row; readers
-- sum the shards. Buckets are UTC hours of the transaction's own timestamp (transaction_timestamp),
-- the time the transactions list filters on, so a chart's bar and the list it links to agree.
CREATE TABLE screening_rollups (
  tenant_id  uuid NOT NULL,
  bucket     timestamptz NOT NULL,
  shard      smallint NOT NULL,
  outcome    text NOT NULL,
  risk_level text NOT NULL,
  screenings bigint NOT NULL,
  PRIMARY KEY (tenant_id, bucket, outcome, risk_level, shard)
);

-- screening_rule_rollups count triggered rules per UTC day (bucket is a day's start): the top
-- rules have no series, and a quarter is then 90 rows per rule and shard.
CREATE TABLE screening_rule_rollups (
  tenant_id uuid NOT NULL,
  bucket    timestamptz NOT NULL,
  shard     smallint NOT NULL,
  rule_id   text NOT NULL,
  rule_name text NOT NULL,
  hits      bigint NOT NULL,
  PRIMARY KEY (tenant_id, bucket, rule_id, shard)
);

-- Live aggregates over the other tables, each served by an index of the period it reads.
-- Automatic cases (created_by is null) opened and closed per bucket.
CREATE INDEX cases_auto_created_idx ON cases (tenant_id, created_at) WHERE created_by IS NULL;
CREATE INDEX cases_auto_resolved_idx ON cases (tenant_id, resolved_at) WHERE created_by IS NULL AND resolved_at IS NOT NULL;
-- Open cases by priority and age, and the oldest of them.
CREATE INDEX cases_open_age_idx ON cases (tenant_id, created_at) INCLUDE (priority)
  WHERE status IN ('OPEN', 'IN_PROGRESS', 'PENDING_REVIEW', 'ESCALATED');
-- Sanctions hits (SANCTIONS_HIT cases) and their review outcome.
CREATE INDEX cases_tenant_type_created_idx ON cases (tenant_id, type, created_at) INCLUDE (status);
-- Wallet spend per bucket.
CREATE INDEX wallet_ledger_tenant_created_idx ON wallet_ledger (tenant_id, created_at) INCLUDE (type, amount);
-- Webhook delivery success per period.
CREATE INDEX webhook_deliveries_tenant_created_status_idx ON webhook_deliveries (tenant_id, created_at) INCLUDE (status);

-- Screenings stored before this migration are counted once, here. Row-level security is forced on
-- transactions, so an owner that is not a superuser would read no row (no tenant is set): the force
-- is lifted for these statements, inside the migration's transaction (as 0011 does).
ALTER TABLE transactions NO FORCE ROW LEVEL SECURITY;
INSERT INTO screening_rollups (tenant_id, bucket, shard, outcome, risk_level, screenings)
SELECT tenant_id, date_trunc('hour', transaction_timestamp, 'UTC'), 0, outcome, risk_level, count(*)
FROM transactions GROUP BY 1, 2, 4, 5;

INSERT INTO screening_rule_rollups (tenant_id, bucket, shard, rule_id, rule_name, hits)
SELECT t.tenant_id, date_trunc('day', t.transaction_timestamp, 'UTC'), 0, r->>'id', max(r->>'name'), count(*)
FROM transactions t, jsonb_array_elements(t.engine_verdicts) v, jsonb_array_elements(coalesce(v->'rules', '[]')) r
WHERE r->>'id' IS NOT NULL
GROUP BY 1, 2, 4;
ALTER TABLE transactions FORCE ROW LEVEL SECURITY;

-- status_rollups count rows of a kind (webhook_delivery, kyc, kyb) per UTC hour of their
-- created_at and their status now: a quarter of a bank's webhook deliveries is millions of rows,
-- too many to count live in 200 ms. Statement-level triggers keep them, one upsert per statement
-- (from its transition table) whatever the rows it touched: an insert adds, a status change moves
-- the count from the old status to the new, a delete (the dead-letter purge) subtracts. The
-- shard is random per statement, so concurrent writers of one tenant's hour rarely queue on one
-- row; readers sum the shards.
CREATE TABLE status_rollups (
  tenant_id uuid NOT NULL,
  kind      text NOT NULL,
  bucket    timestamptz NOT NULL,
  status    text NOT NULL,
  shard     smallint NOT NULL,
  n         bigint NOT NULL,
  PRIMARY KEY (tenant_id, kind, bucket, status, shard)
);

-- +goose StatementBegin
CREATE FUNCTION status_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sh smallint := floor(random() * 4)::smallint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO status_rollups (tenant_id, kind, bucket, status, shard, n)
    SELECT tenant_id, TG_ARGV[0], date_trunc('hour', created_at, 'UTC') AS b, status, sh, count(*)
    FROM new_rows GROUP BY tenant_id, b, status ORDER BY tenant_id, b, status
    ON CONFLICT (tenant_id, kind, bucket, status, shard) DO UPDATE SET n = status_rollups.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO status_rollups (tenant_id, kind, bucket, status, shard, n)
    SELECT tenant_id, TG_ARGV[0], b, status, sh, sum(d) FROM (
      SELECT o.tenant_id, date_trunc('hour', o.created_at, 'UTC') AS b, o.status, -1 AS d
      FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status IS DISTINCT FROM o.status
      UNION ALL
      SELECT n.tenant_id, date_trunc('hour', n.created_at, 'UTC'), n.status, 1
      FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status IS DISTINCT FROM o.status) c
    GROUP BY tenant_id, b, status HAVING sum(d) <> 0 ORDER BY tenant_id, b, status
    ON CONFLICT (tenant_id, kind, bucket, status, shard) DO UPDATE SET n = status_rollups.n + excluded.n;
  ELSE
    INSERT INTO status_rollups (tenant_id, kind, bucket, status, shard, n)
    SELECT tenant_id, TG_ARGV[0], date_trunc('hour', created_at, 'UTC') AS b, status, sh, -count(*)
    FROM old_rows GROUP BY tenant_id, b, status ORDER BY tenant_id, b, status
    ON CONFLICT (tenant_id, kind, bucket, status, shard) DO UPDATE SET n = status_rollups.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER webhook_deliveries_rollup_ins AFTER INSERT ON webhook_deliveries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('webhook_delivery');
CREATE TRIGGER webhook_deliveries_rollup_upd AFTER UPDATE ON webhook_deliveries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('webhook_delivery');
CREATE TRIGGER webhook_deliveries_rollup_del AFTER DELETE ON webhook_deliveries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('webhook_delivery');
CREATE TRIGGER kyc_applications_rollup_ins AFTER INSERT ON kyc_applications REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('kyc');
CREATE TRIGGER kyc_applications_rollup_upd AFTER UPDATE ON kyc_applications REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('kyc');
CREATE TRIGGER kyc_applications_rollup_del AFTER DELETE ON kyc_applications REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('kyc');
CREATE TRIGGER kyb_applications_rollup_ins AFTER INSERT ON kyb_applications REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('kyb');
CREATE TRIGGER kyb_applications_rollup_upd AFTER UPDATE ON kyb_applications REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('kyb');
CREATE TRIGGER kyb_applications_rollup_del AFTER DELETE ON kyb_applications REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION status_rollup_apply('kyb');

-- Rows stored before this migration are counted once, here (row-level security lifted as above).
ALTER TABLE webhook_deliveries NO FORCE ROW LEVEL SECURITY;
ALTER TABLE kyc_applications NO FORCE ROW LEVEL SECURITY;
ALTER TABLE kyb_applications NO FORCE ROW LEVEL SECURITY;
INSERT INTO status_rollups (tenant_id, kind, bucket, status, shard, n)
SELECT tenant_id, 'webhook_delivery', date_trunc('hour', created_at, 'UTC'), status, 0, count(*) FROM webhook_deliveries GROUP BY 1, 3, 4
UNION ALL
SELECT tenant_id, 'kyc', date_trunc('hour', created_at, 'UTC'), status, 0, count(*) FROM kyc_applications GROUP BY 1, 3, 4
UNION ALL
SELECT tenant_id, 'kyb', date_trunc('hour', created_at, 'UTC'), status, 0, count(*) FROM kyb_applications GROUP BY 1, 3, 4;
ALTER TABLE webhook_deliveries FORCE ROW LEVEL SECURITY;
ALTER TABLE kyc_applications FORCE ROW LEVEL SECURITY;
ALTER TABLE kyb_applications FORCE ROW LEVEL SECURITY;

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['screening_rollups', 'screening_rule_rollups', 'status_rollups'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER webhook_deliveries_rollup_ins ON webhook_deliveries;
DROP TRIGGER webhook_deliveries_rollup_upd ON webhook_deliveries;
DROP TRIGGER webhook_deliveries_rollup_del ON webhook_deliveries;
DROP TRIGGER kyc_applications_rollup_ins ON kyc_applications;
DROP TRIGGER kyc_applications_rollup_upd ON kyc_applications;
DROP TRIGGER kyc_applications_rollup_del ON kyc_applications;
DROP TRIGGER kyb_applications_rollup_ins ON kyb_applications;
DROP TRIGGER kyb_applications_rollup_upd ON kyb_applications;
DROP TRIGGER kyb_applications_rollup_del ON kyb_applications;
DROP FUNCTION status_rollup_apply();
DROP TABLE status_rollups;
DROP TABLE screening_rule_rollups;
DROP TABLE screening_rollups;
DROP INDEX cases_auto_created_idx;
DROP INDEX cases_auto_resolved_idx;
DROP INDEX cases_open_age_idx;
DROP INDEX cases_tenant_type_created_idx;
DROP INDEX wallet_ledger_tenant_created_idx;
DROP INDEX webhook_deliveries_tenant_created_status_idx;
