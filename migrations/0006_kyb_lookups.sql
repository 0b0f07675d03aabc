-- +goose Up
-- KYB applications (docs/reference/specification.md 2.6, 3.3, 4.5; docs/design/design-choices.md §5; docs/guide/kyb.md). directors and
-- beneficial_owners are jsonb arrays of the spec's objects plus our verification facts
-- (verified, clean, hits); rc_key is the RC number without spaces and "RC" prefix, so the
-- screening pipeline finds an application whatever form the bank sends (StoredKYB).
CREATE TABLE kyb_applications (
  id                 text PRIMARY KEY,
  tenant_id          uuid NOT NULL REFERENCES tenants (id),
  company_name       text NOT NULL,
  rc_number          text NOT NULL DEFAULT '',
  rc_key             text NOT NULL DEFAULT '',
  tin                text NOT NULL DEFAULT '',
  address            text NOT NULL DEFAULT '',
  incorporation_date date,
  business_activity  text NOT NULL DEFAULT '',
  operating_country  text NOT NULL DEFAULT '',
  status             text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DOCUMENT_UPLOADED', 'CAC_VERIFIED',
                       'DIRECTORS_VERIFIED', 'BENEFICIAL_OWNERS_VERIFIED', 'SCREENING_PASSED', 'APPROVED', 'REJECTED')),
  risk_level         text,
  directors          jsonb NOT NULL DEFAULT '[]',
  beneficial_owners  jsonb NOT NULL DEFAULT '[]',
  cac_verified       boolean NOT NULL DEFAULT false,
  directors_verified boolean NOT NULL DEFAULT false,
  owners_clean       boolean NOT NULL DEFAULT false,
  company            jsonb,
  profile_id         text,
  assigned_to        uuid,
  notes              text,
  created_by         uuid,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kyb_applications_tenant_created_idx ON kyb_applications (tenant_id, created_at DESC, id DESC);
CREATE INDEX kyb_applications_tenant_status_idx ON kyb_applications (tenant_id, status, created_at);
CREATE INDEX kyb_applications_tenant_rc_idx ON kyb_applications (tenant_id, rc_key, created_at DESC) WHERE rc_key <> '';

-- The evidence trail of KYB checks: one row per CAC lookup, director check and owner screening.
-- A paid check's row commits with its charge (docs/guide/wallet.md).
CREATE TABLE kyb_checks (
  id              text PRIMARY KEY,
  tenant_id       uuid NOT NULL REFERENCES tenants (id),
  application_id  text NOT NULL REFERENCES kyb_applications (id),
  check_type      text NOT NULL CHECK (check_type IN ('CAC', 'DIRECTOR', 'BENEFICIAL_OWNER')),
  subject         text NOT NULL,
  passed          boolean NOT NULL,
  confidence      double precision NOT NULL DEFAULT 0,
  provider        text NOT NULL DEFAULT '',
  provider_source text NOT NULL DEFAULT '',
  detail          jsonb,
  charged         numeric(20,2) NOT NULL DEFAULT 0,
  checked_at      timestamptz NOT NULL
);
CREATE INDEX kyb_checks_app_idx ON kyb_checks (tenant_id, application_id, checked_at);

-- Saved customer profiles from direct lookups (docs/design/design-choices.md §6, docs/guide/lookups.md). One profile per
-- looked-up identifier (profile_key = "BVN:<n>", "NIN:<n>" or "CAC:<rc>"); a repeated lookup
-- refreshes it.
CREATE TABLE customer_profiles (
  id            text PRIMARY KEY,
  tenant_id     uuid NOT NULL REFERENCES tenants (id),
  profile_type  text NOT NULL CHECK (profile_type IN ('INDIVIDUAL', 'BUSINESS')),
  profile_key   text NOT NULL,
  display_name  text NOT NULL,
  bvn           text NOT NULL DEFAULT '',
  nin           text NOT NULL DEFAULT '',
  rc_number     text NOT NULL DEFAULT '',
  data          jsonb NOT NULL,
  source        text NOT NULL,
  lookup_count  integer NOT NULL DEFAULT 1,
  last_lookup_at timestamptz NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  CONSTRAINT customer_profiles_key UNIQUE (tenant_id, profile_key)
);
CREATE INDEX customer_profiles_tenant_updated_idx ON customer_profiles (tenant_id, updated_at DESC, id DESC);

-- Lookup history: every charged lookup (found or not). hold_id is the wallet hold the charge
-- settled, so a lookup and its charge are one-to-one.
CREATE TABLE lookups (
  id              text PRIMARY KEY,
  tenant_id       uuid NOT NULL REFERENCES tenants (id),
  seq             bigserial NOT NULL,
  lookup_type     text NOT NULL CHECK (lookup_type IN ('BVN', 'NIN', 'CAC')),
  query           text NOT NULL,
  found           boolean NOT NULL,
  profile_id      text REFERENCES customer_profiles (id),
  provider        text NOT NULL,
  provider_source text NOT NULL,
  charged         numeric(20,2) NOT NULL,
  hold_id         uuid NOT NULL,
  actor_id        uuid,
  created_at      timestamptz NOT NULL,
  CONSTRAINT lookups_hold_key UNIQUE (hold_id)
);
CREATE INDEX lookups_tenant_seq_idx ON lookups (tenant_id, seq DESC);

-- Low-balance warning (docs/guide/wallet.md): the tenant's threshold (NULL = COMPLYD_LOW_BALANCE_THRESHOLD)
-- and whether the current crossing below it was already mailed.
ALTER TABLE tenant_settings ADD COLUMN low_balance_threshold numeric(20,2) CHECK (low_balance_threshold >= 0);
ALTER TABLE wallets ADD COLUMN low_balance_notified boolean NOT NULL DEFAULT false;

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['kyb_applications', 'kyb_checks', 'customer_profiles', 'lookups'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

GRANT SELECT, INSERT, UPDATE, DELETE ON kyb_applications, kyb_checks, customer_profiles TO complyd_app;
-- Lookup history is append-only like the ledger.
GRANT SELECT, INSERT ON lookups TO complyd_app;
GRANT USAGE, SELECT, UPDATE ON SEQUENCE lookups_seq_seq TO complyd_app;

-- +goose Down
ALTER TABLE wallets DROP COLUMN low_balance_notified;
ALTER TABLE tenant_settings DROP COLUMN low_balance_threshold;
DROP TABLE lookups, customer_profiles, kyb_checks, kyb_applications;
