-- +goose Up
-- Issue 53 point 1 (docs/design/engines.md "Rule versions"): every change of a custom rule is a new
-- immutable version, and every stored verdict names the versions of the custom rules that
-- evaluated it, as it names its engine configuration (migration 0016). rule_versions is
-- append-only and outlives its rule: a verdict of two years ago still reads the expression, score
-- and outcome that decided it after the rule was changed or deleted (so no foreign key to
-- screening_rules).
ALTER TABLE screening_rules ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version > 0);

CREATE TABLE rule_versions (
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  rule_id     text NOT NULL,
  version     integer NOT NULL CHECK (version > 0),
  name        text NOT NULL,
  description text,
  expression  text NOT NULL,
  score       integer NOT NULL CHECK (score BETWEEN 0 AND 100),
  outcome     text NOT NULL CHECK (outcome IN ('APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK')),
  enabled     boolean NOT NULL,
  created_by  text NOT NULL,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, rule_id, version)
);
ALTER TABLE rule_versions ENABLE ROW LEVEL SECURITY;
ALTER TABLE rule_versions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rule_versions USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT ON rule_versions TO complyd_app;

-- Version 1 of every rule stored before this migration: its current state, by its author.
INSERT INTO rule_versions (tenant_id, rule_id, version, name, description, expression, score, outcome, enabled,
  created_by, created_at)
SELECT tenant_id, id, 1, name, description, expression, score, outcome, enabled, created_by, updated_at
FROM screening_rules;

-- rule_versions of a verdict: {rule id: version} of the enabled custom rules evaluated; {} for
-- verdicts stored before this migration.
ALTER TABLE transactions ADD COLUMN rule_versions jsonb NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE transactions DROP COLUMN rule_versions;
DROP TABLE rule_versions;
ALTER TABLE screening_rules DROP COLUMN version;
