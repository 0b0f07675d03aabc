-- +goose Up
-- Monthly range partitioning of transactions by transaction_timestamp (issue 54; design in
-- docs/performance-at-scale.md "Partitioning"). The table is converted in place: renamed, the
-- partitioned parent takes its name, columns, checks, defaults, statistics settings, indexes,
-- row-level security, grants and triggers; partitions are created for every month that holds
-- rows (at most ten years back; older rows go to the default partition) up to three months
-- ahead, and the rows are copied before the triggers exist (the aggregates are not counted
-- twice). Holds an ACCESS EXCLUSIVE lock for the copy: run complyd migrate in a maintenance window.

-- The tables partitioned by month; ensure_monthly_partitions refuses any other.
CREATE TABLE monthly_partitioned_tables (parent regclass PRIMARY KEY);
REVOKE ALL ON monthly_partitioned_tables FROM complyd_app;
GRANT SELECT ON monthly_partitioned_tables TO complyd_app;

-- secure_partition gives a partition the row-level security of its parent's tenants and the
-- append-only grants (the application may read and insert only): naming a partition directly
-- reaches no other tenant's rows and changes nothing.
-- +goose StatementBegin
CREATE FUNCTION secure_partition(child regclass) RETURNS void LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
	EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', child);
	IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = child AND polname = 'tenant_isolation') THEN
		EXECUTE format('CREATE POLICY tenant_isolation ON %s USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', child);
	END IF;
	EXECUTE format('REVOKE ALL ON %s FROM complyd_app', child);
	EXECUTE format('GRANT SELECT, INSERT ON %s TO complyd_app', child);
END $$;
-- +goose StatementEnd
REVOKE EXECUTE ON FUNCTION secure_partition(regclass) FROM PUBLIC, complyd_app;

-- ensure_monthly_partitions creates parent's partitions <parent>_pYYYYMM of the UTC months
-- that intersect [from, to) and do not exist yet, and returns their names. Rows the default
-- partition holds for such a month are moved into the new partition before it is attached
-- (PostgreSQL refuses to create a partition over default rows). SECURITY DEFINER: the
-- application role, which owns no table, can create partitions through it and nothing else.
-- +goose StatementBegin
CREATE FUNCTION ensure_monthly_partitions(parent regclass, "from" date, "to" date) RETURNS SETOF text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
	col text;
	base text;
	def regclass;
	m date;
	child text;
	lo timestamptz;
	hi timestamptz;
	has_rows boolean;
	att record;
	ix record;
	iname text;
BEGIN
	SELECT a.attname INTO col FROM pg_partitioned_table p
		JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
		WHERE p.partrelid = parent AND p.partstrat = 'r' AND p.partnatts = 1 AND a.atttypid = 'timestamptz'::regtype
		AND EXISTS (SELECT 1 FROM monthly_partitioned_tables t WHERE t.parent = ensure_monthly_partitions.parent);
	IF col IS NULL THEN
		RAISE EXCEPTION 'ensure_monthly_partitions: % is not partitioned by month', parent USING ERRCODE = '22023';
	END IF;
	IF "from" IS NULL OR "to" IS NULL OR "to" > "from" + interval '25 years' THEN
		RAISE EXCEPTION 'ensure_monthly_partitions: the range % to % is not one of at most 25 years', "from", "to" USING ERRCODE = '22023';
	END IF;
	SELECT c.relname INTO base FROM pg_class c WHERE c.oid = parent;
	def := to_regclass(quote_ident(base || '_default'));
	m := date_trunc('month', "from")::date;
	WHILE m < "to" LOOP
		child := base || '_p' || to_char(m, 'YYYYMM');
		lo := m::timestamp AT TIME ZONE 'UTC';
		hi := (m + interval '1 month')::timestamp AT TIME ZONE 'UTC';
		IF to_regclass(quote_ident(child)) IS NULL THEN
			-- Created on its own and then attached: ATTACH PARTITION takes a SHARE UPDATE EXCLUSIVE
			-- lock of the parent, which screening's inserts and reads do not wait for (CREATE TABLE
			-- ... PARTITION OF would take an ACCESS EXCLUSIVE one), and the partition's indexes get
			-- names of the parent's with the partition's name for the table's: transactions_sender_idx
			-- is transactions_p202612_sender_idx on December 2026's partition.
			EXECUTE format('CREATE TABLE %I (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)',
				child, parent);
			-- A partition does not take its parent's per-column statistics targets (migration 0024:
			-- the wide columns no statement filters on are not analysed).
			FOR att IN SELECT attname, attstattarget FROM pg_attribute
				WHERE attrelid = parent AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0 LOOP
				EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET STATISTICS %s', child, att.attname, att.attstattarget);
			END LOOP;
			IF def IS NOT NULL THEN
				EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE %I >= $1 AND %I < $2)', def, col, col) INTO has_rows USING lo, hi;
				IF has_rows THEN
					EXECUTE format('INSERT INTO %I SELECT * FROM %s WHERE %I >= $1 AND %I < $2', child, def, col, col) USING lo, hi;
					EXECUTE format('DELETE FROM %s WHERE %I >= $1 AND %I < $2', def, col, col) USING lo, hi;
				END IF;
			END IF;
			FOR ix IN SELECT i.indexrelid, ic.relname::text AS iname, con.oid AS conoid FROM pg_index i
				JOIN pg_class ic ON ic.oid = i.indexrelid
				LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = parent
				WHERE i.indrelid = parent LOOP
				IF starts_with(ix.iname, base || '_') THEN
					iname := left(child || substr(ix.iname, length(base) + 1), 63);
				ELSE
					iname := left(child || '_' || ix.iname, 63);
				END IF;
				IF ix.conoid IS NOT NULL THEN
					EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', child, iname, pg_get_constraintdef(ix.conoid));
				ELSE
					EXECUTE regexp_replace(pg_get_indexdef(ix.indexrelid), '^CREATE (UNIQUE )?INDEX \S+ ON ONLY \S+ ',
						'CREATE \1INDEX ' || quote_ident(iname) || ' ON ' || quote_ident(child) || ' ');
				END IF;
			END LOOP;
			EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, child, lo, hi);
			PERFORM secure_partition(child::regclass);
			RETURN NEXT child;
		END IF;
		m := (m + interval '1 month')::date;
	END LOOP;
