package app

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/wallet"
)

func errLookupPrice(v string) error {
	return fmt.Errorf("COMPLYD_LOOKUP_PRICE must be a non-negative decimal number of NGN, got %q", v)
}

// walletCmd is `complyd wallet credit --tenant SLUG --amount N --reference REF` (docs/design/design-choices.md §1):
// the platform operator's top-up, idempotent on the reference; it prints the new balance as JSON.
func walletCmd(ctx context.Context, args []string, log *slog.Logger) error {
	if len(args) == 0 || args[0] != "credit" {
		return fmt.Errorf("usage: complyd wallet credit --tenant SLUG --amount N --reference REF [--description D]")
	}
	fs := flag.NewFlagSet("wallet credit", flag.ContinueOnError)
	slug := fs.String("tenant", "", "tenant slug")
	amount := fs.String("amount", "", "amount in NGN, for example 5000 or 2500.50")
	ref := fs.String("reference", "", "top-up reference (payment id); replaying it changes nothing")
	desc := fs.String("description", "", "optional description shown in the ledger")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *slug == "" || *amount == "" || *ref == "" {
		return fmt.Errorf("--tenant, --amount and --reference are required")
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
	return creditWallet(ctx, db, os.Stdout, *slug, *amount, *ref, *desc, log)
}

func creditWallet(ctx context.Context, db *postgres.DB, out io.Writer, slug, amount, ref, desc string, log *slog.Logger) error {
	tenantID, err := db.TenantIDBySlug(ctx, slug)
	if err != nil {
		return fmt.Errorf("tenant %q: %w", slug, err)
	}
	amt, err := wallet.ParseAmount("amount", amount)
	if err != nil {
		return fmt.Errorf("--amount must be a decimal number")
	}
	svc := wallet.NewService(postgres.NewWalletStore(db), amt, log)
	w, err := svc.Credit(ctx, tenantID, audit.System, wallet.Credit{Amount: amt, Reference: ref, Description: desc})
	if err != nil {
		return err
	}
	return json.NewEncoder(out).Encode(map[string]string{"tenantId": string(tenantID), "balance": w.Balance.StringFixed(2),
		"currency": wallet.Currency, "reference": ref})
}
