package postgres_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestRowLevelSecurity proves the second wall: a deliberately unscoped query, run as the
// application role, sees only the rows of the tenant set on the transaction, and nothing at all
// when no tenant is set.
func TestRowLevelSecurity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	a := pgtest.Tenant(ctx, t, db)
	b := pgtest.Tenant(ctx, t, db)
	pgtest.User(ctx, t, db, b.ID, nil)

	countUsers := func(tenant string) (n int, ids []string) {
		err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
			if tenant != "" {
				if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", tenant); err != nil {
					return err
				}
			}
			rows, err := tx.Query(ctx, "select tenant_id::text from users") // no WHERE on purpose
			if err != nil {
				return err
			}
			ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
			n = len(ids)
			return err
		})
		require.NoError(t, err)
		return n, ids
	}

	n, ids := countUsers(string(a.ID))
	require.Equal(t, 1, n)
	require.Equal(t, []string{string(a.ID)}, ids)
	n, ids = countUsers(string(b.ID))
	require.Equal(t, 2, n)
	for _, id := range ids {
		require.Equal(t, string(b.ID), id)
	}
	n, _ = countUsers("")
	require.Zero(t, n, "no tenant set must see no tenant rows")

	var role string
	require.NoError(t, db.Pool.QueryRow(ctx, "select current_user").Scan(&role))
	require.Equal(t, "complyd_app", role)

	// Writing a row for another tenant is refused by the policy's WITH CHECK.
	err := pgx.BeginFunc(ctx, db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(a.ID)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `insert into audit_events (id, tenant_id, actor_type, action, resource_type)
			values ($1, $2, 'SYSTEM', 'x', 'y')`, uuid.NewString(), string(b.ID))
		return err
	})
	require.ErrorContains(t, err, "row-level security")
}
