package postgres

// Names the sub-package applicationstore uses (docs/design/architecture.md "Storage adapter"):
// exported wrappers, so that the files that declare them stay as they are.

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/wallet"
)

// Dec is dec, exported.
func Dec(s string) decimal.Decimal { return dec(s) }

// SettleHold is settleHold, exported.
func (db *DB) SettleHold(ctx context.Context, tx pgx.Tx, h wallet.Hold, description string) (decimal.Decimal, error) {
	return db.settleHold(ctx, tx, h, description)
}

// SealKYCColumns is sealKYCIdentifiers, exported.
func (db *DB) SealKYCColumns(vals map[string]any, a kyc.Application) { db.sealKYCIdentifiers(vals, a) }
