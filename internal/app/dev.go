package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/pgcluster"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/sanctionsstore"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/sanctionshttp"
)

// Demo credentials printed by `complyd dev`.
const (
	demoSlug     = "demo"
	demoEmail    = "admin@demo.complyd.local"
	demoPassword = "complyd-demo-password"
)

// dev is the one-command local run (docs/design/design-choices.md §1): `complyd dev [--empty]`.
func dev(ctx context.Context, args []string, log *slog.Logger) error {
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	empty := fs.Bool("empty", false, "create the demo tenant and admin only, without demo customers, transactions and cases")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(true)
	if err != nil {
		return err
	}
	return runDev(ctx, log, devParams{Cfg: cfg, Dir: ".complyd", Out: os.Stdout, Empty: *empty,
		ListsDir: findUp(filepath.Join("shared", "data", "sanctions"))})
}

// devParams are runDev's inputs; tests give their own directory, output and ready callback.
type devParams struct {
	Cfg config
	// Dir holds the private PostgreSQL cluster, the JWT secret and the env file (.complyd).
	Dir   string
	Out   io.Writer
	Empty bool
	// ListsDir is the shared data's sanctions directory imported into an empty database ("": none).
	ListsDir string
	// Ready, when set, is called with the bound address once the server accepts requests.
	Ready func(addr string)
}

// runDev binds COMPLYD_ADDR before any other work, so that a busy port stops dev at once with
// the cause and what to set, before a PostgreSQL cluster starts or anything migrates.
func runDev(ctx context.Context, log *slog.Logger, p devParams) error {
	cfg := p.Cfg
	l, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return devAddrError(cfg.Addr, err)
	}
	defer l.Close()
	addr := l.Addr().String()
	if cfg.PublicURL == "" || cfg.PublicURL == "http://"+cfg.Addr {
		cfg.PublicURL = "http://" + addr
	}
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return err
	}
	if cfg.DatabaseURL == "" {
		dir, _ := filepath.Abs(filepath.Join(p.Dir, "pg"))
		// Waits for as long as it takes (a crash recovery can take minutes), with progress in
		// the log; a SIGTERM/SIGINT meanwhile (ctx) stops the cluster before dev exits, and
		// after the start the deferred Stop does (docs/guide/operations.md).
		cl, err := pgcluster.StartWithProgress(ctx, dir, func(msg string) { log.Info("dev: " + msg) }, pgcluster.RecommendedSettings...)
		if errors.Is(err, pgcluster.ErrNoBinaries) {
			return fmt.Errorf("complyd dev needs PostgreSQL: %w", err)
		} else if err != nil {
			return fmt.Errorf("start private PostgreSQL: %w", err)
		}
		defer cl.Stop()
		cfg.DatabaseURL = cl.URL()
		log.Info("private PostgreSQL started", "dir", dir, "url", cfg.DatabaseURL)
	}
	if cfg.JWTSecret == "" {
		if cfg.JWTSecret, err = devSecret(filepath.Join(p.Dir, "jwt-secret")); err != nil {
			return err
		}
	}
	db, err := openDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := seedDevLists(ctx, db, log, p.ListsDir, sanctionshttp.Sources(cfg.SanctionsOFACURL, cfg.SanctionsUNURL)); err != nil {
		log.Warn("dev: sanctions lists not imported", "err", err)
	}
	a, err := buildApp(ctx, cfg, db, log, appOptions{})
	if err != nil {
		return err
	}
	defer a.Close()
	if _, err := db.TenantIDBySlug(ctx, demoSlug); apperr.CodeOf(err) == apperr.NotFound {
		t, _, err := a.Auth.CreateTenant(ctx, auth.CreateTenantParams{Name: "Demo Bank", Slug: demoSlug,
			Admin: auth.NewUser{Email: demoEmail, Password: demoPassword, FirstName: "Demo", LastName: "Admin"}})
		if err != nil {
			return fmt.Errorf("seed demo tenant: %w", err)
		}
		// The demo shows the controls a bank should run with: four eyes on every case
		// resolution (docs/guide/cases.md "Four eyes"; a new tenant's default is off).
		if _, err := cases.NewService(postgres.NewCaseStore(db), postgres.NewCaseUsers(db), time.Now).SaveSettings(ctx,
			audit.Caller{TenantID: t.ID}, audit.System, cases.Settings{FourEyesResolution: true}); err != nil {
			return fmt.Errorf("seed demo tenant's case settings: %w", err)
		}
		// Demo data once, with the tenant: a restarted dev keeps what it has (and what you did).
		if !p.Empty {
			// Demo data is a convenience: dev serves without it rather than not at all.
			if err := seedDemo(ctx, a.Handler, db, log, time.Now().UTC()); err != nil {
				log.Warn("dev: demo data incomplete (start on a fresh database to seed it again)", "err", err)
			}
		}
		// The demo tenant requires the evidence before an approval (docs/guide/kyc.md "Evidence and
		// overrides"); the demo approvals above predate it and show as overrides.
		if err := a.requireApprovalEvidence(ctx, demoSlug); err != nil {
			return fmt.Errorf("seed demo tenant: %w", err)
		}
	} else if err != nil {
		return err
	}
	envPath := filepath.Join(p.Dir, "env")
	if err := writeDevEnv(envPath, [][2]string{{"DATABASE_URL", cfg.DatabaseURL}, {"COMPLYD_URL", "http://" + addr}}); err != nil {
		return fmt.Errorf("write %s: %w", envPath, err)
	}
	// The file describes this run only: the private cluster stops with it.
	defer os.Remove(envPath)
	return runAppOn(ctx, a, cfg, l, log, func(addr string) {
		fmt.Fprintf(p.Out, "\ncomplyd dev is running on http://%s\n  dashboard:  http://%s/\n  login:      %s / %s\n"+
			"  database:   DATABASE_URL=%s\n  env file:   %s (`. %s` in a shell; the complyd CLI reads it by itself)\n"+
			"  try:        curl -s http://%s/api/v1/auth/login -H 'Content-Type: application/json' -d '{\"email\":\"%s\",\"password\":\"%s\"}'\n\n",
			addr, addr, demoEmail, demoPassword, cfg.DatabaseURL, envPath, envPath, addr, demoEmail, demoPassword)
		if p.Ready != nil {
			p.Ready(addr)
		}
	})
}

