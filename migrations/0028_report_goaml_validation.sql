-- +goose Up
-- Issue 49 (docs/guide/reports.md "Validation", "Code lists"): the reporting entity's address (the
-- report's goAML location), the deployment schema the tenant's reports are validated against
-- ('' = the deployment's default) and the tenant's loaded code list (the lookup export of its
-- goAML instance, as rows {list, code, description, use}; [] = complyd's default table).
ALTER TABLE report_settings
  ADD COLUMN location_address      text  NOT NULL DEFAULT '',
  ADD COLUMN location_city         text  NOT NULL DEFAULT '',
  ADD COLUMN location_state        text  NOT NULL DEFAULT '',
  ADD COLUMN location_country_code text  NOT NULL DEFAULT '',
  ADD COLUMN schema_name           text  NOT NULL DEFAULT '',
  ADD COLUMN code_list             jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN code_list_loaded_at   timestamptz;

-- +goose Down
ALTER TABLE report_settings
  DROP COLUMN location_address, DROP COLUMN location_city, DROP COLUMN location_state,
  DROP COLUMN location_country_code, DROP COLUMN schema_name, DROP COLUMN code_list, DROP COLUMN code_list_loaded_at;
