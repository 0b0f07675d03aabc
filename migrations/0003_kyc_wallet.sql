-- +goose Up
-- Prepaid wallet (docs/design/design-choices.md §6, docs/guide/wallet.md). balance is what the tenant owns; held is the
-- part reserved by paid provider calls in flight. The ledger is append-only and the sum of a
-- tenant's entries always equals its balance; holds never appear in the ledger.
CREATE TABLE wallets (
  tenant_id  uuid PRIMARY KEY REFERENCES tenants (id),
  balance    numeric(20,2) NOT NULL DEFAULT 0,
  held       numeric(20,2) NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT wallets_balance_check CHECK (balance >= 0 AND held >= 0 AND held <= balance)
);

CREATE TABLE wallet_ledger (
  id            uuid PRIMARY KEY,
  tenant_id     uuid NOT NULL REFERENCES tenants (id),
  seq           bigserial NOT NULL,
  type          text NOT NULL CHECK (type IN ('CREDIT', 'CHARGE')),
  amount        numeric(20,2) NOT NULL,
  balance_after numeric(20,2) NOT NULL CHECK (balance_after >= 0),
  reference     text NOT NULL,
  description   text NOT NULL DEFAULT '',
  actor_id      uuid,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT wallet_ledger_sign_check CHECK ((type = 'CREDIT' AND amount > 0) OR (type = 'CHARGE' AND amount <= 0))
);
-- A top-up reference is used once per tenant: `complyd wallet credit` is idempotent on it.
CREATE UNIQUE INDEX wallet_ledger_credit_ref_key ON wallet_ledger (tenant_id, reference) WHERE type = 'CREDIT';
CREATE INDEX wallet_ledger_tenant_seq_idx ON wallet_ledger (tenant_id, seq DESC);

CREATE TABLE wallet_holds (
  id         uuid PRIMARY KEY,
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  amount     numeric(20,2) NOT NULL CHECK (amount >= 0),
  purpose    text NOT NULL,
  status     text NOT NULL DEFAULT 'HELD' CHECK (status IN ('HELD', 'SETTLED', 'RELEASED')),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at  timestamptz
);
CREATE INDEX wallet_holds_open_idx ON wallet_holds (tenant_id, created_at) WHERE status = 'HELD';

-- KYC applications (docs/reference/specification.md 2.5, 3.2).
CREATE TABLE kyc_applications (
  id              text PRIMARY KEY,
  tenant_id       uuid NOT NULL REFERENCES tenants (id),
  entity_type     text NOT NULL CHECK (entity_type IN ('INDIVIDUAL', 'BUSINESS')),
  first_name      text NOT NULL,
  last_name       text NOT NULL,
  bvn             text NOT NULL DEFAULT '',
  nin             text NOT NULL DEFAULT '',
  phone           text NOT NULL DEFAULT '',
  email           text NOT NULL DEFAULT '',
  address         text NOT NULL DEFAULT '',
  date_of_birth   date,
  tier            text NOT NULL DEFAULT 'TIER_1' CHECK (tier IN ('TIER_1', 'TIER_2', 'TIER_3')),
  status          text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DOCUMENT_UPLOADED', 'NIN_VERIFIED',
                    'BVN_VERIFIED', 'LIVENESS_PASSED', 'APPROVED', 'REJECTED', 'EXPIRED')),
  bvn_verified    boolean NOT NULL DEFAULT false,
  nin_verified    boolean NOT NULL DEFAULT false,
  liveness_passed boolean NOT NULL DEFAULT false,
  risk_level      text,
  assigned_to     uuid,
  notes           text,
  created_by      uuid,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kyc_applications_tenant_created_idx ON kyc_applications (tenant_id, created_at DESC, id DESC);
CREATE INDEX kyc_applications_tenant_status_idx ON kyc_applications (tenant_id, status, created_at);
CREATE INDEX kyc_applications_tenant_bvn_idx ON kyc_applications (tenant_id, bvn, created_at DESC) WHERE bvn <> '';

CREATE TABLE kyc_verification_results (
  id              text PRIMARY KEY,
  tenant_id       uuid NOT NULL REFERENCES tenants (id),
  application_id  text NOT NULL REFERENCES kyc_applications (id),
  identity_type   text NOT NULL CHECK (identity_type IN ('BVN', 'NIN', 'LIVENESS', 'FACE_MATCH')),
  provider        text NOT NULL,
  provider_source text NOT NULL,
  is_match        boolean NOT NULL,
  confidence      double precision NOT NULL,
  raw_response    jsonb,
  error_message   text,
  charged         numeric(20,2) NOT NULL DEFAULT 0,
  verified_at     timestamptz NOT NULL
);
CREATE INDEX kyc_verification_results_app_idx ON kyc_verification_results (tenant_id, application_id, verified_at);

-- Documents of KYC (and later KYB) applications; the bytes live in the blob store
-- (docs/guide/documents.md). owner_kind + application_id name the owner.
CREATE TABLE documents (
  id             text PRIMARY KEY,
  tenant_id      uuid NOT NULL REFERENCES tenants (id),
  owner_kind     text NOT NULL CHECK (owner_kind IN ('KYC', 'KYB')),
  application_id text NOT NULL,
  document_type  text NOT NULL,
  file_name      text NOT NULL,
  storage_key    text NOT NULL,
  size_bytes     bigint NOT NULL,
  mime_type      text NOT NULL,
  sha256         text NOT NULL,
  uploaded_by    uuid,
  uploaded_at    timestamptz NOT NULL
);
CREATE INDEX documents_owner_idx ON documents (tenant_id, owner_kind, application_id, uploaded_at);

-- The tenant's BYOL identity provider (PATCH /kyc/providers/config). config holds everything
-- but the credentials; api_key_enc is the API key sealed with AES-256-GCM (docs/guide/identity-providers.md).
CREATE TABLE identity_provider_configs (
  tenant_id   uuid PRIMARY KEY REFERENCES tenants (id),
  config      jsonb NOT NULL,
  api_key_enc bytea,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['wallets', 'wallet_ledger', 'wallet_holds', 'kyc_applications', 'kyc_verification_results',
                           'documents', 'identity_provider_configs'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

GRANT SELECT, INSERT, UPDATE, DELETE ON wallets, wallet_ledger, wallet_holds, kyc_applications,
  kyc_verification_results, documents, identity_provider_configs TO complyd_app;
GRANT USAGE, SELECT, UPDATE ON SEQUENCE wallet_ledger_seq_seq TO complyd_app;

-- The ledger is append-only: the application role may not change or remove entries.
REVOKE UPDATE, DELETE ON wallet_ledger FROM complyd_app;

-- +goose Down
DROP TABLE identity_provider_configs, documents, kyc_verification_results, kyc_applications, wallet_holds,
  wallet_ledger, wallets;
