-- +goose Up
-- Lists that say how old they are (docs/guide/watchlists.md "Freshness"): each global list version
-- records when its publisher published it (OFAC snapshot's date, UN dateGenerated, an FtM
-- version's time), and the publisher's own version id (FtM: "20240527134702-zbn"), so that
-- delta updates apply only the versions newer than the one in force.
ALTER TABLE sanctions_list_versions
  ADD COLUMN published_at   timestamptz,
  ADD COLUMN source_version text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE sanctions_list_versions DROP COLUMN source_version, DROP COLUMN published_at;