// devAddrError explains a busy COMPLYD_ADDR and suggests a free port next to it.
func devAddrError(addr string, cause error) error {
	hint := "COMPLYD_ADDR=127.0.0.1:8081"
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if n, err := strconv.Atoi(port); err == nil && n > 0 {
			for next := n + 1; next < n+100 && next < 65536; next++ {
				cand := net.JoinHostPort(host, strconv.Itoa(next))
				if l, err := net.Listen("tcp", cand); err == nil {
					l.Close()
					hint = "COMPLYD_ADDR=" + cand
					break
				}
			}
		}
	}
	return fmt.Errorf("dev cannot listen on COMPLYD_ADDR %s (%w): another complyd or server is running there. "+
		"Nothing was started. Stop it, or choose a free address with COMPLYD_ADDR, e.g. `%s complyd dev`", addr, cause, hint)
}

func devSecret(path string) (string, error) {
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	s := hex.EncodeToString(b)
	return s, os.WriteFile(path, []byte(s), 0o600)
}

// seedDevLists imports the OFAC SDN and UN lists into an empty dev database, so `complyd dev`
// screens against real lists from the first run: the project's shared data when it is beside the
// checkout, else the official lists downloaded from sources, else (per list) the snapshot
// shipped with the binary, with a warning naming its date (devLists).
func seedDevLists(ctx context.Context, db *postgres.DB, log *slog.Logger, dir string, sources []sanctionshttp.Source) error {
	versions, err := sanctionsstore.NewSanctionsStore(db).CurrentVersions(ctx)
	if err != nil || len(versions) > 0 {
		return err
	}
	if dir == "" {
		lists, err := devLists(ctx, log, sanctionshttp.NewFetcher(), sources, devDownloadTimeout)
		if err != nil {
			return err
		}
		for _, l := range lists {
			if err := importList(ctx, db, log, io.Discard, sanctions.ImportParams{List: l.List, Type: sanctions.ListTypeSanctions,
				Format: l.Format, Files: l.Files}); err != nil {
				return err
			}
			log.Info("dev: sanctions list imported", "list", l.List, "from", l.From)
		}
		return nil
	}
	read := func(rel string) (sanctions.SourceFile, error) {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		return sanctions.SourceFile{Name: filepath.Base(rel), Data: b}, err
	}
	imports := []struct {
		list, format string
		files        []string
	}{
		{"OFAC-SDN", sanctions.FormatOFACSDNCSV, []string{sharedLists.sdn, sharedLists.alt, sharedLists.add}},
		{"UN-SC", sanctions.FormatUNXML, []string{sharedLists.un}},
	}
	for _, im := range imports {
		var files []sanctions.SourceFile
		for _, rel := range im.files {
			f, err := read(rel)
			if err != nil {
				return err
			}
			files = append(files, f)
		}
		if err := importList(ctx, db, log, io.Discard, sanctions.ImportParams{List: im.list, Type: sanctions.ListTypeSanctions,
			Format: im.format, Files: files}); err != nil {
			return err
		}
		log.Info("dev: sanctions list imported", "list", im.list, "from", dir)
	}
	return nil
}
