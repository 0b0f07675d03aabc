package app

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctions"
)

const watchlistUsage = `usage:
  complyd watchlist import --format FORMAT --list NAME [--type SANCTIONS|PEP] FILE...
      ofac-sdn-csv: sdn.csv and optionally alt.csv and add.csv (recognised by name: sdn*, alt*,
      add*, cons_prim/cons_alt/cons_add; otherwise taken in the order sdn, alt, add).
      un-xml: the UN consolidated list XML.
      eu-fsf-xml: the EU Financial Sanctions Files XML (xmlFullSanctionsList_1_1).
      uk-csv: the UK Sanctions List CSV or the OFSI consolidated list ConList.csv.
      csv, jsonl: any list (a PEP list, a regulator's circular) in the house format of
      docs/guide/watchlists.md; a bad row fails the import with its line number.
      ftm: FollowTheMoney entities as OpenSanctions publishes them (entities.ftm.json); each
      entry's type comes from its topics unless --type is given; --version records the
      publisher's version id (e.g. 20240527134702-zbn).
  complyd watchlist import --format ftm --list NAME --delta INDEX
      Applies, oldest first, the versions of an FtM delta index (delta.json: a file or an
      http(s) address) newer than the one recorded for the list; a version's delta file is
      <index dir>/<version>/entities.delta.json when that file exists, else its address.
      Stores a new version of the list and makes it current in one transaction; running
      replicas pick it up within seconds. A bad file fails and leaves the previous version.
  complyd watchlist import --snapshot
      Imports the dated OFAC SDN snapshot shipped with complyd (public domain; the UN list is not shipped) (see docs/guide/sanctions.md;
      serve never falls back to it by itself).
  complyd watchlist eval [--set FILE] [--data DIR | --db]
      Precision, recall and F1 at 0.75, 0.85 and 0.95 on the labelled set (default
      internal/sanctions/testdata/eval.jsonl) against the shared list files (default: the
      shared/data/sanctions directory above the working directory) or the current DB versions.
`

func watchlistCmd(ctx context.Context, args []string, log *slog.Logger) error {
	if len(args) == 0 {
		return errors.New(watchlistUsage)
	}
	switch args[0] {
	case "import":
		return watchlistImport(ctx, args[1:], log, os.Stdout)
	case "eval":
		return watchlistEval(ctx, args[1:], log, os.Stdout)
	}
	return errors.New(watchlistUsage)
}

func watchlistImport(ctx context.Context, args []string, log *slog.Logger, out io.Writer) error {
	fs := flag.NewFlagSet("watchlist import", flag.ContinueOnError)
	format := fs.String("format", "", "ofac-sdn-csv, un-xml, eu-fsf-xml, uk-csv, csv or jsonl")
	list := fs.String("list", "", "list name, e.g. OFAC-SDN or UN-SC")
	typ := fs.String("type", "", "SANCTIONS or PEP (default SANCTIONS; ftm: from each entity's topics)")
	version := fs.String("version", "", "ftm: the publisher's version id of the file")
	delta := fs.String("delta", "", "ftm: a delta index (delta.json) to apply")
	snap := fs.Bool("snapshot", false, "import the dated OFAC SDN snapshot shipped with complyd")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *snap {
		return importSnapshot(ctx, log, out)
	}
	if *delta != "" {
		if *format != sanctions.FormatFtM || *list == "" || fs.NArg() != 0 {
			return errors.New(watchlistUsage)
		}
		return cliApplyDeltas(ctx, log, out, *list, *delta)
	}
	if *format == "" || *list == "" || fs.NArg() == 0 {
		return errors.New(watchlistUsage)
	}
	files := make([]sanctions.SourceFile, 0, fs.NArg())
	for _, p := range fs.Args() {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, sanctions.SourceFile{Name: filepath.Base(p), Data: data})
	}
	// Parse before touching the database, so a bad file fails fast and clearly.
	if _, err := sanctions.ParseFiles(*format, files); err != nil {
		return fmt.Errorf("import %s: %w", *list, err)
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
	return importList(ctx, db, log, out, sanctions.ImportParams{List: *list, Type: sanctions.ListType(*typ), Format: *format, Files: files,
		SourceVersion: *version})
}