END $$;
-- +goose StatementEnd
REVOKE EXECUTE ON FUNCTION ensure_monthly_partitions(regclass, date, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ensure_monthly_partitions(regclass, date, date) TO complyd_app;

-- monthly_partitions lists parent's monthly partitions with their bounds (not the default).
-- +goose StatementBegin
CREATE FUNCTION monthly_partitions(parent regclass) RETURNS TABLE (name text, month_from timestamptz, month_to timestamptz)
LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
	SELECT c.relname::text,
		(regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''([^'']+)''\)'))[1]::timestamptz,
		(regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1]::timestamptz
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	WHERE i.inhparent = parent AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
$$;
-- +goose StatementEnd

-- drop_monthly_partition detaches and drops parent's partition of the month that starts at
-- month (first of a UTC month), deleting its rows' idempotency keys first when parent is
-- transactions; false when there is no such partition. It refuses the current UTC month and
-- later ones. It does not check that the rows were archived: the retention job does first.
-- +goose StatementBegin
CREATE FUNCTION drop_monthly_partition(parent regclass, month date) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
	child regclass;
	base text;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM monthly_partitioned_tables t WHERE t.parent = drop_monthly_partition.parent) THEN
		RAISE EXCEPTION 'drop_monthly_partition: % is not partitioned by month', parent USING ERRCODE = '22023';
	END IF;
	IF month IS NULL OR date_trunc('month', month) >= date_trunc('month', now() AT TIME ZONE 'UTC') THEN
		RAISE EXCEPTION 'drop_monthly_partition: % is the current month or later', month USING ERRCODE = '22023';
	END IF;
	SELECT c.relname INTO base FROM pg_class c WHERE c.oid = parent;
	child := to_regclass(quote_ident(base || '_p' || to_char(month, 'YYYYMM')));
	IF child IS NULL OR NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = child AND inhparent = parent) THEN
		RETURN false;
	END IF;
	IF parent = 'transactions'::regclass THEN
		EXECUTE format('DELETE FROM transaction_keys k USING %s p WHERE k.tenant_id = p.tenant_id AND k.external_id = p.external_id
			AND k.transaction_id = p.id', child);
	END IF;
	EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, child);
	EXECUTE format('DROP TABLE %s', child);
	RETURN true;
