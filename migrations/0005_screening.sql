-- +goose Up
-- Transaction screening (issue 3, docs/guide/screening.md): stored transactions with their verdicts,
-- tenant custom rules, FX rates, and the retro-screening record of fail-open screenings.

-- transactions holds one screened transaction and its verdict in one row: a screening writes
-- exactly one row (group-committed, docs/guide/screening.md "Performance"), and the row is immutable.
CREATE TABLE transactions (
  id                        uuid PRIMARY KEY,
  -- No foreign key to tenants: every insert would KEY SHARE-lock the one tenants row, and
  -- thousands of concurrent lockers of one row cost multixact churn. Tenants are never deleted.
  tenant_id                 uuid NOT NULL,
  external_id               text NOT NULL,
  type                      text NOT NULL,
  channel                   text NOT NULL,
  amount                    numeric NOT NULL CHECK (amount > 0),
  currency                  text NOT NULL,
  -- amount_ngn is the amount the rules evaluated: the NGN equivalent, or the raw amount when
  -- the tenant had no rate (fx_missing); structuring sums add it up.
  amount_ngn                numeric NOT NULL,
  fx_missing                boolean NOT NULL DEFAULT false,
  sender_account_number     text NOT NULL,
  sender_bvn                text,
  sender_name               text NOT NULL,
  sender_bank_code          text,
  sender_kyc_status         text,
  sender_kyc_tier           text,
  sender_kyc_verified_at    timestamptz,
  sender_kyc_external_ref   text,
  sender_kyb_status         text,
  receiver_account_number   text,
  receiver_bvn              text,
  receiver_name             text,
  receiver_bank_code        text,
  receiver_country          text,
  receiver_kyc_status       text,
  receiver_kyc_verified_at  timestamptz,
  receiver_kyc_external_ref text,
  narration                 text,
  device_id                 text,
  ip_address                text,
  latitude                  double precision,
  longitude                 double precision,
  transaction_timestamp     timestamptz NOT NULL,
  metadata                  jsonb,
  -- the verdict
  verdict_id                text NOT NULL,
  outcome                   text NOT NULL CHECK (outcome IN ('APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK')),
  risk_level                text NOT NULL,
  aggregate_score           numeric(5, 2) NOT NULL,
  actions                   text[] NOT NULL,
  engine_verdicts           jsonb NOT NULL,
  total_latency_ms          integer NOT NULL,
  processed_at              timestamptz NOT NULL,
  created_at                timestamptz NOT NULL,
  CONSTRAINT transactions_tenant_external_id_key UNIQUE (tenant_id, external_id)
);
-- Enrichment: the sender account's history before a timestamp (24 h sum and count, 60 min
-- count, last activity, amount statistics, behavioral profile).
CREATE INDEX transactions_sender_idx ON transactions (tenant_id, sender_account_number, transaction_timestamp DESC)
  INCLUDE (amount_ngn);
-- GET /transactions: newest first, optional outcome/type/from/to filters.
CREATE INDEX transactions_list_idx ON transactions (tenant_id, transaction_timestamp DESC, id DESC);

-- screening_rules are the tenants' custom CEL rules (docs/design/design-choices.md §10).
CREATE TABLE screening_rules (
  id          text PRIMARY KEY,
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  name        text NOT NULL,
  description text,
  expression  text NOT NULL,
  score       integer NOT NULL CHECK (score BETWEEN 0 AND 100),
  outcome     text NOT NULL CHECK (outcome IN ('APPROVE', 'REVIEW', 'ESCALATE', 'BLOCK')),
  enabled     boolean NOT NULL DEFAULT true,
  created_by  text NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX screening_rules_tenant_idx ON screening_rules (tenant_id, created_at, id);

-- tenant_fx_rates: NGN per unit of a currency (docs/design/design-choices.md §11).
CREATE TABLE tenant_fx_rates (
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  currency    text NOT NULL,
  rate_to_ngn numeric NOT NULL CHECK (rate_to_ngn > 0),
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, currency)
);

-- retro_screenings records each re-run of an engine that failed open (spec part 1).
CREATE TABLE retro_screenings (
  id             text PRIMARY KEY,
  tenant_id      uuid NOT NULL REFERENCES tenants (id),
  transaction_id uuid NOT NULL REFERENCES transactions (id),
  engines        text[] NOT NULL,
  outcome        text NOT NULL,
  score          integer NOT NULL,
  engine_verdicts jsonb NOT NULL,
  case_id        text,
  created_at     timestamptz NOT NULL
);
CREATE INDEX retro_screenings_tx_idx ON retro_screenings (tenant_id, transaction_id);

-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['transactions', 'screening_rules', 'tenant_fx_rates', 'retro_screenings'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant())', t);
  END LOOP;
END
$$;
-- +goose StatementEnd

-- tenant_settings had no RLS policy of its own; screening reads it through the config cache.
GRANT SELECT, INSERT, UPDATE, DELETE ON screening_rules, tenant_fx_rates TO complyd_app;
GRANT SELECT, INSERT ON transactions, retro_screenings TO complyd_app;
-- Stored transactions are immutable (docs/reference/specification.md 4.3 rule 2): the application role may
-- only insert and read them (postgres.Migrate re-applies this after its blanket grant).
REVOKE UPDATE, DELETE ON transactions, retro_screenings FROM complyd_app;

-- +goose Down
DROP TABLE retro_screenings, tenant_fx_rates, screening_rules, transactions;
