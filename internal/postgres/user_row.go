package postgres

import (
	"time"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/tenancy"
)

const userColumns = "id, tenant_id, email, first_name, last_name, role, is_active, totp_secret IS NOT NULL AS mfa_enabled, last_login_at, created_at, updated_at"

type userRow struct {
	ID          string     `db:"id"`
	TenantID    string     `db:"tenant_id"`
	Email       string     `db:"email"`
	FirstName   string     `db:"first_name"`
	LastName    string     `db:"last_name"`
	Role        string     `db:"role"`
	IsActive    bool       `db:"is_active"`
	MFAEnabled  bool       `db:"mfa_enabled"`
	LastLoginAt *time.Time `db:"last_login_at"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
}

func toUser(r userRow) auth.User {
	return auth.User{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), Email: r.Email, FirstName: r.FirstName,
		LastName: r.LastName, Role: auth.Role(r.Role), IsActive: r.IsActive, MFAEnabled: r.MFAEnabled,
		LastLoginAt: r.LastLoginAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}
