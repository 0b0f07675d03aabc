package postgres

import (
	"context"
	"fmt"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// AuthStore implements auth.Store.
type AuthStore struct{ db *DB }

// NewAuthStore returns the auth store over db.
func NewAuthStore(db *DB) *AuthStore { return &AuthStore{db: db} }

var _ auth.Store = (*AuthStore)(nil)

func getUser(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string, lock bool) (auth.User, error) {
	b := psql.Select(userColumns).From("users").Where(sq.Eq{"tenant_id": string(tenantID), "id": id})
	if lock {
		b = b.Suffix("FOR UPDATE")
	}
	r, err := one[userRow](ctx, tx, b, "user")
	return toUser(r), err
}

// FindLogin resolves a login email through the global directory.
func (s *AuthStore) FindLogin(ctx context.Context, email string) (tenancy.TenantID, string, error) {
	var tenantID, userID string
	err := s.db.Pool.QueryRow(ctx, "select tenant_id, user_id from user_emails where email = $1", email).Scan(&tenantID, &userID)
	if err != nil {
		return "", "", mapErr(err, "user")
	}
	return tenancy.TenantID(tenantID), userID, nil
}

// GetTenant returns a tenant.
func (s *AuthStore) GetTenant(ctx context.Context, tenantID tenancy.TenantID) (tenancy.Tenant, error) {
	var t tenancy.Tenant
	var id string
	err := s.db.readOne(ctx, tenantID, "tenant", psql.Select("t.id, t.name, t.slug, t.logo_url, t.primary_color, t.time_zone, s.mfa_required, t.created_at").
		From("tenants t").Join("tenant_settings s ON s.tenant_id = t.id").Where(sq.Eq{"t.id": string(tenantID)}),
		func(row pgx.Row) error {
			return row.Scan(&id, &t.Name, &t.Slug, &t.LogoURL, &t.PrimaryColor, &t.TimeZone, &t.MFARequired, &t.CreatedAt)
		})
	t.ID = tenancy.TenantID(id)
	return t, err
}

// GetUser returns a user of the tenant.
func (s *AuthStore) GetUser(ctx context.Context, tenantID tenancy.TenantID, id string) (auth.User, error) {
	var r userRow
	err := s.db.readOne(ctx, tenantID, "user", psql.Select(userColumns).From("users").Where(sq.Eq{"tenant_id": string(tenantID), "id": id}),
		func(row pgx.Row) error { return scanUser(row, &r) })
	return toUser(r), err
}

// GetProfile returns a user and its tenant in one round trip (GET /auth/me).
func (s *AuthStore) GetProfile(ctx context.Context, tenantID tenancy.TenantID, id string) (auth.User, tenancy.Tenant, error) {
	var r userRow
	var t tenancy.Tenant
	var tid string
	err := s.db.readOne(ctx, tenantID, "user", psql.Select(prefixed("u", userColumns),
		"t.id, t.name, t.slug, t.logo_url, t.primary_color, t.time_zone, s.mfa_required, t.created_at").
		From("users u").Join("tenants t ON t.id = u.tenant_id").Join("tenant_settings s ON s.tenant_id = u.tenant_id").
		Where(sq.Eq{"u.tenant_id": string(tenantID), "u.id": id}),
		func(row pgx.Row) error {
			return row.Scan(&r.ID, &r.TenantID, &r.Email, &r.FirstName, &r.LastName, &r.Role, &r.IsActive, &r.MFAEnabled,
				&r.LastLoginAt, &r.CreatedAt, &r.UpdatedAt, &tid, &t.Name, &t.Slug, &t.LogoURL, &t.PrimaryColor, &t.TimeZone, &t.MFARequired, &t.CreatedAt)
		})
	t.ID = tenancy.TenantID(tid)
	return toUser(r), t, err
}

// scanUser scans userColumns in order.
func scanUser(row pgx.Row, r *userRow) error {
	return row.Scan(&r.ID, &r.TenantID, &r.Email, &r.FirstName, &r.LastName, &r.Role, &r.IsActive, &r.MFAEnabled,
		&r.LastLoginAt, &r.CreatedAt, &r.UpdatedAt)
}

// GetCredentials returns a user's password hash and TOTP secret.
func (s *AuthStore) GetCredentials(ctx context.Context, tenantID tenancy.TenantID, id string) (auth.Credentials, error) {
	var c auth.Credentials
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var totp *string
		err := tx.QueryRow(ctx, "select password_hash, totp_secret from users where tenant_id = $1 and id = $2",
			string(tenantID), id).Scan(&c.PasswordHash, &totp)
		if err != nil {
			return mapErr(err, "user")
		}
		c.TOTPSecret, err = s.db.seal.openText(tenantID, deref(totp))
		return err
	})
	return c, err
}

