package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver for goose
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/complyd/complyd/migrations"
)

// Migrate applies the pending goose migrations and River's own migrations, connecting as the
// DATABASE_URL user (not AppRole, which may not own the schema). Concurrent callers are
// serialised by an advisory lock.
func Migrate(ctx context.Context, url string, logger *slog.Logger) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("connect for migration: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "select pg_advisory_lock(7243001)"); err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "select pg_advisory_unlock(7243001)") //nolint:errcheck

	db, err := sql.Open("pgx", url)
	if err != nil {
		return fmt.Errorf("open for migration: %w", err)
	}
	defer db.Close()
	// Migration numbers are allotted to parallel work ahead of time, so a database may already
	// carry a later number than one merged after it (0046 before 0043-0045): apply such a
	// missing migration rather than refuse to start.
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS, goose.WithAllowOutofOrder(true))
	if err != nil {
		return fmt.Errorf("goose provider: %w", err)
	}
	res, err := provider.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range res {
		logger.InfoContext(ctx, "migration applied", "version", r.Source.Version, "file", r.Source.Path, "took", r.Duration)
	}

	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return fmt.Errorf("pool for river migration: %w", err)
	}
	defer pool.Close()
	m, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: logger})
	if err != nil {
		return fmt.Errorf("river migrator: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	// River's tables are created after our default privileges, but grant explicitly in case the
	// schema predates them.
	if _, err := pool.Exec(ctx, "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "+AppRole+
		"; GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO "+AppRole); err != nil {
		return fmt.Errorf("grant app role: %w", err)
	}
	// The blanket grant above must not undo the migrations' append-only revokes: the wallet
	// ledger, stored screenings, audit log and report timelines are never updated or deleted by
	// the application.
	// A partitioned table's partitions (migrations 0043 and 0044) are tables of their own that
	// the blanket grant reaches: the revoke covers every relation of its partition tree
	// (pg_partition_tree lists nothing for a table that is not partitioned).
	for _, t := range appendOnlyTables {
		if _, err := pool.Exec(ctx, "DO $$ DECLARE r regclass; BEGIN IF to_regclass('public."+t+"') IS NOT NULL THEN "+
			"FOR r IN SELECT 'public."+t+"'::regclass UNION SELECT relid FROM pg_partition_tree('public."+t+"') LOOP "+
			"EXECUTE format('REVOKE UPDATE, DELETE ON %s FROM "+AppRole+"', r); END LOOP; END IF; END $$"); err != nil {
			return fmt.Errorf("revoke on %s: %w", t, err)
		}
	}
	return nil
}

// appendOnlyTables are the tables the application role may only insert into and read.
var appendOnlyTables = []string{"wallet_ledger", "transactions", "transaction_keys", "retro_screenings", "audit_events",
	"report_events", "rule_versions", "archive_restored_rows", "transactions_retained", "audit_events_retained"}
