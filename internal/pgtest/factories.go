package pgtest

import (
	"github.com/jackc/pgx/v5"

	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// Password is the password of every user the factories create.
const Password = "correct-horse-battery"

var passwordHash = func() string {
	h, err := auth.HashPassword(Password)
	if err != nil {
		panic(err)
	}
	return h
}()

// TenantFixture is a tenant with its first BANK_ADMIN.
type TenantFixture struct {
	ID         tenancy.TenantID
	Slug       string
	AdminID    string
	AdminEmail string
}

// Tenant creates a fresh tenant and its admin (password Password).
func Tenant(ctx context.Context, t testing.TB, db *postgres.DB) TenantFixture {
	t.Helper()
	id := tenancy.TenantID(uuid.NewString())
	slug := "t-" + randHex(6)
	now := time.Now().UTC().Truncate(time.Microsecond)
	admin := auth.User{ID: uuid.NewString(), TenantID: id, Email: "admin-" + randHex(5) + "@" + slug + ".test", FirstName: "Ada",
		LastName: "Admin", Role: auth.RoleBankAdmin, IsActive: true, CreatedAt: now, UpdatedAt: now}
	err := postgres.NewAuthStore(db).CreateTenant(ctx, tenancy.Tenant{ID: id, Name: "Bank " + slug, Slug: slug, PrimaryColor: "#0B5FFF", CreatedAt: now},
		admin, passwordHash, audit.Event{TenantID: id, Actor: audit.System, Action: "tenant.created", ResourceType: "tenant"})
	if err != nil {
		t.Fatalf("pgtest.Tenant: %v", err)
	}
	return TenantFixture{ID: id, Slug: slug, AdminID: admin.ID, AdminEmail: admin.Email}
}

// UserOpts shape a user fixture.
type UserOpts struct {
	Role     auth.Role
	Inactive bool
}

// User creates a user of the tenant (password Password) and returns it.
func User(ctx context.Context, t testing.TB, db *postgres.DB, tenantID tenancy.TenantID, o *UserOpts) auth.User {
	t.Helper()
	if o == nil {
		o = &UserOpts{}
	}
	if o.Role == "" {
		o.Role = auth.RoleAnalyst
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	u := auth.User{ID: uuid.NewString(), TenantID: tenantID, Email: strings.ToLower(string(o.Role)) + "-" + randHex(5) + "@users.test",
		FirstName: "Test", LastName: string(o.Role), Role: o.Role, IsActive: true, CreatedAt: now, UpdatedAt: now}
	// Straight into the tables, in the tenant's scope as row-level security wants: a fixture
	// needs no welcome mail or audit record.
	if err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(tenantID)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `insert into users (id, tenant_id, email, password_hash, first_name, last_name, role, is_active,
			created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
			u.ID, string(tenantID), u.Email, passwordHash, u.FirstName, u.LastName, string(u.Role), u.IsActive, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `insert into user_emails (email, tenant_id, user_id) values ($1, $2, $3)`, u.Email, string(tenantID), u.ID)
		return err
	}); err != nil {
		t.Fatalf("pgtest.User: %v", err)
	}
	st := postgres.NewAuthStore(db)
	if o.Inactive {
		f := false
		if _, err := st.UpdateUser(ctx, tenantID, u.ID, func(x *auth.User) (audit.Event, error) { x.IsActive = f; return audit.Event{}, nil }); err != nil {
			t.Fatalf("pgtest.User: %v", err)
		}
		u.IsActive = false
	}
	return u
}
