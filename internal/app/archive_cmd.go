package app

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/complyd/complyd/internal/archive"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/dashboardstore"
	"github.com/complyd/complyd/internal/postgres/screenstore"
)

const archiveUsage = "usage: complyd archive list|run|restore --tenant SLUG [--id ARCHIVE_ID] | complyd archive partitions " +
	"(run: archive, verify and drop the months past the tenant's retention; restore: load an archive for an examiner; " +
	"partitions: drop the month partitions whose every tenant's rows are archived or retained; " +
	"grains: prune the per-account grains older than screening reads, the nightly pass on demand; " +
	"rollups: fold the dashboard rollups' shards of past hours, the nightly pass on demand)"

// archiveCmd is `complyd archive list|run|restore|partitions` (docs/guide/retention.md): the
// operator's view of a tenant's archives, a retention pass on demand, the restore of one archive
// into the examiner's copy, and the partition drop of the nightly pass (every tenant). It uses the document store of `complyd serve` (COMPLYD_S3_* or
// COMPLYD_BLOB_DIR) and prints JSON.
func archiveCmd(ctx context.Context, args []string, log *slog.Logger) error {
	if len(args) == 0 {
		return fmt.Errorf("%s", archiveUsage)
	}
	fs := flag.NewFlagSet("archive "+args[0], flag.ContinueOnError)
	slug := fs.String("tenant", "", "tenant slug")
	id := fs.String("id", "", "archive id (restore)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if (*slug == "" && args[0] != "partitions" && args[0] != "grains" && args[0] != "rollups") || (args[0] == "restore" && *id == "") {
		return fmt.Errorf("%s", archiveUsage)
	}
	cfg, err := loadCLIConfig(false)
	if err != nil && cfg.DatabaseURL == "" {
		return err
	}
	db, err := openDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	if args[0] == "grains" {
		return pruneGrains(ctx, db, os.Stdout, time.Now())
	}
	if args[0] == "rollups" {
		return foldRollups(ctx, db, os.Stdout, time.Now())
	}
	w := &wiring{ctx: ctx, cfg: cfg, db: db, log: log, now: time.Now, mux: http.NewServeMux()}
	blobs, err := newBlobs(w)
	if err != nil {
		return err
	}
	w.blobs = blobs
	svc, _ := newArchiveService(w)
	return runArchiveCmd(ctx, db, svc, os.Stdout, args[0], *slug, *id)
}

func runArchiveCmd(ctx context.Context, db *postgres.DB, svc *archive.Service, out io.Writer, cmd, slug, id string) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	if cmd == "partitions" {
		n, err := svc.DropPartitions(ctx)
		if err != nil {
			return err
		}
		return enc.Encode(map[string]any{"partitionsDropped": n})
	}
	tenantID, err := db.TenantIDBySlug(ctx, slug)
	if err != nil {
		return fmt.Errorf("tenant %q: %w", slug, err)
	}
	switch cmd {
	case "list":
		res, err := svc.List(ctx, tenantID, paging.Params{Page: 1, Limit: 1000})
		if err != nil {
			return err
		}
		return enc.Encode(res.Items)
	case "run":
		n, err := svc.Run(ctx, tenantID)
		if err != nil {
			return err
		}
		return enc.Encode(map[string]any{"tenantId": tenantID, "monthsDropped": n})
	case "restore":
		a, err := svc.Restore(ctx, tenantID, audit.System, id)
		if err != nil {
			return err
		}
		return enc.Encode(a)
	}
	return fmt.Errorf("%s", archiveUsage)
}

// pruneGrains is `complyd archive grains`: the nightly prune of the grains
// (screenstore.GrainsPruner) at once, for an upgraded database's first pass or a measurement;
// it prints the cutoff, the buckets deleted and the time taken as JSON.
func pruneGrains(ctx context.Context, db *postgres.DB, out io.Writer, now time.Time) error {
	start, cutoff := time.Now(), screenstore.GrainsCutoff(now)
	n, err := screenstore.NewGrainsPruner(db).Prune(ctx, cutoff)
	if err != nil {
		return err
	}
	return json.NewEncoder(out).Encode(map[string]any{"cutoff": cutoff.Format(time.RFC3339), "deleted": n,
		"seconds": time.Since(start).Seconds()})
}

// foldRollups is `complyd archive rollups`: the nightly fold of the rollups' shards
// (dashboardstore.RollupFolder) at once, for an upgraded database's first pass or a
// measurement; it prints the cutoff, the rows removed and the time taken as JSON.
func foldRollups(ctx context.Context, db *postgres.DB, out io.Writer, now time.Time) error {
	start, cutoff := time.Now(), dashboardstore.FoldCutoff(now)
	n, err := dashboardstore.NewRollupFolder(db).Fold(ctx, cutoff)
	if err != nil {
		return err
	}
	return json.NewEncoder(out).Encode(map[string]any{"cutoff": cutoff.Format(time.RFC3339), "removed": n,
		"seconds": time.Since(start).Seconds()})
}
