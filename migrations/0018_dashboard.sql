-- +goose Up
-- The dashboard's aggregates (issue 17, docs/dashboard.md "Overview API").
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

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['screening_rollups', 'screening_rule_rollups'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP TABLE screening_rule_rollups;
DROP TABLE screening_rollups;
DROP INDEX cases_auto_created_idx;
DROP INDEX cases_auto_resolved_idx;
DROP INDEX cases_open_age_idx;
DROP INDEX cases_tenant_type_created_idx;
DROP INDEX wallet_ledger_tenant_created_idx;
DROP INDEX webhook_deliveries_tenant_created_status_idx;
