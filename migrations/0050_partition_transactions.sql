-- +goose Up
-- Stored screenings partitioned by month of transaction_timestamp (issue 54,
-- docs/performance-at-scale.md "Partitioning"). The table that grows with traffic is cut into
-- monthly partitions so that the screening path's time-bounded reads (the raw minutes of the
-- velocity windows, the last activity), the transaction list and the reports touch the months
-- they ask for, and so that a month past every tenant's retention can be archived and dropped
-- whole (docs/performance-at-scale.md "Retention") instead of deleted row by row.
--
-- The conversion is in place: the existing table is renamed, a partitioned parent with the same
-- columns, checks, defaults, indexes, row-level security, grants and triggers takes its name,
-- monthly partitions are created for every month that holds rows (from ten years back; older
-- rows and any far-future timestamp go to the default partition) up to three months ahead, and
-- the rows are copied into them. The copy does not fire the triggers (they are created after
-- it): the per-account aggregates of migration 0022 already count those rows. The copy rewrites
-- the table once; on a large existing database run it in a maintenance window
-- (docs/performance-at-scale.md "Upgrading a populated database").
--
-- A unique constraint of a partitioned table must include the partition key, so the tenant's
-- externalId idempotency (docs/reference/specification.md 4.3) moves to transaction_keys, one small row per
-- stored screening keyed (tenant_id, external_id) that also names the row's id and timestamp:
-- the screening commit inserts the key first (ON CONFLICT DO NOTHING, as it did on
-- transactions) and stores only the rows whose key it inserted; a lookup by externalId reads the
-- key, then the one partition its timestamp names. The key's primary key keeps the old
-- constraint's name, so a duplicate still reports transactions_tenant_external_id_key. Other
-- writers (tests, seed scripts) insert into transactions alone: a statement trigger adds the
-- keys the commit did not, so their duplicates are refused as before.
LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE;
ALTER TABLE retro_screenings DROP CONSTRAINT retro_screenings_transaction_id_fkey;
ALTER TABLE transactions RENAME TO transactions_unpartitioned;
ALTER TABLE transactions_unpartitioned RENAME CONSTRAINT transactions_pkey TO transactions_unpartitioned_pkey;
ALTER TABLE transactions_unpartitioned RENAME CONSTRAINT transactions_tenant_external_id_key TO transactions_unpartitioned_external_id_key;

CREATE TABLE transaction_keys (
  tenant_id             uuid NOT NULL,
  external_id           text NOT NULL,
  transaction_id        uuid NOT NULL,
  transaction_timestamp timestamptz NOT NULL,
  CONSTRAINT transactions_tenant_external_id_key PRIMARY KEY (tenant_id, external_id)
);
ALTER TABLE transactions_unpartitioned NO FORCE ROW LEVEL SECURITY;
INSERT INTO transaction_keys (tenant_id, external_id, transaction_id, transaction_timestamp)
SELECT tenant_id, external_id, id, transaction_timestamp FROM transactions_unpartitioned;