END $$;
-- +goose StatementEnd
REVOKE EXECUTE ON FUNCTION drop_monthly_partition(regclass, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION drop_monthly_partition(regclass, date) TO complyd_app;

-- The conversion.
ALTER TABLE retro_screenings DROP CONSTRAINT IF EXISTS retro_screenings_transaction_id_fkey;
ALTER TABLE transactions RENAME TO transactions_unpartitioned;
ALTER TABLE transactions_unpartitioned RENAME CONSTRAINT transactions_pkey TO transactions_unpartitioned_pkey;
ALTER TABLE transactions_unpartitioned RENAME CONSTRAINT transactions_tenant_external_id_key TO transactions_unpartitioned_ext_key;
ALTER INDEX transactions_device_idx RENAME TO transactions_unpartitioned_device_idx;
ALTER INDEX transactions_ip_idx RENAME TO transactions_unpartitioned_ip_idx;
ALTER INDEX transactions_list_idx RENAME TO transactions_unpartitioned_list_idx;
ALTER INDEX transactions_receiver_idx RENAME TO transactions_unpartitioned_receiver_idx;
ALTER INDEX transactions_sender_bvn_idx RENAME TO transactions_unpartitioned_sender_bvn_idx;
ALTER INDEX transactions_sender_idx RENAME TO transactions_unpartitioned_sender_idx;

-- The idempotency of externalIds: a unique constraint on a partitioned table must include the
-- partition key, so UNIQUE (tenant_id, external_id) moves here, keeping its name (errors.go
-- maps it to DUPLICATE_EXTERNAL_ID). Not partitioned; grows with all of history.
CREATE TABLE transaction_keys (
	tenant_id uuid NOT NULL,
	external_id text NOT NULL,
	transaction_id uuid NOT NULL,
	transaction_timestamp timestamptz NOT NULL,
	CONSTRAINT transactions_tenant_external_id_key PRIMARY KEY (tenant_id, external_id)
);
ALTER TABLE transaction_keys ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON transaction_keys USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
REVOKE ALL ON transaction_keys FROM complyd_app;
GRANT SELECT, INSERT ON transaction_keys TO complyd_app;

CREATE TABLE transactions (LIKE transactions_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE
	INCLUDING COMPRESSION INCLUDING STATISTICS) PARTITION BY RANGE (transaction_timestamp);
ALTER TABLE transactions ALTER COLUMN metadata SET STATISTICS 0, ALTER COLUMN actions SET STATISTICS 0,
	ALTER COLUMN engine_verdicts SET STATISTICS 0, ALTER COLUMN payment_message SET STATISTICS 0;
ALTER TABLE transactions ADD CONSTRAINT transactions_pkey PRIMARY KEY (id, transaction_timestamp);
CREATE INDEX transactions_device_idx ON transactions (tenant_id, device_id) INCLUDE (sender_account_number) WHERE device_id IS NOT NULL;
CREATE INDEX transactions_ip_idx ON transactions (tenant_id, ip_address) INCLUDE (sender_account_number) WHERE ip_address IS NOT NULL;
CREATE INDEX transactions_list_idx ON transactions (tenant_id, transaction_timestamp DESC, id DESC);
CREATE INDEX transactions_receiver_idx ON transactions (tenant_id, receiver_account_number, transaction_timestamp DESC)
	INCLUDE (sender_account_number, amount_ngn) WHERE receiver_account_number IS NOT NULL;
CREATE INDEX transactions_sender_bvn_idx ON transactions (tenant_id, sender_bvn) INCLUDE (sender_account_number) WHERE sender_bvn IS NOT NULL;
CREATE INDEX transactions_sender_idx ON transactions (tenant_id, sender_account_number, transaction_timestamp DESC) INCLUDE (amount_ngn);
ALTER TABLE transactions ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON transactions USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
REVOKE ALL ON transactions FROM complyd_app;
GRANT SELECT, INSERT ON transactions TO complyd_app;
INSERT INTO monthly_partitioned_tables VALUES ('transactions');

CREATE TABLE transactions_default PARTITION OF transactions DEFAULT;
ALTER TABLE transactions_default ALTER COLUMN metadata SET STATISTICS 0, ALTER COLUMN actions SET STATISTICS 0,
	ALTER COLUMN engine_verdicts SET STATISTICS 0, ALTER COLUMN payment_message SET STATISTICS 0;
SELECT secure_partition('transactions_default');
-- A partition for every month of the last ten years that holds rows, and the current month
-- and three ahead.
SELECT ensure_monthly_partitions('transactions', m, (m + interval '1 month')::date)
FROM (SELECT DISTINCT date_trunc('month', transaction_timestamp AT TIME ZONE 'UTC')::date AS m FROM transactions_unpartitioned
	WHERE transaction_timestamp >= now() - interval '10 years') months;
SELECT ensure_monthly_partitions('transactions', (now() AT TIME ZONE 'UTC')::date,
	(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '4 months')::date);

INSERT INTO transactions SELECT * FROM transactions_unpartitioned;
INSERT INTO transaction_keys (tenant_id, external_id, transaction_id, transaction_timestamp)
	SELECT tenant_id, external_id, id, transaction_timestamp FROM transactions_unpartitioned;
DROP TABLE transactions_unpartitioned;

-- Writers other than the screening commit (which inserts the keys itself, insertSQL) insert
-- into transactions alone: this adds the keys they did not, so a duplicate externalId is
-- refused by transactions_tenant_external_id_key as before.
-- +goose StatementBegin
CREATE FUNCTION transaction_keys_add() RETURNS trigger LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
	INSERT INTO transaction_keys (tenant_id, external_id, transaction_id, transaction_timestamp)
	SELECT n.tenant_id, n.external_id, n.id, n.transaction_timestamp FROM new_rows n
	WHERE NOT EXISTS (SELECT 1 FROM transaction_keys k WHERE k.tenant_id = n.tenant_id AND k.external_id = n.external_id
		AND k.transaction_id = n.id);
	RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER a_transaction_keys AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION transaction_keys_add();
CREATE TRIGGER customer_risk_alert AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION customer_risk_queue_alert();
CREATE TRIGGER transactions_account_activity AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION account_activity_apply();

-- +goose Down
DELETE FROM monthly_partitioned_tables WHERE parent = 'transactions'::regclass;
DROP TRIGGER a_transaction_keys ON transactions;
DROP TRIGGER customer_risk_alert ON transactions;
DROP TRIGGER transactions_account_activity ON transactions;
ALTER TABLE transactions RENAME TO transactions_partitioned;
CREATE TABLE transactions (LIKE transactions_partitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE
	INCLUDING COMPRESSION INCLUDING STATISTICS);
ALTER TABLE transactions ALTER COLUMN metadata SET STATISTICS 0, ALTER COLUMN actions SET STATISTICS 0,
	ALTER COLUMN engine_verdicts SET STATISTICS 0, ALTER COLUMN payment_message SET STATISTICS 0;
INSERT INTO transactions SELECT * FROM transactions_partitioned;
DROP TABLE transactions_partitioned;
DROP TABLE transaction_keys;
ALTER TABLE transactions ADD CONSTRAINT transactions_pkey PRIMARY KEY (id);
ALTER TABLE transactions ADD CONSTRAINT transactions_tenant_external_id_key UNIQUE (tenant_id, external_id);
CREATE INDEX transactions_device_idx ON transactions (tenant_id, device_id) INCLUDE (sender_account_number) WHERE device_id IS NOT NULL;
CREATE INDEX transactions_ip_idx ON transactions (tenant_id, ip_address) INCLUDE (sender_account_number) WHERE ip_address IS NOT NULL;
CREATE INDEX transactions_list_idx ON transactions (tenant_id, transaction_timestamp DESC, id DESC);
CREATE INDEX transactions_receiver_idx ON transactions (tenant_id, receiver_account_number, transaction_timestamp DESC)
	INCLUDE (sender_account_number, amount_ngn) WHERE receiver_account_number IS NOT NULL;
CREATE INDEX transactions_sender_bvn_idx ON transactions (tenant_id, sender_bvn) INCLUDE (sender_account_number) WHERE sender_bvn IS NOT NULL;
CREATE INDEX transactions_sender_idx ON transactions (tenant_id, sender_account_number, transaction_timestamp DESC) INCLUDE (amount_ngn);
ALTER TABLE transactions ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON transactions USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
REVOKE ALL ON transactions FROM complyd_app;
GRANT SELECT, INSERT ON transactions TO complyd_app;
CREATE TRIGGER customer_risk_alert AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION customer_risk_queue_alert();
CREATE TRIGGER transactions_account_activity AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION account_activity_apply();
ALTER TABLE retro_screenings ADD CONSTRAINT retro_screenings_transaction_id_fkey FOREIGN KEY (transaction_id) REFERENCES transactions (id);
DROP FUNCTION transaction_keys_add();
DROP FUNCTION drop_monthly_partition(regclass, date);
DROP FUNCTION monthly_partitions(regclass);
DROP FUNCTION ensure_monthly_partitions(regclass, date, date);
DROP FUNCTION secure_partition(regclass);
DROP TABLE monthly_partitioned_tables;
