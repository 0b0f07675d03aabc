-- +goose Up
-- What screening does while no sanctions list is loaded: SKIP (fail open: the sanctions engine is
-- skipped with its reason and the screening queued for retro-screening) or BLOCK.
ALTER TABLE tenant_settings ADD COLUMN sanctions_lists_missing text NOT NULL DEFAULT 'SKIP'
  CHECK (sanctions_lists_missing IN ('SKIP', 'BLOCK'));

-- +goose Down
ALTER TABLE tenant_settings DROP COLUMN sanctions_lists_missing;
