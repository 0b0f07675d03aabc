-- +goose Up
-- Global sanctions/PEP lists (docs/guide/sanctions.md): no tenant, no RLS. Every import stores a new
-- version and moves sanctions_lists.current_version to it in one transaction, so a bad file
-- never replaces the version in force.
CREATE TABLE sanctions_lists (
  name            text PRIMARY KEY,
  type            text NOT NULL CHECK (type IN ('SANCTIONS', 'PEP')),
  current_version integer,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sanctions_list_versions (
  id           bigserial PRIMARY KEY,
  list         text NOT NULL REFERENCES sanctions_lists (name),
  version      integer NOT NULL,
  format       text NOT NULL,
  source_files jsonb NOT NULL, -- [{name, sha256, bytes}]
  entry_count  integer NOT NULL,
  imported_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT sanctions_list_versions_list_version_key UNIQUE (list, version)
);

-- One row per listed party of one version; the entry is sanctions.Entry as JSON.
CREATE TABLE sanctions_entries (
  version_id bigint NOT NULL REFERENCES sanctions_list_versions (id) ON DELETE CASCADE,
  entry_id   text NOT NULL,
  entry      jsonb NOT NULL,
  PRIMARY KEY (version_id, entry_id)
);

-- Tenant watchlists (docs/design/design-choices.md §10).
CREATE TABLE watchlists (
  id         uuid PRIMARY KEY,
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  name       text NOT NULL,
  type       text NOT NULL CHECK (type IN ('SANCTIONS', 'PEP', 'INTERNAL')),
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT watchlists_tenant_name_key UNIQUE (tenant_id, name)
);

CREATE TABLE watchlist_entries (
  id            uuid PRIMARY KEY,
  tenant_id     uuid NOT NULL REFERENCES tenants (id),
  watchlist_id  uuid NOT NULL REFERENCES watchlists (id) ON DELETE CASCADE,
  name          text NOT NULL,
  aliases       text[] NOT NULL DEFAULT '{}',
  entity_type   text CHECK (entity_type IN ('INDIVIDUAL', 'BUSINESS')),
  date_of_birth date,
  country       text,
  reference     text,
  created_by    uuid,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX watchlist_entries_list_idx ON watchlist_entries (tenant_id, watchlist_id, created_at, id);

-- Reviewed false positives: while active, (subject_key, entry_id) no longer alerts.
CREATE TABLE sanctions_false_positives (
  id          uuid PRIMARY KEY,
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  subject_key text NOT NULL,
  entry_id    text NOT NULL,
  reason      text NOT NULL,
  created_by  uuid,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  revoked_by  uuid
);
CREATE UNIQUE INDEX sanctions_false_positives_active_key ON sanctions_false_positives (tenant_id, subject_key, entry_id)
  WHERE revoked_at IS NULL;
CREATE INDEX sanctions_false_positives_tenant_idx ON sanctions_false_positives (tenant_id, created_at DESC, id DESC);

-- What re-screening found, so that re-runs never open a second case for the same hit.
CREATE TABLE sanctions_rescreen_hits (
  tenant_id    uuid NOT NULL REFERENCES tenants (id),
  subject_type text NOT NULL,
  subject_id   text NOT NULL,
  entry_id     text NOT NULL,
  list         text NOT NULL,
  list_version text NOT NULL,
  score        double precision NOT NULL,
  found_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, subject_type, subject_id, entry_id)
);

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['watchlists', 'watchlist_entries', 'sanctions_false_positives', 'sanctions_rescreen_hits'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO complyd_app;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO complyd_app;

-- +goose Down
DROP TABLE sanctions_rescreen_hits, sanctions_false_positives, watchlist_entries, watchlists,
  sanctions_entries, sanctions_list_versions, sanctions_lists;
