-- +goose Up
-- sanctions_rescreen_cases makes re-screening case opening idempotent: one case per tenant,
-- subject and list entry, whichever job (or retry of it) gets there first (docs/guide/sanctions.md).
CREATE TABLE sanctions_rescreen_cases (
  tenant_id    uuid NOT NULL REFERENCES tenants (id),
  subject_type text NOT NULL,
  subject_id   text NOT NULL,
  entry_id     text NOT NULL,
  case_id      text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, subject_type, subject_id, entry_id)
);
ALTER TABLE sanctions_rescreen_cases ENABLE ROW LEVEL SECURITY;
ALTER TABLE sanctions_rescreen_cases FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sanctions_rescreen_cases USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT, UPDATE, DELETE ON sanctions_rescreen_cases TO complyd_app;

-- +goose Down
DROP TABLE sanctions_rescreen_cases;
