package app

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/postgres"
)

func tenantCmd(ctx context.Context, args []string, log *slog.Logger) error {
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("usage: complyd tenant create --name N --slug S --admin-email E --admin-password P")
	}
	fs := flag.NewFlagSet("tenant create", flag.ContinueOnError)
	name := fs.String("name", "", "institution name")
	slug := fs.String("slug", "", "tenant slug (lowercase letters, digits, dashes)")
	email := fs.String("admin-email", "", "first BANK_ADMIN's email")
	password := fs.String("admin-password", "", "first BANK_ADMIN's password (8+ characters)")
	first := fs.String("admin-first-name", "", "first BANK_ADMIN's first name")
	last := fs.String("admin-last-name", "", "first BANK_ADMIN's last name")
	if err := fs.Parse(args[1:]); err != nil {
		return err
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
	return createTenant(ctx, operatorAuth(db, log), os.Stdout, auth.CreateTenantParams{Name: *name, Slug: *slug,
		Admin: auth.NewUser{Email: *email, Password: *password, FirstName: *first, LastName: *last}})
}

func createTenant(ctx context.Context, svc *auth.Service, w io.Writer, p auth.CreateTenantParams) error {
	t, u, err := svc.CreateTenant(ctx, p)
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(map[string]string{"tenantId": string(t.ID), "adminUserId": u.ID})
}

// operatorAuth is the auth service of operator commands: they create tenants and users but never
// issue tokens, so it needs none of the server's wiring (and loads no sanctions lists).
func operatorAuth(db *postgres.DB, log *slog.Logger) *auth.Service {
	now := func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
	return auth.NewService(auth.Deps{Store: postgres.NewAuthStore(db),
		Tokens: auth.NewAccessTokens([]byte("operator-commands-issue-no-tokens"), now), Limiter: auth.NewLoginLimiter(auth.LoginAttemptsPerEmail, auth.LoginAttemptsPerIP, now),
		Now: now, Logger: log})
}
