-- +goose Up
-- No planner statistics for the wide columns that no statement filters, joins or groups on
-- (issue 15, docs/guide/screening.md "Analyses of the hot tables"). While a table is young and
-- growing, autovacuum analyses it about once a minute, and each analysis of transactions took
-- 0.7-0.9 s of a core under load: on a two-core host those are slow seconds for the screenings.
-- Statistics target 0 leaves these columns out of every analysis; the row counts, the other
-- columns and the indexes are analysed as before. The saving is small (measured in the docs:
-- most of an analysis is reading its sample and the many narrow columns). SET STATISTICS takes
-- a SHARE UPDATE EXCLUSIVE lock: screenings go on inserting while it runs.
ALTER TABLE transactions
  ALTER COLUMN engine_verdicts SET STATISTICS 0,
  ALTER COLUMN metadata SET STATISTICS 0,
  ALTER COLUMN actions SET STATISTICS 0;
ALTER TABLE audit_events
  ALTER COLUMN before SET STATISTICS 0,
  ALTER COLUMN after SET STATISTICS 0;
ALTER TABLE case_events ALTER COLUMN metadata SET STATISTICS 0;
ALTER TABLE cases ALTER COLUMN description SET STATISTICS 0;

-- +goose Down
ALTER TABLE transactions
  ALTER COLUMN engine_verdicts SET STATISTICS -1,
  ALTER COLUMN metadata SET STATISTICS -1,
  ALTER COLUMN actions SET STATISTICS -1;
ALTER TABLE audit_events
  ALTER COLUMN before SET STATISTICS -1,
  ALTER COLUMN after SET STATISTICS -1;
ALTER TABLE case_events ALTER COLUMN metadata SET STATISTICS -1;
ALTER TABLE cases ALTER COLUMN description SET STATISTICS -1;