CREATE TABLE transactions (LIKE transactions_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS
  INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE (transaction_timestamp);
ALTER TABLE transactions ADD CONSTRAINT transactions_pkey PRIMARY KEY (id, transaction_timestamp);
-- 0024: no planner statistics for the wide columns nothing filters on.
ALTER TABLE transactions
  ALTER COLUMN engine_verdicts SET STATISTICS 0,
  ALTER COLUMN metadata SET STATISTICS 0,
  ALTER COLUMN actions SET STATISTICS 0,
  ALTER COLUMN payment_message SET STATISTICS 0;
CREATE TABLE transactions_default PARTITION OF transactions DEFAULT;

-- +goose StatementBegin
-- ensure_monthly_partitions creates the missing monthly partitions of parent (transactions by
-- transaction_timestamp; audit_events by created_at once migration 0051 partitions it) for the
-- UTC months from from_month to to_month (both included), named parent_pYYYYMM, moving any rows
-- the default partition (parent_default) holds for such a month into it first (a partition
-- cannot be created over rows of the default), and returns how many it created. Each partition
-- gets the parent's row-level security of its own, so that no one reaches another tenant's rows
-- by naming a partition, and no UPDATE or DELETE for the application role (both tables are
-- append-only). It runs as the owner (SECURITY DEFINER): the service's maintenance job calls it
-- as the application role, which may create nothing else (docs/performance-at-scale.md
-- "Partition maintenance").
CREATE FUNCTION ensure_monthly_partitions(parent text, from_month timestamptz, to_month timestamptz) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  key text;
  m timestamptz := date_trunc('month', from_month, 'UTC');
  last timestamptz := date_trunc('month', to_month, 'UTC');
  name text;
  created integer := 0;
BEGIN
  key := CASE parent WHEN 'transactions' THEN 'transaction_timestamp' WHEN 'audit_events' THEN 'created_at' END;
  IF key IS NULL THEN
    RAISE EXCEPTION 'ensure_monthly_partitions: % is not partitioned by month', parent;
  END IF;
  IF last - m > interval '1300 months' THEN
    RAISE EXCEPTION 'ensure_monthly_partitions: % to % is more than a century of months', from_month, to_month;
  END IF;
  WHILE m <= last LOOP
    name := parent || '_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM');
    IF to_regclass('public.' || name) IS NULL THEN
      -- serialises concurrent callers; the default partition's rows of the month move first
      EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', parent || '_default');
      EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)',
        name, parent);
      EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE %I >= $1 AND %I < $2', name, parent || '_default', key, key)
        USING m, m + interval '1 month';
      EXECUTE format('DELETE FROM %I WHERE %I >= $1 AND %I < $2', parent || '_default', key, key)
        USING m, m + interval '1 month';
      EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, m, m + interval '1 month');
      EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', name);
      EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', name);
      EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', name);
      EXECUTE format('REVOKE UPDATE, DELETE ON %I FROM complyd_app', name);
      created := created + 1;
    END IF;
    m := m + interval '1 month';
  END LOOP;
  RETURN created;
