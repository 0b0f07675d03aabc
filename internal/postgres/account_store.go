package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/tenancy"
)

// AccountStore is the store of auth.Account: the reads of AuthStore plus the password and TOTP
// writes of the account screens, each with its audit event in the same transaction.
type AccountStore struct {
	*AuthStore
}

// NewAccountStore returns the account store over db.
func NewAccountStore(db *DB) *AccountStore { return &AccountStore{AuthStore: NewAuthStore(db)} }

var _ auth.AccountStore = (*AccountStore)(nil)

// SetPassword implements auth.AccountStore.
func (s *AccountStore) SetPassword(ctx context.Context, tenantID tenancy.TenantID, id, hash string, ev audit.Event) error {
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "update users set password_hash = $3, updated_at = $4 where tenant_id = $1 and id = $2",
			string(tenantID), id, hash, s.db.now())
		if err != nil {
			return fmt.Errorf("update password: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("user not found")
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// SetTOTP implements auth.AccountStore. The secret is sealed like the one VerifyMfa enrols.
func (s *AccountStore) SetTOTP(ctx context.Context, tenantID tenancy.TenantID, id, secret string, lastStep int64, ev audit.Event) (auth.User, error) {
	var sealed *string
	if secret != "" {
		v := s.db.seal.sealText(tenantID, secret)
		sealed = &v
	}
	var r userRow
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		row := tx.QueryRow(ctx, `update users set totp_secret = $3, totp_last_step = $4, updated_at = $5
			where tenant_id = $1 and id = $2 returning `+userColumns, string(tenantID), id, sealed, lastStep, s.db.now())
		if err := scanUser(row, &r); err != nil {
			return mapErr(err, "user")
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
	return toUser(r), err
}

// BrandingStore reads and writes the tenant's logo URL and primary colour (tenants row).
type BrandingStore struct{ db *DB }

// NewBrandingStore returns the branding store over db.
func NewBrandingStore(db *DB) *BrandingStore { return &BrandingStore{db: db} }

// Branding returns the tenant's logo URL (nil when unset), primary colour and time zone.
// Errors: NOT_FOUND.
func (s *BrandingStore) Branding(ctx context.Context, tenantID tenancy.TenantID) (b tenancy.Branding, err error) {
	err = s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		return mapErr(tx.QueryRow(ctx, "select logo_url, primary_color, time_zone from tenants where id = $1", string(tenantID)).
			Scan(&b.LogoURL, &b.PrimaryColor, &b.TimeZone), "tenant")
	})
	return b, err
}

// UpdateBranding changes the given fields (nil: unchanged; logo "" removes it) and records ev
// with the values before and after. Errors: NOT_FOUND.
func (s *BrandingStore) UpdateBranding(ctx context.Context, tenantID tenancy.TenantID, patch tenancy.BrandingPatch, ev audit.Event) (tenancy.Branding, error) {
	var out tenancy.Branding
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var old tenancy.Branding
		if err := tx.QueryRow(ctx, "select logo_url, primary_color, time_zone from tenants where id = $1 for update", string(tenantID)).
			Scan(&old.LogoURL, &old.PrimaryColor, &old.TimeZone); err != nil {
			return mapErr(err, "tenant")
		}
		out = old
		if patch.LogoURL != nil {
			out.LogoURL = patch.LogoURL
			if *patch.LogoURL == "" {
				out.LogoURL = nil
			}
		}
		if patch.PrimaryColor != nil {
			out.PrimaryColor = *patch.PrimaryColor
		}
		if patch.TimeZone != nil {
			out.TimeZone = *patch.TimeZone
		}
		if _, err := tx.Exec(ctx, "update tenants set logo_url = $2, primary_color = $3, time_zone = $4 where id = $1",
			string(tenantID), out.LogoURL, out.PrimaryColor, out.TimeZone); err != nil {
			return fmt.Errorf("update branding: %w", err)
		}
		ev.Before = map[string]any{"logoUrl": old.LogoURL, "primaryColor": old.PrimaryColor, "timeZone": old.TimeZone}
		ev.After = map[string]any{"logoUrl": out.LogoURL, "primaryColor": out.PrimaryColor, "timeZone": out.TimeZone}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
	return out, err
}
