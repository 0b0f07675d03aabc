-- +goose Up
-- A customer's overview lists the reports drafted for its accounts (docs/guide/customers.md): the
-- screening's draft key (reports_draft_key) covers only aggregating drafts, so the account
-- lookup gets an index of its own.
CREATE INDEX reports_tenant_account_idx ON reports (tenant_id, customer_account, created_at DESC) WHERE customer_account <> '';

-- +goose Down
DROP INDEX reports_tenant_account_idx;
