-- +goose Up
-- The sender account's history the screening path reads, kept so that a screening costs the same
-- whatever the account's 90 days hold (issue 15, docs/guide/screening.md "How history is kept").
--
-- account_activity holds, per sender account and UTC day of transaction_timestamp, the count,
-- the sum and the sum of squares of amount_ngn (exact numerics: the prefetch derives the same
-- mean and population standard deviation as avg and stddev_pop over the rows), the distinct
-- device ids, and the day's latest device, IP address and location with their timestamps (the
-- latest transaction that has one). The 90-day aggregates of a screening read at most 90 of these
-- rows plus the raw rows of the window's two partial days, instead of every transaction of the
-- 90 days.
--
-- account_versions holds a counter per sender account, bumped by every stored transaction of
-- the account. The prefetch reads it with the history, and the insert stores a screening only
-- if it is unchanged (the guard that keeps two replicas from both committing on one stale
-- history, docs/guide/screening.md): one index probe instead of counting the 90 days again.
--
-- Both are kept by a statement-level trigger on transactions, from the statement's transition
-- table: one upsert of each per statement (per group commit), rows sorted by key so concurrent
-- statements lock them in one order, whatever inserts the transactions (the screening commit, the
-- load generator's seeding, tests). transactions is append-only (UPDATE and DELETE are revoked
-- from the application, 0005), so inserts are all there is to follow.
CREATE TABLE account_activity (
  tenant_id  uuid NOT NULL,
  account    text NOT NULL,
  day        timestamptz NOT NULL, -- start of the UTC day
  n          bigint NOT NULL,
  sum_ngn    numeric NOT NULL,
  sum_sq_ngn numeric NOT NULL,
  devices    text[] NOT NULL,      -- distinct, sorted
  last_device    text,
  last_device_at timestamptz,
  last_ip        text,
  last_ip_at     timestamptz,
  last_lat       float8,
  last_lon       float8,
  last_loc_at    timestamptz,
  PRIMARY KEY (tenant_id, account, day)
);

CREATE TABLE account_versions (
  tenant_id uuid NOT NULL,
  account   text NOT NULL,
  version   bigint NOT NULL,
  PRIMARY KEY (tenant_id, account)
);

-- +goose StatementBegin
CREATE FUNCTION account_activity_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_activity AS a (tenant_id, account, day, n, sum_ngn, sum_sq_ngn, devices, last_device, last_device_at, last_ip, last_ip_at, last_lat, last_lon, last_loc_at)
  SELECT tenant_id, sender_account_number, date_trunc('day', transaction_timestamp, 'UTC') AS d, count(*),
    sum(amount_ngn), sum(amount_ngn * amount_ngn),
    coalesce(array_agg(DISTINCT device_id ORDER BY device_id) FILTER (WHERE device_id IS NOT NULL), '{}'),
    (array_agg(device_id ORDER BY transaction_timestamp DESC) FILTER (WHERE device_id IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE device_id IS NOT NULL),
    (array_agg(ip_address ORDER BY transaction_timestamp DESC) FILTER (WHERE ip_address IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE ip_address IS NOT NULL),
    (array_agg(latitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
    (array_agg(longitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE latitude IS NOT NULL)
  FROM new_rows GROUP BY tenant_id, sender_account_number, d ORDER BY tenant_id, sender_account_number, d
  ON CONFLICT (tenant_id, account, day) DO UPDATE SET n = a.n + excluded.n, sum_ngn = a.sum_ngn + excluded.sum_ngn,
    sum_sq_ngn = a.sum_sq_ngn + excluded.sum_sq_ngn,
    devices = CASE WHEN excluded.devices <@ a.devices THEN a.devices
      ELSE ARRAY(SELECT DISTINCT x FROM unnest(a.devices || excluded.devices) x ORDER BY x) END,
    last_device = CASE WHEN excluded.last_device_at >= coalesce(a.last_device_at, '-infinity') THEN excluded.last_device
      ELSE a.last_device END,
    last_device_at = greatest(a.last_device_at, excluded.last_device_at),
    last_ip = CASE WHEN excluded.last_ip_at >= coalesce(a.last_ip_at, '-infinity') THEN excluded.last_ip ELSE a.last_ip END,
    last_ip_at = greatest(a.last_ip_at, excluded.last_ip_at),
    last_lat = CASE WHEN excluded.last_loc_at >= coalesce(a.last_loc_at, '-infinity') THEN excluded.last_lat ELSE a.last_lat END,
    last_lon = CASE WHEN excluded.last_loc_at >= coalesce(a.last_loc_at, '-infinity') THEN excluded.last_lon ELSE a.last_lon END,
    last_loc_at = greatest(a.last_loc_at, excluded.last_loc_at);
  INSERT INTO account_versions AS v (tenant_id, account, version)
  SELECT tenant_id, sender_account_number, count(*)
  FROM new_rows GROUP BY tenant_id, sender_account_number ORDER BY tenant_id, sender_account_number
  ON CONFLICT (tenant_id, account) DO UPDATE SET version = v.version + excluded.version;
  RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER transactions_account_activity AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_activity_apply();

-- Transactions stored before this migration are counted once, here (row-level security lifted
-- inside the migration's transaction, as 0018 does).
ALTER TABLE transactions NO FORCE ROW LEVEL SECURITY;
INSERT INTO account_activity (tenant_id, account, day, n, sum_ngn, sum_sq_ngn, devices, last_device, last_device_at, last_ip, last_ip_at, last_lat, last_lon, last_loc_at)
SELECT tenant_id, sender_account_number, date_trunc('day', transaction_timestamp, 'UTC') AS d, count(*),
  sum(amount_ngn), sum(amount_ngn * amount_ngn),
  coalesce(array_agg(DISTINCT device_id ORDER BY device_id) FILTER (WHERE device_id IS NOT NULL), '{}'),
  (array_agg(device_id ORDER BY transaction_timestamp DESC) FILTER (WHERE device_id IS NOT NULL))[1],
  max(transaction_timestamp) FILTER (WHERE device_id IS NOT NULL),
  (array_agg(ip_address ORDER BY transaction_timestamp DESC) FILTER (WHERE ip_address IS NOT NULL))[1],
  max(transaction_timestamp) FILTER (WHERE ip_address IS NOT NULL),
  (array_agg(latitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
  (array_agg(longitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
  max(transaction_timestamp) FILTER (WHERE latitude IS NOT NULL)
FROM transactions GROUP BY 1, 2, 3;
INSERT INTO account_versions (tenant_id, account, version)
SELECT tenant_id, sender_account_number, count(*) FROM transactions GROUP BY 1, 2;
ALTER TABLE transactions FORCE ROW LEVEL SECURITY;

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['account_activity', 'account_versions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER transactions_account_activity ON transactions;
DROP FUNCTION account_activity_apply();
DROP TABLE account_versions;
DROP TABLE account_activity;
