-- +goose Up
-- The audit log and a report's timeline are evidence: the application inserts and reads them,
-- and never changes or removes a row (no store does), so the application role may not either,
-- like the ledger (0003) and the stored screenings (0005). A compromised or buggy process can no
-- longer rewrite who did what. Migrations run as the owner and keep the right to correct data
-- (0011 re-sealed old audit payloads that way).
REVOKE UPDATE, DELETE ON audit_events, report_events FROM complyd_app;

-- +goose Down
GRANT UPDATE, DELETE ON audit_events, report_events TO complyd_app;
