package postgres_test

import (
	"context"
	"testing"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
)

// newScreeningStore starts a screening store with options o on a fresh database, stopped when
// the test ends (as in internal/postgres/screenstore's tests).
func newScreeningStore(t testing.TB, o screenstore.ScreeningStoreOptions) (context.Context, *postgres.DB, *screenstore.ScreeningStore) {
	t.Helper()
	db := pgtest.DB(t)
	st := screenstore.NewScreeningStore(db, o)
	t.Cleanup(st.Close)
	return context.Background(), db, st
}
