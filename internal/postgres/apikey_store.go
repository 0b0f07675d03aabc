package postgres

import (
	"context"
	"crypto/subtle"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/tenancy"
)

type apiKeyRow struct {
	ID         string     `db:"id"`
	TenantID   string     `db:"tenant_id"`
	CreatedBy  string     `db:"created_by"`
	Name       string     `db:"name"`
	Prefix     string     `db:"prefix"`
	ExpiresAt  *time.Time `db:"expires_at"`
	RevokedAt  *time.Time `db:"revoked_at"`
	LastUsedAt *time.Time `db:"last_used_at"`
	CreatedAt  time.Time  `db:"created_at"`
}

const apiKeyColumns = "id, tenant_id, created_by, name, prefix, expires_at, revoked_at, last_used_at, created_at"

func toAPIKey(r apiKeyRow) auth.APIKey {
	return auth.APIKey{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), CreatedBy: r.CreatedBy, Name: r.Name, Prefix: r.Prefix,
		ExpiresAt: r.ExpiresAt, RevokedAt: r.RevokedAt, LastUsedAt: r.LastUsedAt, CreatedAt: r.CreatedAt}
}

// CreateAPIKey stores a key by its hash.
func (s *AuthStore) CreateAPIKey(ctx context.Context, k auth.APIKey, hash []byte, ev audit.Event) error {
	return s.db.inTenant(ctx, k.TenantID, func(tx pgx.Tx) error {
		if err := exec(ctx, tx, psql.Insert("api_keys").
			Columns("id", "tenant_id", "created_by", "name", "prefix", "key_hash", "expires_at", "created_at").
			Values(k.ID, string(k.TenantID), k.CreatedBy, k.Name, k.Prefix, hash, k.ExpiresAt, k.CreatedAt)); err != nil {
			return err
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}

// ListAPIKeys lists keys newest first.
func (s *AuthStore) ListAPIKeys(ctx context.Context, tenantID tenancy.TenantID) ([]auth.APIKey, error) {
	out := []auth.APIKey{}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := collect[apiKeyRow](ctx, tx, psql.Select(apiKeyColumns).From("api_keys").
			Where(sq.Eq{"tenant_id": string(tenantID)}).OrderBy("created_at DESC", "id"))
		for _, r := range rows {
			out = append(out, toAPIKey(r))
		}
		return err
	})
	return out, err
}

// RevokeAPIKey revokes a key.
func (s *AuthStore) RevokeAPIKey(ctx context.Context, tenantID tenancy.TenantID, id string, at time.Time, ev audit.Event) (auth.APIKey, error) {
	var k auth.APIKey
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := one[apiKeyRow](ctx, tx, psql.Update("api_keys").Set("revoked_at", sq.Expr("coalesce(revoked_at, ?)", at)).
			Where(sq.Eq{"tenant_id": string(tenantID), "id": id}).Suffix("RETURNING "+apiKeyColumns), "API key")
		if err != nil {
			return err
		}
		k = toAPIKey(r)
		return insertAudit(ctx, tx, ev, s.db.now())
	})
	return k, err
}

// ResolveAPIKey returns the creator and the key when the key is live and its creator active.
func (s *AuthStore) ResolveAPIKey(ctx context.Context, tenantID tenancy.TenantID, hash []byte, now time.Time) (auth.User, auth.APIKey, error) {
	var u auth.User
	var k auth.APIKey
	denied := apperr.New(apperr.Unauthenticated, "API key is invalid, revoked or expired")
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var kr apiKeyRow
		var stored []byte
		var ur userRow
		err := tx.QueryRow(ctx, `select `+prefixed("k", apiKeyColumns)+`, k.key_hash, `+prefixed("u", userColumns)+`
			from api_keys k join users u on u.id = k.created_by and u.tenant_id = k.tenant_id
			where k.tenant_id = $1 and k.key_hash = $2`, string(tenantID), hash).Scan(
			&kr.ID, &kr.TenantID, &kr.CreatedBy, &kr.Name, &kr.Prefix, &kr.ExpiresAt, &kr.RevokedAt, &kr.LastUsedAt, &kr.CreatedAt, &stored,
			&ur.ID, &ur.TenantID, &ur.Email, &ur.FirstName, &ur.LastName, &ur.Role, &ur.IsActive, &ur.MFAEnabled, &ur.LastLoginAt, &ur.CreatedAt, &ur.UpdatedAt)
		if err != nil {
			if apperr.CodeOf(mapErr(err, "key")) == apperr.NotFound {
				return denied
			}
			return err
		}
		if subtle.ConstantTimeCompare(stored, hash) != 1 || kr.RevokedAt != nil || !ur.IsActive ||
			(kr.ExpiresAt != nil && !now.Before(*kr.ExpiresAt)) {
			return denied
		}
		u, k = toUser(ur), toAPIKey(kr)
		return nil
	})
	return u, k, err
}
