package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// CreateTenant inserts a tenant, its settings and its first admin in one transaction.
func (s *AuthStore) CreateTenant(ctx context.Context, t tenancy.Tenant, admin auth.User, passwordHash string, ev audit.Event) error {
	return s.db.inTenant(ctx, t.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `insert into tenants (id, name, slug, logo_url, primary_color, created_at) values ($1, $2, $3, $4, $5, $6)`,
			string(t.ID), t.Name, t.Slug, t.LogoURL, t.PrimaryColor, t.CreatedAt); err != nil {
			return mapErr(err, "tenant")
		}
		if _, err := tx.Exec(ctx, `insert into tenant_settings (tenant_id) values ($1)`, string(t.ID)); err != nil {
			return err
		}
		if err := insertUser(ctx, tx, admin, passwordHash); err != nil {
			return err
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// TenantIDBySlug resolves a slug (tenants are publicly readable; settings are not).
func (db *DB) TenantIDBySlug(ctx context.Context, slug string) (tenancy.TenantID, error) {
	var id string
	err := db.Pool.QueryRow(ctx, "select id from tenants where slug = $1", slug).Scan(&id)
	return tenancy.TenantID(id), mapErr(err, "tenant")
}

// ListAudit pages the tenant's audit log.
func (s *AuthStore) ListAudit(ctx context.Context, tenantID tenancy.TenantID, f audit.ListParams, p paging.Params) (paging.Result[audit.Event], error) {
	return s.db.ListAudit(ctx, tenantID, f, p)
}
