-- +goose Up
-- The default partitions of transactions and audit_events (0043, 0044) are replaced by two
-- range partitions, <table>_before (MINVALUE to the first month) and <table>_after (the month
-- after the last to MAXVALUE), and the monthly partitions between are made contiguous (a gap
-- would be a range no partition takes). With no default partition, PostgreSQL 15 can order the
-- partitions, so a newest-first read without a lower time bound (the transaction list under its
-- LIMIT, the prefetch's last-activity probe) is an ordered Append that reads the newest
-- partition first and stops, instead of a Merge Append that descends every partition
-- (docs/performance-at-scale.md). ensure_monthly_partitions now splits the catch-all a new
-- month falls in (moving its rows), and dropping a month keeps the range covered.

-- create_monthly_partition_table creates the table child like parent (not attached): columns,
-- defaults, checks, storage, per-column statistics targets, and copies of the parent's
-- indexes named <child>_<suffix> (0043's ensure_monthly_partitions, unchanged).
-- +goose StatementBegin
CREATE FUNCTION create_monthly_partition_table(parent regclass, child text) RETURNS void LANGUAGE plpgsql
SET search_path = public, pg_temp AS $$
DECLARE
	base text;
	att record;
	ix record;
	iname text;
BEGIN
	SELECT c.relname INTO base FROM pg_class c WHERE c.oid = parent;
	EXECUTE format('CREATE TABLE %I (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)',
		child, parent);
	FOR att IN SELECT attname, attstattarget FROM pg_attribute
		WHERE attrelid = parent AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0 LOOP
		EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET STATISTICS %s', child, att.attname, att.attstattarget);
	END LOOP;
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
END $$;
-- +goose StatementEnd
REVOKE EXECUTE ON FUNCTION create_monthly_partition_table(regclass, text) FROM PUBLIC, complyd_app;

-- monthly_partitions lists the monthly partitions only (not the default, not the catch-alls).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION monthly_partitions(parent regclass) RETURNS TABLE (name text, month_from timestamptz, month_to timestamptz)
LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
	SELECT c.relname::text,
		(regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''([^'']+)''\)'))[1]::timestamptz,
		(regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1]::timestamptz
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	WHERE i.inhparent = parent AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
		AND pg_get_expr(c.relpartbound, c.oid) !~ '(MINVALUE|MAXVALUE)'
$$;
-- +goose StatementEnd

-- ensure_monthly_partitions creates parent's partitions <parent>_pYYYYMM of the UTC months that
-- intersect [from, to) and do not exist yet, and returns their names. The monthly partitions
-- stay contiguous: a month below the first or above the last creates every month between too
-- (at most 25 years of them). The catch-all the new months fall in (<parent>_before or
-- <parent>_after) is detached, their rows moved out of it into the new partitions, and attached
-- again with its range shrunk; a default partition (before migration 0050) gives up its rows
-- the same way. Detaching a catch-all takes an ACCESS EXCLUSIVE lock of the parent (attaching
-- a month a SHARE UPDATE EXCLUSIVE one): lock_timeout (3 s) makes it give up rather than hold
-- screening behind it; the partitions job creates months three ahead and retries every 6 hours.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ensure_monthly_partitions(parent regclass, "from" date, "to" date) RETURNS SETOF text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET lock_timeout = '3s' AS $$
DECLARE
	col text;
	base text;
	def regclass;
	lower regclass;
	upper regclass;
	first_m date;
	last_m date;
	fm date;
	tm date;
	m date;
	child text;
	lo timestamptz;
	hi timestamptz;
	src regclass;
	srcs regclass[] := '{}';
	lower_out boolean := false;
	upper_out boolean := false;
	has_rows boolean;
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
	lower := to_regclass(quote_ident(base || '_before'));
	upper := to_regclass(quote_ident(base || '_after'));
	fm := date_trunc('month', "from")::date;
	tm := date_trunc('month', "to")::date;
	IF tm < "to" THEN
		tm := (tm + interval '1 month')::date;
	END IF;
	IF lower IS NOT NULL OR upper IS NOT NULL THEN
		SELECT (min(p.month_from) AT TIME ZONE 'UTC')::date, (max(p.month_to) AT TIME ZONE 'UTC')::date INTO first_m, last_m
			FROM monthly_partitions(parent) p;
		IF first_m IS NULL THEN
			RAISE EXCEPTION 'ensure_monthly_partitions: % has catch-all partitions and no monthly one', parent USING ERRCODE = '55000';
		END IF;
		fm := least(fm, first_m);
		tm := greatest(tm, last_m);
		IF fm < first_m - interval '25 years' OR tm > last_m + interval '25 years' THEN
			RAISE EXCEPTION 'ensure_monthly_partitions: % to % would create more than 25 years of partitions', "from", "to"
				USING ERRCODE = '22023';
		END IF;
		IF lower IS NOT NULL AND fm < first_m THEN
			EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, lower);
			lower_out := true;
			srcs := srcs || lower;
		END IF;
		IF upper IS NOT NULL AND tm > last_m THEN
			EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, upper);
			upper_out := true;
			srcs := srcs || upper;
		END IF;
	END IF;
	IF def IS NOT NULL THEN
		srcs := srcs || def;
	END IF;
	-- The owner reads every tenant's rows of a source it moves them out of (secure_partition
	-- forces row-level security again on each).
	FOREACH src IN ARRAY srcs LOOP
		EXECUTE format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY', src);
	END LOOP;
	m := fm;
	WHILE m < tm LOOP
		child := base || '_p' || to_char(m, 'YYYYMM');
		lo := m::timestamp AT TIME ZONE 'UTC';
		hi := (m + interval '1 month')::timestamp AT TIME ZONE 'UTC';
		IF to_regclass(quote_ident(child)) IS NULL THEN
			-- Created on its own and then attached (SHARE UPDATE EXCLUSIVE on the parent), as in 0043.
			PERFORM create_monthly_partition_table(parent, child);
			FOREACH src IN ARRAY srcs LOOP
				EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE %I >= $1 AND %I < $2)', src, col, col) INTO has_rows USING lo, hi;
				IF has_rows THEN
					EXECUTE format('INSERT INTO %I SELECT * FROM %s WHERE %I >= $1 AND %I < $2', child, src, col, col) USING lo, hi;
					EXECUTE format('DELETE FROM %s WHERE %I >= $1 AND %I < $2', src, col, col) USING lo, hi;
				END IF;
			END LOOP;
			EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, child, lo, hi);
			PERFORM secure_partition(child::regclass);
			RETURN NEXT child;
		END IF;
		m := (m + interval '1 month')::date;
	END LOOP;
	IF lower_out THEN
		EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (MINVALUE) TO (%L)', parent, lower,
			fm::timestamp AT TIME ZONE 'UTC');
	END IF;
	IF upper_out THEN
		EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%L) TO (MAXVALUE)', parent, upper,
			tm::timestamp AT TIME ZONE 'UTC');
	END IF;
	FOREACH src IN ARRAY srcs LOOP
		PERFORM secure_partition(src);
	END LOOP;
