-- +goose Up
-- The cases of a KYC application, by key: the customer's linked cases (the rating's and the
-- customer page's, internal/postgres/customerstore linkedCasesSQL) are read from the customer's
-- transactions and applications towards their cases, and the application side had no index
-- (docs/performance-at-scale.md "The statement behind the buffer hits").
CREATE INDEX cases_tenant_kyc_application_idx ON cases (tenant_id, related_kyc_application_id)
  WHERE related_kyc_application_id IS NOT NULL;

-- +goose Down
DROP INDEX cases_tenant_kyc_application_idx;
