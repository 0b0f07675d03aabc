-- +goose Up
-- The last TOTP time step (Unix time / 30 s) accepted for the user: a code is accepted once, so a
-- code seen on the wire cannot complete a second login in the same window (RFC 6238 §5.2).
ALTER TABLE users ADD COLUMN totp_last_step bigint NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN totp_last_step;
