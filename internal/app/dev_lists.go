package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/sanctions/snapshot"
	"github.com/complyd/complyd/internal/sanctionshttp"
)

// devDownloadTimeout bounds `complyd dev`'s attempt at each official list file set.
const devDownloadTimeout = 45 * time.Second

// devList is one list `complyd dev` imports into an empty database, and where it came from.
type devList struct {
	List, Format string
	// From is the download address of the first file, or "snapshot of <date>".
	From  string
	Files []sanctions.SourceFile
}

// devLists fetches the official OFAC and UN lists (each source within timeout) and, for a list
// that cannot be downloaded or does not parse, falls back to the snapshot shipped with the binary
// (OFAC only: the public-domain list) with a warning that names its date, or, for the UN list,
// goes without it with a warning. Only `complyd dev` does this: `serve` never loads the
// snapshot by itself (`complyd watchlist import --snapshot` imports it explicitly).
func devLists(ctx context.Context, log *slog.Logger, f *sanctionshttp.Fetcher, sources []sanctionshttp.Source, timeout time.Duration) ([]devList, error) {
	snap, err := snapshot.Lists()
	if err != nil {
		return nil, err
	}
	shipped := map[string]snapshot.List{}
	for _, s := range snap {
		shipped[s.List] = s
	}
	out := make([]devList, 0, len(devListNames))
	for _, name := range devListNames {
		var src *sanctionshttp.Source
		for i := range sources {
			if sources[i].List == name {
				src = &sources[i]
			}
		}
		var why error
		if src != nil {
			files, err := fetchParsed(ctx, f, *src, timeout)
			if err == nil {
				out = append(out, devList{List: name, Format: src.Format, From: src.URLs[0], Files: files})
				continue
			}
			why = err
		} else {
			why = errors.New("no download address")
		}
		s, ok := shipped[name]
		if !ok {
			// Only public-domain lists are shipped (OFAC's); the UN list's terms of use do not
			// allow redistributing it, so without a download dev runs without it, and says so.
			log.Warn(fmt.Sprintf("dev: the official %s list could not be downloaded and complyd ships no snapshot of it (it is not public domain): screening runs without it until it is imported with `complyd watchlist import`", name),
				"list", name, "err", why)
			continue
		}
		log.Warn(fmt.Sprintf("dev: the official %s list could not be downloaded; using the snapshot shipped with complyd, dated %s: screening misses every change since", name, s.Date),
			"list", name, "snapshotDate", s.Date, "err", why)
		out = append(out, devList{List: name, Format: s.Format, From: "snapshot of " + s.Date, Files: s.Files})
	}
	return out, nil
}

// devListNames are the lists dev loads, in order.
var devListNames = []string{sanctions.ListOFACSDN, sanctions.ListUNSC}

func fetchParsed(ctx context.Context, f *sanctionshttp.Fetcher, src sanctionshttp.Source, timeout time.Duration) ([]sanctions.SourceFile, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	files, err := f.Fetch(ctx, src)
	if err != nil {
		return nil, err
	}
	if _, err := sanctions.ParseFiles(src.Format, files); err != nil {
		return nil, err
	}
	return files, nil
}

// importSnapshot is `complyd watchlist import --snapshot`: the operator's explicit choice of the
// shipped lists, for a deployment that cannot download them.
func importSnapshot(ctx context.Context, log *slog.Logger, out io.Writer) error {
	lists, err := snapshot.Lists()
	if err != nil {
		return err
	}
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
	log.Warn("importing the sanctions snapshot shipped with complyd: " + snapshot.Describe() + "; it misses every change since")
	for _, l := range lists {
		if err := importList(ctx, db, log, out, sanctions.ImportParams{List: l.List, Type: sanctions.ListTypeSanctions,
			Format: l.Format, Files: l.Files}); err != nil {
			return err
		}
	}
	return nil
}

// sanctionsListsHealth is /health's data.sanctionsLists: nil (left out) when the versions
// cannot be read, since checks.sanctions already says whether lists are loaded.
func sanctionsListsHealth(ctx context.Context, svc *sanctions.Service) any {
	ls, err := svc.ListsHealth(ctx)
	if err != nil {
		return nil
	}
	return ls
}
