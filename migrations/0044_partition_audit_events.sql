-- +goose Up
-- Monthly range partitioning of audit_events by created_at (issue 54), converted in place like
-- transactions (0043): same columns, statistics settings, primary key (now with created_at),
-- index, foreign key, row-level security and append-only grants (0021).
ALTER TABLE audit_events RENAME TO audit_events_unpartitioned;
ALTER TABLE audit_events_unpartitioned RENAME CONSTRAINT audit_events_pkey TO audit_events_unpartitioned_pkey;
ALTER TABLE audit_events_unpartitioned RENAME CONSTRAINT audit_events_tenant_id_fkey TO audit_events_unpartitioned_tenant_id_fkey;
ALTER INDEX audit_events_tenant_created_idx RENAME TO audit_events_unpartitioned_tenant_created_idx;

CREATE TABLE audit_events (LIKE audit_events_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE
	INCLUDING COMPRESSION INCLUDING STATISTICS) PARTITION BY RANGE (created_at);
ALTER TABLE audit_events ALTER COLUMN before SET STATISTICS 0, ALTER COLUMN after SET STATISTICS 0;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id, created_at);
ALTER TABLE audit_events ADD CONSTRAINT audit_events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id);
CREATE INDEX audit_events_tenant_created_idx ON audit_events (tenant_id, created_at DESC, id DESC);
ALTER TABLE audit_events ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_events USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
REVOKE ALL ON audit_events FROM complyd_app;
GRANT SELECT, INSERT ON audit_events TO complyd_app;
INSERT INTO monthly_partitioned_tables VALUES ('audit_events');

CREATE TABLE audit_events_default PARTITION OF audit_events DEFAULT;
ALTER TABLE audit_events_default ALTER COLUMN before SET STATISTICS 0, ALTER COLUMN after SET STATISTICS 0;
SELECT secure_partition('audit_events_default');
SELECT ensure_monthly_partitions('audit_events', m, (m + interval '1 month')::date)
FROM (SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS m FROM audit_events_unpartitioned
	WHERE created_at >= now() - interval '10 years') months;
SELECT ensure_monthly_partitions('audit_events', (now() AT TIME ZONE 'UTC')::date,
	(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '4 months')::date);
INSERT INTO audit_events SELECT * FROM audit_events_unpartitioned;
DROP TABLE audit_events_unpartitioned;

-- +goose Down
DELETE FROM monthly_partitioned_tables WHERE parent = 'audit_events'::regclass;
ALTER TABLE audit_events RENAME TO audit_events_partitioned;
CREATE TABLE audit_events (LIKE audit_events_partitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE
	INCLUDING COMPRESSION INCLUDING STATISTICS);
ALTER TABLE audit_events ALTER COLUMN before SET STATISTICS 0, ALTER COLUMN after SET STATISTICS 0;
INSERT INTO audit_events SELECT * FROM audit_events_partitioned;
DROP TABLE audit_events_partitioned;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id);
ALTER TABLE audit_events ADD CONSTRAINT audit_events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id);
CREATE INDEX audit_events_tenant_created_idx ON audit_events (tenant_id, created_at DESC, id DESC);
ALTER TABLE audit_events ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_events USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
REVOKE ALL ON audit_events FROM complyd_app;
GRANT SELECT, INSERT ON audit_events TO complyd_app;
