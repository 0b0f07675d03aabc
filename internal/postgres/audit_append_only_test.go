package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
)

// TestAuditIsAppendOnly: the application role can add to the audit log and a report's timeline
// but can neither change nor delete a row of them (migration 0021). Before, both statements
// were allowed and the audit trail could be rewritten by the application.
func TestAuditIsAppendOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	for _, stmt := range []string{
		`update audit_events set action = 'rewritten' where false`,
		`delete from audit_events where false`,
		`update report_events set note = 'rewritten' where false`,
		`delete from report_events where false`,
	} {
		_, err := db.Pool.Exec(ctx, stmt)
		var pgErr *pgconn.PgError
		require.True(t, errors.As(err, &pgErr), "%s: %v", stmt, err)
		require.Equal(t, "42501", pgErr.Code, "%s: insufficient_privilege", stmt)
	}
	var n int
	require.NoError(t, db.Pool.QueryRow(ctx, `select count(*) from audit_events`).Scan(&n), "reading stays allowed")
}
