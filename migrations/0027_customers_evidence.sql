-- +goose Up
-- Issue 48 points 4 and 6.
--
-- 6. Every approved KYC applicant and KYB company is a customer (docs/guide/customers.md "Where
--    customers come from"). The approval upserts its customer profile in the approval's own
--    transaction and records it here. Applications approved before this migration are linked by
--    the Go step postgres.(*DB).LinkApprovedCustomers, run by `complyd migrate`, `serve` and
--    `dev` right after the migrations, like the sealing of migration 0011: a KYC applicant's
--    BVN and NIN are sealed under a key the database never sees, so SQL cannot build the
--    profile (its key is the BVN). The partial indexes are the rows that step still has to
--    link: empty once it has run, so its check at every start is one probe per tenant.
ALTER TABLE kyc_applications ADD COLUMN customer_id text REFERENCES customer_profiles (id);
ALTER TABLE kyb_applications ADD COLUMN customer_id text REFERENCES customer_profiles (id);
CREATE INDEX kyc_applications_unlinked_idx ON kyc_applications (tenant_id)
  WHERE status = 'APPROVED' AND customer_id IS NULL;
CREATE INDEX kyb_applications_unlinked_idx ON kyb_applications (tenant_id)
  WHERE status = 'APPROVED' AND customer_id IS NULL;
CREATE INDEX kyc_applications_customer_idx ON kyc_applications (tenant_id, customer_id) WHERE customer_id IS NOT NULL;
CREATE INDEX kyb_applications_customer_idx ON kyb_applications (tenant_id, customer_id) WHERE customer_id IS NOT NULL;
-- Lookups count lookups; a profile made by an approval has had none.
ALTER TABLE customer_profiles ALTER COLUMN lookup_count SET DEFAULT 0;

-- 4. Approvals show their evidence (docs/guide/kyc.md, docs/guide/kyb.md "Evidence and overrides"). An
--    approval over failed or missing checks or open cases records what it overrode: who, when,
--    which, with the notes given. Append-only like the audit log: nothing updates or deletes
--    an override.
CREATE TABLE approval_overrides (
  id               text PRIMARY KEY,
  tenant_id        uuid NOT NULL REFERENCES tenants (id),
  application_kind text NOT NULL CHECK (application_kind IN ('KYC', 'KYB')),
  application_id   text NOT NULL,
  checks           jsonb NOT NULL DEFAULT '[]',
  open_cases       jsonb NOT NULL DEFAULT '[]',
  notes            text NOT NULL DEFAULT '',
  actor_id         uuid,
  actor_name       text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL
);
CREATE INDEX approval_overrides_app_idx ON approval_overrides (tenant_id, application_kind, application_id, created_at);
ALTER TABLE approval_overrides ENABLE ROW LEVEL SECURITY;
ALTER TABLE approval_overrides FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON approval_overrides USING (tenant_id = app_tenant()) WITH CHECK (tenant_id = app_tenant());
GRANT SELECT, INSERT ON approval_overrides TO complyd_app;

-- The tenant setting that makes the evidence mandatory: an approval with anything outstanding
-- is refused (409 with the list). Off by default (the spec lets an officer approve from any
-- state, docs/design/design-choices.md §5); the demo tenant of `complyd dev` has it on.
ALTER TABLE tenant_settings ADD COLUMN approval_evidence_required boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE tenant_settings DROP COLUMN approval_evidence_required;
DROP TABLE approval_overrides;
ALTER TABLE customer_profiles ALTER COLUMN lookup_count SET DEFAULT 1;
DROP INDEX kyb_applications_customer_idx, kyc_applications_customer_idx, kyb_applications_unlinked_idx,
  kyc_applications_unlinked_idx;
ALTER TABLE kyb_applications DROP COLUMN customer_id;
ALTER TABLE kyc_applications DROP COLUMN customer_id;