END $$;
-- +goose StatementEnd

-- close_monthly_gap (0049's did nothing) keeps parent's range covered after the partition of
-- month was dropped: the oldest month's range goes to <parent>_before; a month between others
-- gets an empty partition again (a late row of that month has somewhere to go).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION close_monthly_gap(parent regclass, month date) RETURNS void LANGUAGE plpgsql
SET search_path = public, pg_temp AS $$
DECLARE
	base text;
	lower regclass;
	first_m timestamptz;
	hi timestamptz;
BEGIN
	SELECT c.relname INTO base FROM pg_class c WHERE c.oid = parent;
	lower := to_regclass(quote_ident(base || '_before'));
	IF lower IS NULL THEN
		RETURN; -- a default partition takes the month's values
	END IF;
	SELECT min(p.month_from) INTO first_m FROM monthly_partitions(parent) p;
	hi := (month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
	IF first_m IS NULL OR first_m >= hi THEN
		EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, lower);
		EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (MINVALUE) TO (%L)', parent, lower, hi);
	ELSE
		PERFORM ensure_monthly_partitions(parent, month, (month + interval '1 month')::date);
	END IF;
END $$;
-- +goose StatementEnd

-- drop_monthly_partition (0043) keeps the range covered too.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION drop_monthly_partition(parent regclass, month date) RETURNS boolean
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
	PERFORM close_monthly_gap(parent, date_trunc('month', month)::date);
	RETURN true;
END $$;
-- +goose StatementEnd

-- The conversion: fill the gaps between the monthly partitions (the default's rows of those
-- months move in), then move the default's rows to the two catch-alls and drop it.
-- +goose StatementBegin
DO $$
DECLARE
	p text;
	col text;
	first_m timestamptz;
	last_m timestamptz;
BEGIN
	FOREACH p IN ARRAY ARRAY['transactions', 'audit_events'] LOOP
		col := CASE p WHEN 'transactions' THEN 'transaction_timestamp' ELSE 'created_at' END;
		SELECT min(x.month_from), max(x.month_to) INTO first_m, last_m FROM monthly_partitions(p::regclass) x;
		PERFORM ensure_monthly_partitions(p::regclass, (first_m AT TIME ZONE 'UTC')::date, (last_m AT TIME ZONE 'UTC')::date);
		EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', p, p || '_default');
		EXECUTE format('ALTER TABLE %I NO FORCE ROW LEVEL SECURITY', p || '_default');
		PERFORM create_monthly_partition_table(p::regclass, p || '_before');
		PERFORM create_monthly_partition_table(p::regclass, p || '_after');
		EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE %I < $1', p || '_before', p || '_default', col) USING first_m;
		EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE %I >= $1', p || '_after', p || '_default', col) USING last_m;
		EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', p, p || '_before', first_m);
		EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (MAXVALUE)', p, p || '_after', last_m);
		PERFORM secure_partition((p || '_before')::regclass);
		PERFORM secure_partition((p || '_after')::regclass);
		EXECUTE format('DROP TABLE %I', p || '_default');
	END LOOP;
END $$;
-- +goose StatementEnd

-- +goose Down
-- The catch-alls back into a default partition; the functions as 0043 and 0049 left them.
-- +goose StatementBegin
DO $$
DECLARE
	p text;
BEGIN
	FOREACH p IN ARRAY ARRAY['transactions', 'audit_events'] LOOP
		EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', p, p || '_before');
		EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', p, p || '_after');
		EXECUTE format('ALTER TABLE %I NO FORCE ROW LEVEL SECURITY', p || '_before');
		EXECUTE format('ALTER TABLE %I NO FORCE ROW LEVEL SECURITY', p || '_after');
		PERFORM create_monthly_partition_table(p::regclass, p || '_default');
		EXECUTE format('INSERT INTO %I SELECT * FROM %I', p || '_default', p || '_before');
		EXECUTE format('INSERT INTO %I SELECT * FROM %I', p || '_default', p || '_after');
		EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I DEFAULT', p, p || '_default');
		PERFORM secure_partition((p || '_default')::regclass);
		EXECUTE format('DROP TABLE %I, %I', p || '_before', p || '_after');
	END LOOP;
END $$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION close_monthly_gap(parent regclass, month date) RETURNS void LANGUAGE plpgsql
SET search_path = public, pg_temp AS $$
BEGIN
END $$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION monthly_partitions(parent regclass) RETURNS TABLE (name text, month_from timestamptz, month_to timestamptz)
LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
	SELECT c.relname::text,
		(regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''([^'']+)''\)'))[1]::timestamptz,
		(regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1]::timestamptz
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	WHERE i.inhparent = parent AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
$$;
-- +goose StatementEnd
-- ensure_monthly_partitions and drop_monthly_partition as 0043 made them.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ensure_monthly_partitions(parent regclass, "from" date, "to" date) RETURNS SETOF text
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
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION drop_monthly_partition(parent regclass, month date) RETURNS boolean
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
DROP FUNCTION create_monthly_partition_table(regclass, text);
