package postgres

// Names the sub-package networkstore uses (docs/design/architecture.md "Storage adapter"):
// exported wrappers, so that the files that declare them stay as they are.

import (
	"context"

	"github.com/complyd/complyd/internal/tenancy"
	"github.com/jackc/pgx/v5"
)

// InTenant is inTenant, exported.
func (db *DB) InTenant(ctx context.Context, tenant tenancy.TenantID, fn func(pgx.Tx) error) error {
	return db.inTenant(ctx, tenant, fn)
}

// MapErr is mapErr, exported.
func MapErr(err error, what string) error {
	return mapErr(err, what)
}

// InTenantRead is inTenantRead, exported.
func (db *DB) InTenantRead(ctx context.Context, tenant tenancy.TenantID, fn func(pgx.Tx) error) error {
	return db.inTenantRead(ctx, tenant, fn)
}
