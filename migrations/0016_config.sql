-- +goose Up
-- Issue 16 point 8: the high-risk and monitored jurisdictions of the Decision Engine become data
-- (docs/guide/countries.md). country_risk_defaults is the global default, dated and sourced; tenants
-- override single countries in tenant_country_overrides (level NONE removes a default country).
-- A change notifies complyd_screening_settings so every replica reloads that tenant's settings.
CREATE TABLE country_risk_defaults (
  country      text PRIMARY KEY CHECK (country ~ '^[A-Z]{2}$'),
  level        text NOT NULL CHECK (level IN ('CALL_FOR_ACTION', 'MONITORED')),
  source       text NOT NULL,
  published_on date NOT NULL
);

-- FATF, "High-Risk Jurisdictions subject to a Call for Action" and "Jurisdictions under Increased
-- Monitoring", both published 24 October 2025 (plenary of 22–24 October 2025): the lists the
-- Decision Engine had hard-coded (screening.DefaultDecisionConfig).
INSERT INTO country_risk_defaults (country, level, source, published_on)
SELECT c, 'CALL_FOR_ACTION', 'FATF High-Risk Jurisdictions subject to a Call for Action', DATE '2025-10-24'
FROM unnest(ARRAY['KP', 'IR', 'MM']) AS c;
INSERT INTO country_risk_defaults (country, level, source, published_on)
SELECT c, 'MONITORED', 'FATF Jurisdictions under Increased Monitoring', DATE '2025-10-24'
FROM unnest(ARRAY['DZ', 'AO', 'BO', 'BG', 'CM', 'CI', 'CD', 'HT', 'KE', 'LA', 'LB', 'MC', 'NA', 'NP', 'SS', 'SY',
  'VE', 'VN', 'YE', 'VG']) AS c;

CREATE TABLE tenant_country_overrides (
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  country    text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  level      text NOT NULL CHECK (level IN ('CALL_FOR_ACTION', 'MONITORED', 'NONE')),
  reason     text NOT NULL,
  updated_by uuid,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, country)
);
ALTER TABLE tenant_country_overrides ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenant_country_overrides FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenant_country_overrides USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());

GRANT SELECT ON country_risk_defaults TO complyd_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON tenant_country_overrides TO complyd_app;

-- Issue 16 point 9 (docs/design/engines.md): versions of a tenant's engine configuration (weights within
-- bounds, optional engines disabled). Append-only: a change inserts the next version; the latest
-- is in force. Every stored verdict names the version it was scored with (engine_config_id;
-- 'default' for the built-in configuration, and for verdicts stored before this migration).
CREATE TABLE tenant_engine_configs (
  id         text PRIMARY KEY,
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  version    integer NOT NULL CHECK (version > 0),
  weights    jsonb NOT NULL,
  disabled   text[] NOT NULL,
  reason     text NOT NULL,
  created_by uuid,
  created_at timestamptz NOT NULL,
  UNIQUE (tenant_id, version)
);
ALTER TABLE tenant_engine_configs ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenant_engine_configs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenant_engine_configs USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT ON tenant_engine_configs TO complyd_app;

ALTER TABLE transactions ADD COLUMN engine_config_id text NOT NULL DEFAULT 'default';

-- +goose Down
ALTER TABLE transactions DROP COLUMN engine_config_id;
DROP TABLE tenant_engine_configs, tenant_country_overrides, country_risk_defaults;