END
$$;
-- +goose StatementEnd
REVOKE ALL ON FUNCTION ensure_monthly_partitions(text, timestamptz, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ensure_monthly_partitions(text, timestamptz, timestamptz) TO complyd_app;

-- The months that hold rows (at most ten years back), up to three months ahead, then the rows.
SELECT ensure_monthly_partitions('transactions',
  greatest(coalesce((SELECT min(transaction_timestamp) FROM transactions_unpartitioned), now()), now() - interval '10 years'),
  now() + interval '3 months');
INSERT INTO transactions SELECT * FROM transactions_unpartitioned;
DROP TABLE transactions_unpartitioned;

-- The indexes of 0005 and 0017, built once over the copied rows (each partition gets its own).
CREATE INDEX transactions_sender_idx ON transactions (tenant_id, sender_account_number, transaction_timestamp DESC)
  INCLUDE (amount_ngn);
CREATE INDEX transactions_list_idx ON transactions (tenant_id, transaction_timestamp DESC, id DESC);
CREATE INDEX transactions_receiver_idx ON transactions (tenant_id, receiver_account_number, transaction_timestamp DESC)
  INCLUDE (sender_account_number, amount_ngn) WHERE receiver_account_number IS NOT NULL;
CREATE INDEX transactions_device_idx ON transactions (tenant_id, device_id) INCLUDE (sender_account_number)
  WHERE device_id IS NOT NULL;
CREATE INDEX transactions_ip_idx ON transactions (tenant_id, ip_address) INCLUDE (sender_account_number)
  WHERE ip_address IS NOT NULL;
CREATE INDEX transactions_sender_bvn_idx ON transactions (tenant_id, sender_bvn) INCLUDE (sender_account_number)
  WHERE sender_bvn IS NOT NULL;

-- Row-level security on the parent (every query of the service names the parent) and on each
-- partition (ensure_monthly_partitions), grants as 0005 gave them.
ALTER TABLE transactions ENABLE ROW LEVEL SECURITY;
ALTER TABLE transactions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON transactions USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
ALTER TABLE transactions_default ENABLE ROW LEVEL SECURITY;
ALTER TABLE transactions_default FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON transactions_default USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
ALTER TABLE transaction_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE transaction_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON transaction_keys USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT ON transactions, transaction_keys TO complyd_app;
REVOKE UPDATE, DELETE ON transactions, transactions_default, transaction_keys FROM complyd_app;

-- +goose StatementBegin
-- transaction_keys_apply adds the keys of inserted rows that have none (rows not stored by the
-- screening commit, which inserts its keys itself): a key another row holds is a duplicate and
-- fails the statement with transactions_tenant_external_id_key, as the unique constraint did.
-- For the screening commit's rows it is one probe of the key's primary key per row.
CREATE FUNCTION transaction_keys_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_keys (tenant_id, external_id, transaction_id, transaction_timestamp)
  SELECT n.tenant_id, n.external_id, n.id, n.transaction_timestamp FROM new_rows n
  WHERE NOT EXISTS (SELECT 1 FROM transaction_keys k WHERE k.tenant_id = n.tenant_id AND k.external_id = n.external_id
    AND k.transaction_id = n.id);
  RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER transaction_keys_apply AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_keys_apply();
CREATE TRIGGER customer_risk_alert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_risk_queue_alert();
CREATE TRIGGER transactions_account_activity AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_activity_apply();

-- +goose Down
-- Back to one table: the rows return to an unpartitioned transactions with 0005's constraints.
LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE;
ALTER TABLE transactions RENAME TO transactions_partitioned;
ALTER TABLE transactions_partitioned RENAME CONSTRAINT transactions_pkey TO transactions_partitioned_pkey;
CREATE TABLE transactions (LIKE transactions_partitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS
  INCLUDING STORAGE INCLUDING COMPRESSION);
ALTER TABLE transactions_partitioned NO FORCE ROW LEVEL SECURITY;
INSERT INTO transactions SELECT * FROM transactions_partitioned;
DROP TABLE transactions_partitioned;
DROP TABLE transaction_keys;
DROP FUNCTION transaction_keys_apply();
DROP FUNCTION ensure_monthly_partitions(text, timestamptz, timestamptz);
ALTER TABLE transactions ADD CONSTRAINT transactions_pkey PRIMARY KEY (id);
ALTER TABLE transactions ADD CONSTRAINT transactions_tenant_external_id_key UNIQUE (tenant_id, external_id);
ALTER TABLE transactions
  ALTER COLUMN engine_verdicts SET STATISTICS 0,
  ALTER COLUMN metadata SET STATISTICS 0,
  ALTER COLUMN actions SET STATISTICS 0;
CREATE INDEX transactions_sender_idx ON transactions (tenant_id, sender_account_number, transaction_timestamp DESC)
  INCLUDE (amount_ngn);
CREATE INDEX transactions_list_idx ON transactions (tenant_id, transaction_timestamp DESC, id DESC);
CREATE INDEX transactions_receiver_idx ON transactions (tenant_id, receiver_account_number, transaction_timestamp DESC)
  INCLUDE (sender_account_number, amount_ngn) WHERE receiver_account_number IS NOT NULL;
CREATE INDEX transactions_device_idx ON transactions (tenant_id, device_id) INCLUDE (sender_account_number)
  WHERE device_id IS NOT NULL;
CREATE INDEX transactions_ip_idx ON transactions (tenant_id, ip_address) INCLUDE (sender_account_number)
  WHERE ip_address IS NOT NULL;
CREATE INDEX transactions_sender_bvn_idx ON transactions (tenant_id, sender_bvn) INCLUDE (sender_account_number)
  WHERE sender_bvn IS NOT NULL;
ALTER TABLE retro_screenings ADD CONSTRAINT retro_screenings_transaction_id_fkey FOREIGN KEY (transaction_id) REFERENCES transactions (id);
ALTER TABLE transactions ENABLE ROW LEVEL SECURITY;
ALTER TABLE transactions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON transactions USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT ON transactions TO complyd_app;
REVOKE UPDATE, DELETE ON transactions FROM complyd_app;
CREATE TRIGGER customer_risk_alert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_risk_queue_alert();
CREATE TRIGGER transactions_account_activity AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_activity_apply();
