-- +goose Up
-- The sender account's history in three grains: UTC days, hours and minutes (issue 15,
-- docs/guide/screening.md "How history is kept").
--
-- 0020 kept days only, so a screening still read the raw rows of its last 24 hours (the 24-hour
-- and 60-minute counts, and the 90 days' last partial day): for an account that transacts every
-- few seconds, thousands of rows per screening, and more the longer the day. With hours and
-- minutes beside the days, every window the prefetch needs ([ts - 90 days, ts], [ts - 24 hours,
-- ts], [ts - 60 minutes, ts]) is cut into raw rows of at most two partial minutes, minute buckets
-- up to the next hour, hour buckets up to the next day and whole days: at most a few hundred small
-- rows read by primary key, whatever the account's rate.
--
-- account_versions gains the account's first and last transaction_timestamp, so that the prefetch
-- skips, without an index probe, every piece of a window that lies outside the account's activity
-- (most pieces of most accounts: a new account has nothing before today, a quiet one nothing in
-- the last hour), and reads the last activity (AML-006) from the same row.
--
-- account_activity_grains replaces account_activity (its days become grain 'day'), and one
-- upsert of the statement-level trigger writes all three grains of the statement's accounts
-- (rows sorted by key, so concurrent statements lock them in one order).
CREATE TABLE account_activity_grains (
  tenant_id  uuid NOT NULL,
  account    text NOT NULL,
  grain      text NOT NULL CHECK (grain IN ('day', 'hour', 'minute')),
  bucket     timestamptz NOT NULL, -- start of the UTC day, hour or minute
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
  last_at        timestamptz NOT NULL, -- the bucket's latest transaction_timestamp
  PRIMARY KEY (tenant_id, account, grain, bucket)
);

ALTER TABLE account_versions ADD COLUMN first_at timestamptz, ADD COLUMN last_at timestamptz;

-- array_concat_agg concatenates arrays (the devices of a range of buckets; the prefetch makes
-- them distinct once, at the end).
CREATE AGGREGATE array_concat_agg(anycompatiblearray) (SFUNC = array_cat, STYPE = anycompatiblearray);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION account_activity_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_activity_grains AS a (tenant_id, account, grain, bucket, n, sum_ngn, sum_sq_ngn, devices,
    last_device, last_device_at, last_ip, last_ip_at, last_lat, last_lon, last_loc_at, last_at)
  SELECT tenant_id, sender_account_number, g.grain, date_trunc(g.grain, transaction_timestamp, 'UTC') AS b, count(*),
    sum(amount_ngn), sum(amount_ngn * amount_ngn),
    coalesce(array_agg(DISTINCT device_id ORDER BY device_id) FILTER (WHERE device_id IS NOT NULL), '{}'),
    (array_agg(device_id ORDER BY transaction_timestamp DESC) FILTER (WHERE device_id IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE device_id IS NOT NULL),
    (array_agg(ip_address ORDER BY transaction_timestamp DESC) FILTER (WHERE ip_address IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE ip_address IS NOT NULL),
    (array_agg(latitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
    (array_agg(longitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
    max(transaction_timestamp) FILTER (WHERE latitude IS NOT NULL), max(transaction_timestamp)
  FROM new_rows CROSS JOIN (VALUES ('day'), ('hour'), ('minute')) AS g(grain)
  GROUP BY tenant_id, sender_account_number, g.grain, b ORDER BY tenant_id, sender_account_number, g.grain, b
  ON CONFLICT (tenant_id, account, grain, bucket) DO UPDATE SET n = a.n + excluded.n,
    sum_ngn = a.sum_ngn + excluded.sum_ngn, sum_sq_ngn = a.sum_sq_ngn + excluded.sum_sq_ngn,
    devices = CASE WHEN excluded.devices <@ a.devices THEN a.devices
      ELSE ARRAY(SELECT DISTINCT x FROM unnest(a.devices || excluded.devices) x ORDER BY x) END,
    last_device = CASE WHEN excluded.last_device_at >= coalesce(a.last_device_at, '-infinity') THEN excluded.last_device
      ELSE a.last_device END,
    last_device_at = greatest(a.last_device_at, excluded.last_device_at),
    last_ip = CASE WHEN excluded.last_ip_at >= coalesce(a.last_ip_at, '-infinity') THEN excluded.last_ip ELSE a.last_ip END,
    last_ip_at = greatest(a.last_ip_at, excluded.last_ip_at),
    last_lat = CASE WHEN excluded.last_loc_at >= coalesce(a.last_loc_at, '-infinity') THEN excluded.last_lat ELSE a.last_lat END,
    last_lon = CASE WHEN excluded.last_loc_at >= coalesce(a.last_loc_at, '-infinity') THEN excluded.last_lon ELSE a.last_lon END,
    last_loc_at = greatest(a.last_loc_at, excluded.last_loc_at), last_at = greatest(a.last_at, excluded.last_at);
  INSERT INTO account_versions AS v (tenant_id, account, version, first_at, last_at)
  SELECT tenant_id, sender_account_number, count(*), min(transaction_timestamp), max(transaction_timestamp)
  FROM new_rows GROUP BY tenant_id, sender_account_number ORDER BY tenant_id, sender_account_number
  ON CONFLICT (tenant_id, account) DO UPDATE SET version = v.version + excluded.version,
    first_at = least(v.first_at, excluded.first_at), last_at = greatest(v.last_at, excluded.last_at);
  RETURN NULL;
END
$$;
-- +goose StatementEnd

-- All three grains are counted once from the stored transactions (row-level security lifted
-- inside the migration's transaction, as 0020 does); account_activity's days are the same sums.
ALTER TABLE transactions NO FORCE ROW LEVEL SECURITY;
INSERT INTO account_activity_grains (tenant_id, account, grain, bucket, n, sum_ngn, sum_sq_ngn, devices,
  last_device, last_device_at, last_ip, last_ip_at, last_lat, last_lon, last_loc_at, last_at)
SELECT tenant_id, sender_account_number, g.grain, date_trunc(g.grain, transaction_timestamp, 'UTC') AS b, count(*),
  sum(amount_ngn), sum(amount_ngn * amount_ngn),
  coalesce(array_agg(DISTINCT device_id ORDER BY device_id) FILTER (WHERE device_id IS NOT NULL), '{}'),
  (array_agg(device_id ORDER BY transaction_timestamp DESC) FILTER (WHERE device_id IS NOT NULL))[1],
  max(transaction_timestamp) FILTER (WHERE device_id IS NOT NULL),
  (array_agg(ip_address ORDER BY transaction_timestamp DESC) FILTER (WHERE ip_address IS NOT NULL))[1],
  max(transaction_timestamp) FILTER (WHERE ip_address IS NOT NULL),
  (array_agg(latitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
  (array_agg(longitude ORDER BY transaction_timestamp DESC) FILTER (WHERE latitude IS NOT NULL))[1],
  max(transaction_timestamp) FILTER (WHERE latitude IS NOT NULL), max(transaction_timestamp)
FROM transactions CROSS JOIN (VALUES ('day'), ('hour'), ('minute')) AS g(grain)
GROUP BY 1, 2, 3, 4;
ALTER TABLE account_versions NO FORCE ROW LEVEL SECURITY;
UPDATE account_versions v SET first_at = t.f, last_at = t.l
FROM (SELECT tenant_id, sender_account_number, min(transaction_timestamp) AS f, max(transaction_timestamp) AS l
  FROM transactions GROUP BY 1, 2) t
WHERE v.tenant_id = t.tenant_id AND v.account = t.sender_account_number;
ALTER TABLE account_versions FORCE ROW LEVEL SECURITY;
ALTER TABLE transactions FORCE ROW LEVEL SECURITY;
DROP TABLE account_activity;

ALTER TABLE account_activity_grains ENABLE ROW LEVEL SECURITY;
ALTER TABLE account_activity_grains FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON account_activity_grains USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());

-- +goose Down
-- Back to 0020: the days return to account_activity, the trigger to writing days only.
CREATE TABLE account_activity (
  tenant_id  uuid NOT NULL,
  account    text NOT NULL,
  day        timestamptz NOT NULL,
  n          bigint NOT NULL,
  sum_ngn    numeric NOT NULL,
  sum_sq_ngn numeric NOT NULL,
  devices    text[] NOT NULL,
  last_device    text,
  last_device_at timestamptz,
  last_ip        text,
  last_ip_at     timestamptz,
  last_lat       float8,
  last_lon       float8,
  last_loc_at    timestamptz,
  PRIMARY KEY (tenant_id, account, day)
);
ALTER TABLE account_activity_grains NO FORCE ROW LEVEL SECURITY;
INSERT INTO account_activity (tenant_id, account, day, n, sum_ngn, sum_sq_ngn, devices, last_device, last_device_at,
  last_ip, last_ip_at, last_lat, last_lon, last_loc_at)
SELECT tenant_id, account, bucket, n, sum_ngn, sum_sq_ngn, devices, last_device, last_device_at,
  last_ip, last_ip_at, last_lat, last_lon, last_loc_at
FROM account_activity_grains WHERE grain = 'day';
ALTER TABLE account_activity ENABLE ROW LEVEL SECURITY;
ALTER TABLE account_activity FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON account_activity USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION account_activity_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP AGGREGATE array_concat_agg(anycompatiblearray);
DROP TABLE account_activity_grains;
ALTER TABLE account_versions DROP COLUMN first_at, DROP COLUMN last_at;
