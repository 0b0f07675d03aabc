package postgres

// Names the sub-package webhookstore uses (docs/design/architecture.md "Storage adapter"):
// exported wrappers, so that the files that declare them stay as they are.

import (
	"context"

	"github.com/complyd/complyd/internal/tenancy"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

// River is the DB's river.
func (x *DB) River() *river.Client[pgx.Tx] { return x.river }

// Seal is the DB's seal.
func (x *DB) Seal() *sealer { return x.seal }

// InTenantBatch is inTenantBatch, exported.
func (db *DB) InTenantBatch(ctx context.Context, tenant tenancy.TenantID, b *pgx.Batch) error {
	return db.inTenantBatch(ctx, tenant, b)
}

// Global is global, exported.
func (db *DB) Global(ctx context.Context, fn func(pgx.Tx) error) error {
	return db.global(ctx, fn)
}

// TenantIDs is tenantIDs, exported.
func (db *DB) TenantIDs(ctx context.Context) ([]tenancy.TenantID, error) {
	return db.tenantIDs(ctx)
}

// SealText is sealText, exported.
func (s *sealer) SealText(tenantID tenancy.TenantID, plain string) string {
	return s.sealText(tenantID, plain)
}

// OpenText is openText, exported.
func (s *sealer) OpenText(tenantID tenancy.TenantID, v string) (string, error) {
	return s.openText(tenantID, v)
}

// DeliverOpts is deliverOpts, exported.
func DeliverOpts(o *river.InsertOpts) *river.InsertOpts {
	return deliverOpts(o)
}

// WriteCoalescer is writeCoalescer, exported.
type WriteCoalescer[T any] = writeCoalescer[T]

// NewWriteCoalescer is a writeCoalescer whose write stores one batch and whose key names the row
// an item changes.
func NewWriteCoalescer[T any](write func(ctx context.Context, batch []T) error, key func(T) string) *WriteCoalescer[T] {
	return &writeCoalescer[T]{write: write, key: key}
}

// Do is do, exported.
func (w *writeCoalescer[T]) Do(ctx context.Context, v T) error {
	return w.do(ctx, v)
}

// Tenant is the tenantGroup's tenant.
func (g tenantGroup[T]) Tenant() tenancy.TenantID { return g.tenant }

// Items is the tenantGroup's items.
func (g tenantGroup[T]) Items() []T { return g.items }

// ByTenant is byTenant, exported.
func ByTenant[T any](batch []T, tenant func(T) tenancy.TenantID, id func(T) string) []tenantGroup[T] {
	return byTenant[T](batch, tenant, id)
}
