-- +goose Up
-- No planner statistics for the wide columns that no statement filters, joins or groups on
-- (issue 15, docs/screening.md "Analyses of the hot tables"). ANALYZE sorts and compares every
-- sampled value of every column, and for a screening's verdicts (engine_verdicts, about a kilobyte
-- of jsonb a row) that was most of its cost: autovacuum's analysis of transactions took 0.85 s of
-- a core, every minute or so while a young table grows, and on a two-core host under load those
-- seconds are the slow ones. Statistics target 0 leaves the column out of every analysis; the
-- row counts, the other columns and the indexes are analysed as before. SET STATISTICS takes a
-- SHARE UPDATE EXCLUSIVE lock: screenings go on inserting while it runs.
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
