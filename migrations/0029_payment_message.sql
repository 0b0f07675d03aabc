-- +goose Up
-- The ISO 20022 message a transaction was screened from (issue 52, docs/guide/iso20022.md): its
-- identifiers (MsgId, EndToEndId, TxId, UETR), purpose, remittance lines and every party and
-- agent as the message named them (names, BICs, LEIs, accounts, addresses, identifiers such as
-- a BVN in Othr with its scheme). Null for JSON screenings. Read only with its row (GET
-- /transactions/{id}), never filtered on: no index, and no planner statistics (as 0024 does for
-- the other wide columns). ADD COLUMN without a default changes no stored row. The table's
-- row-level security policies (0005) cover the new column.
ALTER TABLE transactions ADD COLUMN payment_message jsonb;
ALTER TABLE transactions ALTER COLUMN payment_message SET STATISTICS 0;

-- +goose Down
ALTER TABLE transactions DROP COLUMN payment_message;
