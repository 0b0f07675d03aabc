package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/sanctionshttp"
)

// cliApplyDeltas is `complyd watchlist import --format ftm --list NAME --delta INDEX`.
func cliApplyDeltas(ctx context.Context, log *slog.Logger, out io.Writer, list, index string) error {
	cfg, err := loadCLIConfig(true)
	if err != nil {
		return err
	}
	if cfg.DatabaseURL == "" {
		return errors.New("DATABASE_URL is required")
	}
	db, err := openDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	return applyDeltas(ctx, db, log, out, list, index, sanctionshttp.NewGuardedFetcher(cfg.FtMAllowPrivate))
}

// applyDeltas reads the delta index at index (a file or an address) and applies its new
// versions to list.
func applyDeltas(ctx context.Context, db *postgres.DB, log *slog.Logger, out io.Writer, list, index string, f *sanctionshttp.Fetcher) error {
	svc := newSanctionsService(db, func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }, log, sanctions.NewMatcher())
	fetch := ftmFetch(f, index)
	raw, err := fetch(ctx, index)
	if err != nil {
		return err
	}
	ix, err := sanctions.ParseFtMIndex(raw)
	if err != nil {
		return err
	}
	res, err := svc.ApplyFtMIndex(ctx, list, ix, fetch)
	for _, r := range res {
		if werr := writeImportResult(out, r); werr != nil {
			return werr
		}
	}
	if err != nil {
		return fmt.Errorf("apply %s deltas: %w", list, err)
	}
	if len(res) == 0 {
		fmt.Fprintf(out, "{\"list\":%q,\"unchanged\":true}\n", list)
	}
	return nil
}

// ftmFetch reads an address of an FtM index: http(s) through the guarded fetcher; anything
// else is a file. For a local index, a version's published address is mapped to the
// <index dir>/<version>/entities.delta.json beside it when that file exists (the samples, and
// a mirror copied to disk).
func ftmFetch(f *sanctionshttp.Fetcher, index string) sanctions.FetchFunc {
	local := !strings.HasPrefix(index, "http://") && !strings.HasPrefix(index, "https://")
	dir := filepath.Dir(index)
	return func(ctx context.Context, u string) ([]byte, error) {
		if local {
			if u == index {
				return os.ReadFile(u)
			}
			if parts := strings.Split(strings.TrimRight(u, "/"), "/"); len(parts) >= 2 {
				cand := filepath.Join(dir, parts[len(parts)-2], parts[len(parts)-1])
				if _, err := os.Stat(cand); err == nil {
					return os.ReadFile(cand)
				}
			}
			if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
				return os.ReadFile(u)
			}
		}
		return f.Get(ctx, u)
	}
}

// ftmUpdater is the scheduled FtM update (COMPLYD_FTM_REFRESH): import the entities file when
// the list has no version yet, then apply the delta index's newer versions.
type ftmUpdater struct {
	svc         *sanctions.Service
	fetcher     *sanctionshttp.Fetcher
	list        string
	entitiesURL string
	deltaURL    string
	every       time.Duration
	log         *slog.Logger
}

// Run updates once at start, then every interval, until ctx ends.
func (u *ftmUpdater) Run(ctx context.Context) {
	t := time.NewTicker(u.every)
	defer t.Stop()
	for {
		if err := u.once(ctx); err != nil && ctx.Err() == nil {
			u.log.ErrorContext(ctx, "ftm update", "list", u.list, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (u *ftmUpdater) once(ctx context.Context) error {
	vs, err := u.svc.GlobalVersions(ctx)
	if err != nil {
		return err
	}
	have := false
	for _, v := range vs {
		have = have || v.List == u.list
	}
	if !have {
		if u.entitiesURL == "" {
			return fmt.Errorf("%s has no version and no COMPLYD_FTM_ENTITIES_URL to load it from", u.list)
		}
		data, err := u.fetcher.Get(ctx, u.entitiesURL)
		if err != nil {
			return err
		}
		r, err := u.svc.Import(ctx, sanctions.ImportParams{List: u.list, Format: sanctions.FormatFtM,
			Files: []sanctions.SourceFile{{Name: "entities.ftm.json", Data: data}}})
		if err != nil {
			return err
		}
		u.log.InfoContext(ctx, "ftm update: entities imported", "list", u.list, "version", r.Version.Version, "entries", r.Version.EntryCount)
	}
	if u.deltaURL == "" {
		return nil
	}
	raw, err := u.fetcher.Get(ctx, u.deltaURL)
	if err != nil {
		return err
	}
	ix, err := sanctions.ParseFtMIndex(raw)
	if err != nil {
		return err
	}
	res, err := u.svc.ApplyFtMIndex(ctx, u.list, ix, u.fetcher.Get)
	for _, r := range res {
		u.log.InfoContext(ctx, "ftm update: delta applied", "list", u.list, "sourceVersion", r.Version.SourceVersion,
			"version", r.Version.Version, "entries", r.Version.EntryCount)
	}
	return err
}