// ListUsers pages users, oldest first.
func (s *AuthStore) ListUsers(ctx context.Context, tenantID tenancy.TenantID, role auth.Role, p paging.Params) (paging.Result[auth.User], error) {
	res := paging.Result[auth.User]{Page: p.Page, Limit: p.Limit, Items: []auth.User{}}
	where := sq.Eq{"tenant_id": string(tenantID)}
	if role != "" {
		where["role"] = string(role)
	}
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := count(ctx, tx, psql.Select("count(*)").From("users").Where(where))
		if err != nil {
			return err
		}
		rows, err := collect[userRow](ctx, tx, psql.Select(userColumns).From("users").Where(where).
			OrderBy("created_at", "id").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, toUser(r))
		}
		return nil
	})
	return res, err
}

// CreateUser inserts the user, its login email, the welcome email with its job, and the audit event.
func (s *AuthStore) CreateUser(ctx context.Context, u auth.User, passwordHash string, welcome notify.Message, ev audit.Event) (auth.User, error) {
	err := s.db.inTenant(ctx, u.TenantID, func(tx pgx.Tx) error {
		if err := insertUser(ctx, tx, u, passwordHash); err != nil {
			return err
		}
		if err := s.db.queueEmail(ctx, tx, welcome); err != nil {
			return err
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
	return u, err
}

func insertUser(ctx context.Context, tx pgx.Tx, u auth.User, passwordHash string) error {
	err := exec(ctx, tx, psql.Insert("users").
		Columns("id", "tenant_id", "email", "password_hash", "first_name", "last_name", "role", "is_active", "created_at", "updated_at").
		Values(u.ID, string(u.TenantID), u.Email, passwordHash, u.FirstName, u.LastName, string(u.Role), u.IsActive, u.CreatedAt, u.UpdatedAt))
	if err != nil {
		return mapErr(err, "user")
	}
	err = exec(ctx, tx, psql.Insert("user_emails").Columns("email", "tenant_id", "user_id").Values(u.Email, string(u.TenantID), u.ID))
	return mapErr(err, "user")
}

// UpdateUser locks the user, applies fn, writes the row and audit, and revokes sessions of a
// deactivated user.
func (s *AuthStore) UpdateUser(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*auth.User) (audit.Event, error)) (auth.User, error) {
	var u auth.User
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		var err error
		u, err = getUser(ctx, tx, tenantID, id, true)
		if err != nil {
			return err
		}
		ev, err := fn(&u)
		if err != nil {
			return err
		}
		if err := exec(ctx, tx, psql.Update("users").SetMap(map[string]any{
			"first_name": u.FirstName, "last_name": u.LastName, "role": string(u.Role), "is_active": u.IsActive, "updated_at": u.UpdatedAt,
		}).Where(sq.Eq{"tenant_id": string(tenantID), "id": id})); err != nil {
			return err
		}
		if !u.IsActive {
			if _, err := tx.Exec(ctx, `update token_families set revoked_at = $3, revoke_reason = 'user deactivated'
				where tenant_id = $1 and user_id = $2 and revoked_at is null`, string(tenantID), id, s.db.now()); err != nil {
				return fmt.Errorf("revoke families: %w", err)
			}
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
	return u, err
}

// RecordLoginFailure writes the audit event of a failed login.
func (s *AuthStore) RecordLoginFailure(ctx context.Context, ev audit.Event) error {
	return s.db.inTenant(ctx, ev.TenantID, func(tx pgx.Tx) error { return insertAudit(ctx, tx, ev, s.db.now()) })
}

// GetMFARequired reads the tenant's MFA policy.
func (s *AuthStore) GetMFARequired(ctx context.Context, tenantID tenancy.TenantID) (bool, error) {
	var req bool
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		return mapErr(tx.QueryRow(ctx, "select mfa_required from tenant_settings where tenant_id = $1", string(tenantID)).Scan(&req), "tenant")
	})
	return req, err
}

// SetMFARequired changes the tenant's MFA policy.
func (s *AuthStore) SetMFARequired(ctx context.Context, tenantID tenancy.TenantID, required bool, ev audit.Event) error {
	return s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "update tenant_settings set mfa_required = $2, updated_at = $3 where tenant_id = $1",
			string(tenantID), required, s.db.now())
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return apperr.NotFoundf("tenant not found")
		}
		return insertAudit(ctx, tx, ev, s.db.now())
	})
}
