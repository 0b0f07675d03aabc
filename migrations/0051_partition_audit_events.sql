-- +goose Up
-- The audit log partitioned by month of created_at (issue 54, docs/performance-at-scale.md
-- "Partitioning"), converted in place as 0050 converts transactions: the audit list and export
-- (always newest first, optionally bounded by from/to) read the months they ask for, and a month
-- past retention is archived and dropped whole. The primary key becomes (id, created_at), as a
-- partitioned table's unique constraints must include its partition key; nothing refers to an
-- audit row by id alone.
LOCK TABLE audit_events IN ACCESS EXCLUSIVE MODE;
ALTER TABLE audit_events RENAME TO audit_events_unpartitioned;
ALTER TABLE audit_events_unpartitioned RENAME CONSTRAINT audit_events_pkey TO audit_events_unpartitioned_pkey;
ALTER TABLE audit_events_unpartitioned RENAME CONSTRAINT audit_events_tenant_id_fkey TO audit_events_unpartitioned_tenant_id_fkey;
ALTER INDEX audit_events_tenant_created_idx RENAME TO audit_events_unpartitioned_tenant_created_idx;
CREATE TABLE audit_events (LIKE audit_events_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS
  INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE (created_at);
ALTER TABLE audit_events ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id, created_at);
ALTER TABLE audit_events ADD CONSTRAINT audit_events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id);
ALTER TABLE audit_events ALTER COLUMN before SET STATISTICS 0, ALTER COLUMN after SET STATISTICS 0;
CREATE TABLE audit_events_default PARTITION OF audit_events DEFAULT;
ALTER TABLE audit_events_unpartitioned NO FORCE ROW LEVEL SECURITY;
SELECT ensure_monthly_partitions('audit_events',
  greatest(coalesce((SELECT min(created_at) FROM audit_events_unpartitioned), now()), now() - interval '10 years'),
  now() + interval '3 months');
INSERT INTO audit_events SELECT * FROM audit_events_unpartitioned;
DROP TABLE audit_events_unpartitioned;
CREATE INDEX audit_events_tenant_created_idx ON audit_events (tenant_id, created_at DESC, id DESC);
ALTER TABLE audit_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_events USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
ALTER TABLE audit_events_default ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_events_default FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_events_default USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT ON audit_events TO complyd_app;
REVOKE UPDATE, DELETE ON audit_events, audit_events_default FROM complyd_app;

-- +goose Down
LOCK TABLE audit_events IN ACCESS EXCLUSIVE MODE;
ALTER TABLE audit_events RENAME TO audit_events_partitioned;
ALTER TABLE audit_events_partitioned RENAME CONSTRAINT audit_events_pkey TO audit_events_partitioned_pkey;
ALTER TABLE audit_events_partitioned RENAME CONSTRAINT audit_events_tenant_id_fkey TO audit_events_partitioned_tenant_id_fkey;
ALTER INDEX audit_events_tenant_created_idx RENAME TO audit_events_partitioned_tenant_created_idx;
CREATE TABLE audit_events (LIKE audit_events_partitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS
  INCLUDING STORAGE INCLUDING COMPRESSION);
ALTER TABLE audit_events_partitioned NO FORCE ROW LEVEL SECURITY;
INSERT INTO audit_events SELECT * FROM audit_events_partitioned;
DROP TABLE audit_events_partitioned;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id);
ALTER TABLE audit_events ADD CONSTRAINT audit_events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id);
ALTER TABLE audit_events ALTER COLUMN before SET STATISTICS 0, ALTER COLUMN after SET STATISTICS 0;
CREATE INDEX audit_events_tenant_created_idx ON audit_events (tenant_id, created_at DESC, id DESC);
ALTER TABLE audit_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_events USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT ON audit_events TO complyd_app;
REVOKE UPDATE, DELETE ON audit_events FROM complyd_app;
