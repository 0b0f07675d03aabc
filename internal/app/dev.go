package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/pgcluster"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctions"
)

// Demo credentials printed by `complyd dev`.
const (
	demoSlug     = "demo"
	demoEmail    = "admin@demo.complyd.local"
	demoPassword = "complyd-demo-password"
)

// dev is the one-command local run (decisions.md §1).
func dev(ctx context.Context, log *slog.Logger) error {
	cfg, err := loadConfig(true)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(".complyd", 0o755); err != nil {
		return err
	}
	if cfg.DatabaseURL == "" {
		dir, _ := filepath.Abs(filepath.Join(".complyd", "pg"))
		cl, err := pgcluster.Start(ctx, dir)
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
		if cfg.JWTSecret, err = devSecret(filepath.Join(".complyd", "jwt-secret")); err != nil {
			return err
		}
	}
	db, err := openDB(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := seedDevLists(ctx, db, log); err != nil {
		log.Warn("dev: sanctions lists not imported", "err", err)
	}
	a, err := buildApp(ctx, cfg, db, log, appOptions{})
	if err != nil {
		return err
	}
	defer a.Close()
	if _, err := db.TenantIDBySlug(ctx, demoSlug); apperr.CodeOf(err) == apperr.NotFound {
		if _, _, err := a.Auth.CreateTenant(ctx, auth.CreateTenantParams{Name: "Demo Bank", Slug: demoSlug,
			Admin: auth.NewUser{Email: demoEmail, Password: demoPassword, FirstName: "Demo", LastName: "Admin"}}); err != nil {
			return fmt.Errorf("seed demo tenant: %w", err)
		}
	} else if err != nil {
		return err
	}
	return runApp(ctx, a, cfg, log, func(addr string) {
		fmt.Printf("\ncomplyd dev is running on http://%s\n  dashboard:  http://%s/\n  login:      %s / %s\n"+
			"  try:        curl -s http://%s/api/v1/auth/login -H 'Content-Type: application/json' -d '{\"email\":\"%s\",\"password\":\"%s\"}'\n\n",
			addr, addr, demoEmail, demoPassword, addr, demoEmail, demoPassword)
	})
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

// seedDevLists imports the OFAC SDN and UN lists of the project's shared data into an empty dev
// database, so `complyd dev` screens against real lists from the first run. Without the shared
// data it says how to import lists.
func seedDevLists(ctx context.Context, db *postgres.DB, log *slog.Logger) error {
	versions, err := postgres.NewSanctionsStore(db).CurrentVersions(ctx)
	if err != nil || len(versions) > 0 {
		return err
	}
	dir := findUp(filepath.Join("shared", "data", "sanctions"))
	if dir == "" {
		log.Info("no sanctions lists loaded; import them with `complyd watchlist import` (README)")
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