func importList(ctx context.Context, db *postgres.DB, log *slog.Logger, out io.Writer, p sanctions.ImportParams) error {
	svc := newSanctionsService(db, func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }, log, sanctions.NewMatcher())
	p.StoreOnly = true // this matcher is dropped on return; the servers index the list on the notification
	res, err := svc.Import(ctx, p)
	if err != nil {
		return fmt.Errorf("import %s: %w", p.List, err)
	}
	return writeImportResult(out, res)
}

func writeImportResult(out io.Writer, res sanctions.ImportResult) error {
	m := map[string]any{"list": res.Version.List, "type": res.Version.Type, "version": res.Version.Version,
		"entries": res.Version.EntryCount, "files": res.Version.Files, "unchanged": res.Unchanged}
	if res.Version.SourceVersion != "" {
		m["sourceVersion"] = res.Version.SourceVersion
	}
	if !res.Version.PublishedAt.IsZero() {
		m["publishedAt"] = res.Version.PublishedAt
	}
	return json.NewEncoder(out).Encode(m)
}

func watchlistEval(ctx context.Context, args []string, log *slog.Logger, out io.Writer) error {
	fs := flag.NewFlagSet("watchlist eval", flag.ContinueOnError)
	set := fs.String("set", "", "labelled evaluation set (JSON Lines)")
	data := fs.String("data", "", "shared/data/sanctions directory")
	fromDB := fs.Bool("db", false, "evaluate the current list versions in DATABASE_URL")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *set == "" {
		*set = findUp(filepath.Join("internal", "sanctions", "testdata", "eval.jsonl"))
		if *set == "" {
			return errors.New("no --set given and internal/sanctions/testdata/eval.jsonl not found above the working directory")
		}
	}
	f, err := os.Open(*set)
	if err != nil {
		return err
	}
	defer f.Close()
	cases, err := sanctions.LoadEvalSet(f)
	if err != nil {
		return err
	}
	var entries []sanctions.Entry
	if *fromDB {
		cfg, err := loadCLIConfig(true)
		if err != nil {
			return err
		}
		db, err := openDB(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer db.Close()
		svc := newSanctionsService(db, time.Now, log, sanctions.NewMatcher())
		if err := svc.LoadAll(ctx); err != nil {
			return err
		}
		entries = svc.Matcher().Global().Entries()
	} else {
		if entries, err = loadSharedLists(*data); err != nil {
			return err
		}
	}
	start := time.Now()
	idx := sanctions.NewIndex(entries)
	fmt.Fprintf(out, "%d cases from %s; %d entries, %d names indexed in %s\n\n", len(cases), *set, idx.Len(), idx.Names(),
		time.Since(start).Round(time.Millisecond))
	return writeEvalReport(out, idx, cases)
}

// Default evaluation lists (the README of ../shared/data/sanctions, beside the checkout; the eval
// set was built from them).
var sharedLists = struct{ sdn, alt, add, un string }{
	"ofac_sdn/2023-12-28/sdn.csv", "ofac_sdn/2023-12-28/alt.csv", "ofac_sdn/2023-12-28/add.csv", "un_sc/2026-02-27/consolidated.xml",
}

// loadSharedLists parses OFAC SDN 2023-12-28 and UN 2026-02-27 from dir (default: the
// shared/data/sanctions directory above the working directory).
func loadSharedLists(dir string) ([]sanctions.Entry, error) {
	if dir == "" {
		if dir = findUp(filepath.Join("shared", "data", "sanctions")); dir == "" {
			return nil, errors.New("no --data given and shared/data/sanctions not found above the working directory")
		}
	}
	read := func(rel string) (sanctions.SourceFile, error) {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		return sanctions.SourceFile{Name: filepath.Base(rel), Data: b}, err
	}
	var files []sanctions.SourceFile
	for _, rel := range []string{sharedLists.sdn, sharedLists.alt, sharedLists.add} {
		f, err := read(rel)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	ofac, err := sanctions.ParseFiles(sanctions.FormatOFACSDNCSV, files)
	if err != nil {
		return nil, err
	}
	u, err := read(sharedLists.un)
	if err != nil {
		return nil, err
	}
	un, err := sanctions.ParseFiles(sanctions.FormatUNXML, []sanctions.SourceFile{u})
	if err != nil {
		return nil, err
	}
	return append(ofac, un...), nil
}

// findUp returns rel under the working directory or its closest ancestor holding it, or "".
func findUp(rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		cand := filepath.Join(dir, rel)
		if _, err := os.Stat(cand); err == nil {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
