-- +goose Up
-- The application role: the service SET ROLEs to it on every pooled connection, so row-level
-- security applies even when DATABASE_URL names a superuser (docs/design/architecture.md, Tenancy).
-- +goose StatementBegin
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'complyd_app') THEN
    CREATE ROLE complyd_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
  EXECUTE format('GRANT complyd_app TO %I', current_user);
END
$$;
-- +goose StatementEnd
GRANT USAGE ON SCHEMA public TO complyd_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO complyd_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO complyd_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT EXECUTE ON FUNCTIONS TO complyd_app;

-- app_tenant is the tenant of the current transaction, set by the store with
-- set_config('app.tenant_id', $1, true). Unset means no tenant rows are visible.
CREATE FUNCTION app_tenant() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT nullif(current_setting('app.tenant_id', true), '')::uuid $$;

-- tenants holds only public identity (shown on login pages); settings live in tenant_settings.
CREATE TABLE tenants (
  id            uuid PRIMARY KEY,
  name          text NOT NULL,
  slug          text NOT NULL,
  logo_url      text,
  primary_color text NOT NULL DEFAULT '#0B5FFF',
  created_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT tenants_slug_key UNIQUE (slug)
);
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
CREATE POLICY tenants_read ON tenants FOR SELECT USING (true);
CREATE POLICY tenants_write ON tenants FOR INSERT WITH CHECK (id = app_tenant());
CREATE POLICY tenants_update ON tenants FOR UPDATE USING (id = app_tenant());

CREATE TABLE tenant_settings (
  tenant_id         uuid PRIMARY KEY REFERENCES tenants (id),
  mfa_required      boolean NOT NULL DEFAULT false,
  kyc_trust_mode    text NOT NULL DEFAULT 'STRICT',
  kyc_fallback_mode text NOT NULL DEFAULT 'WALLET_RESERVE',
  provider_mode     text NOT NULL DEFAULT 'EMBEDDED',
  tier_limits       jsonb NOT NULL DEFAULT '{"TIER_1": "50000", "TIER_2": "200000", "TIER_3": "5000000"}',
  expiry_days       integer NOT NULL DEFAULT 90,
  updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id            uuid PRIMARY KEY,
  tenant_id     uuid NOT NULL REFERENCES tenants (id),
  email         text NOT NULL,
  password_hash text NOT NULL,
  first_name    text NOT NULL,
  last_name     text NOT NULL,
  role          text NOT NULL CHECK (role IN ('BANK_ADMIN', 'COMPLIANCE_OFFICER', 'ANALYST', 'AUDITOR')),
  is_active     boolean NOT NULL DEFAULT true,
  totp_secret   text,
  last_login_at timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_tenant_created_idx ON users (tenant_id, created_at, id);

-- user_emails is the global login directory: email -> (tenant, user). Emails are unique across
-- the service because login does not name a tenant. It holds no secrets and has no RLS.
CREATE TABLE user_emails (
  email     text PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  user_id   uuid NOT NULL REFERENCES users (id)
);

CREATE TABLE token_families (
  id            uuid PRIMARY KEY,
  tenant_id     uuid NOT NULL REFERENCES tenants (id),
  user_id       uuid NOT NULL REFERENCES users (id),
  revoked_at    timestamptz,
  revoke_reason text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX token_families_user_idx ON token_families (tenant_id, user_id);

CREATE TABLE refresh_tokens (
  id         uuid PRIMARY KEY,
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  family_id  uuid NOT NULL REFERENCES token_families (id),
  user_id    uuid NOT NULL REFERENCES users (id),
  token_hash bytea NOT NULL,
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT refresh_tokens_hash_key UNIQUE (token_hash)
);

CREATE TABLE api_keys (
  id           uuid PRIMARY KEY,
  tenant_id    uuid NOT NULL REFERENCES tenants (id),
  created_by   uuid NOT NULL REFERENCES users (id),
  name         text NOT NULL,
  prefix       text NOT NULL,
  key_hash     bytea NOT NULL,
  expires_at   timestamptz,
  revoked_at   timestamptz,
  last_used_at timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT api_keys_hash_key UNIQUE (key_hash)
);
CREATE INDEX api_keys_tenant_idx ON api_keys (tenant_id, created_at DESC);

CREATE TABLE mfa_challenges (
  id             uuid PRIMARY KEY,
  tenant_id      uuid NOT NULL REFERENCES tenants (id),
  user_id        uuid NOT NULL REFERENCES users (id),
  token_hash     bytea NOT NULL,
  pending_secret text,
  use_cookies    boolean NOT NULL DEFAULT false,
  attempts       integer NOT NULL DEFAULT 0,
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT mfa_challenges_hash_key UNIQUE (token_hash)
);

CREATE TABLE audit_events (
  id            uuid PRIMARY KEY,
  tenant_id     uuid NOT NULL REFERENCES tenants (id),
  actor_id      uuid,
  actor_type    text NOT NULL,
  action        text NOT NULL,
  resource_type text NOT NULL,
  resource_id   text,
  before        jsonb,
  after         jsonb,
  ip_address    text,
  request_id    text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_events_tenant_created_idx ON audit_events (tenant_id, created_at DESC, id DESC);

-- emails is the outbox of every mail; a River job sends (or, without SMTP, records) each one.
CREATE TABLE emails (
  id         uuid PRIMARY KEY,
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  kind       text NOT NULL,
  to_address text NOT NULL,
  subject    text NOT NULL,
  text_body  text NOT NULL,
  html_body  text NOT NULL DEFAULT '',
  status     text NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'SENT', 'LOGGED', 'FAILED')),
  attempts   integer NOT NULL DEFAULT 0,
  last_error text,
  sent_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX emails_tenant_created_idx ON emails (tenant_id, created_at DESC);

-- scs session store for the dashboard cookie form (alexedwards/scs pgxstore layout).
CREATE TABLE sessions (
  token  text PRIMARY KEY,
  data   bytea NOT NULL,
  expiry timestamptz NOT NULL
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

-- Row-level security on every tenant-owned table: the second wall behind the WHERE clauses.
-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['tenant_settings', 'users', 'token_families', 'refresh_tokens', 'api_keys',
                           'mfa_challenges', 'audit_events', 'emails'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO complyd_app;

-- +goose Down
DROP TABLE sessions, emails, audit_events, mfa_challenges, api_keys, refresh_tokens, token_families,
  user_emails, users, tenant_settings, tenants;
DROP FUNCTION app_tenant();
