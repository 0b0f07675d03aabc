package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
)

// DefaultGCPercent is the garbage collector's target when GOGC is not set. The live heap is about
// 100 MB (the sanctions index and caches) and the screening path allocates about 70 kB per
// screening, so the runtime's default of 100 collects every couple of seconds at 1,000/s, and
// each collection's marking slows every screening in flight. A high target has its own cost:
// the heap grows to the target before the first collections reuse it, and every page it touches
// for the first time is a page fault the kernel zeroes. At 1000 that growth (to 2 GB in one run)
// took 14 % of the server's CPU in its first minute under load; at 400 the first minute costs
// about 60 µs less per screening and later minutes the same, within the noise
// (docs/guide/screening.md "GC"). Set GOGC (and GOMEMLIMIT in a container) to choose otherwise
// (docs/reference/configuration.md). cmd/complyd sets it when GOGC is unset; the benchmarks that
// measure the server as deployed set it too (BenchmarkWatchlistImport100k).
const DefaultGCPercent = 400

// Usage is the operator CLI's help text.
const Usage = `complyd: multi-tenant AML/CFT screening service

Usage:
  complyd serve                 migrate, then serve gRPC, Connect, /api/v1, /health, /metrics and the dashboard
  complyd migrate               apply pending migrations and exit
  complyd dev [--empty]         one-command local run on a private PostgreSQL (or DATABASE_URL), seeded with a
                                demo tenant (--empty: no demo data); writes DATABASE_URL to .complyd/env
  complyd tenant create --name N --slug S --admin-email E --admin-password P [--admin-first-name F --admin-last-name L]
  complyd wallet credit --tenant SLUG --amount N --reference REF [--description D]
  complyd watchlist import --format ofac-sdn-csv|un-xml --list NAME [--type SANCTIONS|PEP] FILE...
  complyd watchlist eval [--set FILE] [--data DIR | --db]
  complyd archive list|run|restore --tenant SLUG [--id ARCHIVE_ID]
                                retention and archive (docs/guide/retention.md): list a tenant's archives,
                                archive, verify and drop its months past retention, restore one for an examiner
  complyd archive partitions | grains
                                drop the months every tenant has archived; prune the per-account grains
                                older than screening reads (both nightly passes, on demand)

Configuration is by environment variables; see README.md. Without DATABASE_URL, migrate, tenant,
wallet and watchlist use the database of the running "complyd dev" (.complyd/env).
`

// Run runs one complyd command (args without the program name) until it returns or ctx ends.
func Run(ctx context.Context, args []string, log *slog.Logger) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, Usage)
		return fmt.Errorf("missing command")
	}
	switch args[0] {
	case "serve":
		cfg, err := loadConfig(false)
		if err != nil {
			return err
		}
		return serve(ctx, cfg, log, nil)
	case "migrate":
		cfg, err := loadCLIConfig(false)
		if err != nil && cfg.DatabaseURL == "" {
			return err
		}
		return migrateOnly(ctx, cfg, log)
	case "dev":
		return dev(ctx, args[1:], log)
	case "tenant":
		return tenantCmd(ctx, args[1:], log)
	case "wallet":
		return walletCmd(ctx, args[1:], log)
	case "watchlist":
		return watchlistCmd(ctx, args[1:], log)
	case "archive":
		return archiveCmd(ctx, args[1:], log)
	case "help", "-h", "--help":
		fmt.Print(Usage)
		return nil
	}
	fmt.Fprint(os.Stderr, Usage)
	return fmt.Errorf("unknown command %q", args[0])
}
