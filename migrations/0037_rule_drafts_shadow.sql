-- +goose Up
-- Issue 53 points 2 to 4 (docs/guide/rules.md): a rule change is a draft, back-tested and shadowed on
-- live screenings before a second officer publishes it (maker-checker).
--
-- rule_drafts: a proposed custom rule (rule_id null) or a proposed new version of a live rule
-- (rule_id and the version it was drafted from, base_version). A draft is DRAFT until it is
-- PUBLISHED (by published_by, with publish_reason, as version published_version of
-- published_rule_id) or DISCARDED. A draft shadows live screenings while shadow_started_at is
-- set and neither shadow_stopped_at nor shadow_ends_at has passed.
CREATE TABLE rule_drafts (
  tenant_id          uuid NOT NULL REFERENCES tenants (id),
  id                 text NOT NULL,
  rule_id            text,
  base_version       integer,
  name               text NOT NULL,
  description        text,
  expression         text NOT NULL,
  score              integer NOT NULL CHECK (score BETWEEN 0 AND 100),
  outcome            text NOT NULL CHECK (outcome IN ('APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK')),
  enabled            boolean NOT NULL,
  status             text NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'PUBLISHED', 'DISCARDED')),
  created_by         text NOT NULL,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  published_by       text,
  published_at       timestamptz,
  publish_reason     text,
  published_rule_id  text,
  published_version  integer,
  shadow_started_at  timestamptz,
  shadow_ends_at     timestamptz,
  shadow_stopped_at  timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX rule_drafts_shadowing ON rule_drafts (tenant_id) WHERE status = 'DRAFT' AND shadow_started_at IS NOT NULL AND shadow_stopped_at IS NULL;
ALTER TABLE rule_drafts ENABLE ROW LEVEL SECURITY;
ALTER TABLE rule_drafts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rule_drafts USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT, UPDATE ON rule_drafts TO complyd_app;

-- rule_shadow_results: what a shadowed draft said of one live screening, beside what the live
-- rules decided. Written after the screening is stored, in batches, off the screening's path;
-- never read by screening, cases or reports.
CREATE TABLE rule_shadow_results (
  tenant_id       uuid NOT NULL REFERENCES tenants (id),
  draft_id        text NOT NULL,
  transaction_id  uuid NOT NULL,
  external_id     text NOT NULL,
  screened_at     timestamptz NOT NULL,
  matched         boolean NOT NULL,
  eval_error      boolean NOT NULL DEFAULT false,
  live_outcome    text NOT NULL,
  live_case       boolean NOT NULL,
  shadow_outcome  text NOT NULL,
  shadow_case     boolean NOT NULL,
  PRIMARY KEY (tenant_id, draft_id, transaction_id)
);
CREATE INDEX rule_shadow_results_recent ON rule_shadow_results (tenant_id, draft_id, screened_at DESC);
ALTER TABLE rule_shadow_results ENABLE ROW LEVEL SECURITY;
ALTER TABLE rule_shadow_results FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rule_shadow_results USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT ON rule_shadow_results TO complyd_app;

-- The tenant's rule controls (docs/guide/rules.md "Maker-checker"): a draft is published by a second
-- officer unless rule_single_person (a tenant with one officer); direct POST/PATCH/DELETE
-- /rules (docs/design/design-choices.md §10) stay open unless rule_drafts_required.
ALTER TABLE tenant_settings
  ADD COLUMN rule_single_person   boolean NOT NULL DEFAULT false,
  ADD COLUMN rule_drafts_required boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE tenant_settings DROP COLUMN rule_single_person, DROP COLUMN rule_drafts_required;
DROP TABLE rule_shadow_results;
DROP TABLE rule_drafts;
