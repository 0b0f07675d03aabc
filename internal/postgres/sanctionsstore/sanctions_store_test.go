package sanctionsstore_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/sanctionsstore"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
)

// missingData skips a test whose shared/data files are absent, on a developer's machine only:
// in CI (CI or COMPLYD_REQUIRE_DATA set, as .ci/run does) the data is part of the checkout and
// its absence fails the test instead of letting it pass unrun.
func missingData(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv("CI") != "" || os.Getenv("COMPLYD_REQUIRE_DATA") != "" {
		tb.Fatalf("required test data missing (CI): "+format, args...)
	}
	tb.Skipf(format, args...)
}

// sharedFile reads a file of shared/data/sanctions, found by walking up from the working
// directory (skips when absent).
func sharedFile(t *testing.T, rel string) []byte {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		p := filepath.Join(dir, "shared", "data", "sanctions", rel)
		if b, err := os.ReadFile(p); err == nil {
			return b
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			missingData(t, "shared/data/sanctions not found above the working directory")
		}
		dir = parent
	}
}

func newSanctionsService(db *postgres.DB) *sanctions.Service {
	return sanctions.NewService(sanctions.Deps{Store: sanctionsstore.NewSanctionsStore(db), Matcher: sanctions.NewMatcher(),
		Now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }, Logger: slog.New(slog.DiscardHandler), NewID: uuid.NewString})
}

// TestSanctionsImport covers a good import, a bad file that leaves the version in force, a
// replaced file that another replica picks up through LISTEN/NOTIFY within seconds, identical
// files that store nothing, and the re-screening job enqueued per tenant in the import's
// transaction.
func TestSanctionsImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := pgtest.Fresh(t) // rows of fixed ids, or a database-wide state: a database of its own
	tenant := pgtest.Tenant(ctx, t, db)
	list := "UN-T" + strings.ToUpper(uuid.NewString()[:8])
	un := sharedFile(t, "un_sc/2026-02-27/consolidated.xml")

	primary := newSanctionsService(db)
	replica := newSanctionsService(db)
	require.NoError(t, replica.LoadAll(ctx))
	lctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	l := db.NewListener(sanctions.NotifyChannel)
	l.Connected, l.Notified = replica.LoadAll, replica.HandleNotification
	go l.Run(lctx)
	<-l.Ready()

	search := func(s *sanctions.Service, name string) []sanctions.Match {
		ms, err := s.Screen(ctx, tenant.ID, sanctions.ScreenParams{Name: name, Threshold: 0.95})
		require.NoError(t, err)
		var out []sanctions.Match
		for _, m := range ms {
			if m.List == list {
				out = append(out, m)
			}
		}
		return out
	}
	eventually := func(cond func() bool) {
		t.Helper()
		require.Eventually(t, cond, 10*time.Second, 20*time.Millisecond)
	}

	// Good file: version 1, in the importing replica at once and in the other within seconds.
	res, err := primary.Import(ctx, sanctions.ImportParams{List: list, Format: sanctions.FormatUNXML,
		Files: []sanctions.SourceFile{{Name: "consolidated.xml", Data: un}}})
	require.NoError(t, err)
	require.Equal(t, 1, res.Version.Version)
	require.Greater(t, res.Version.EntryCount, 900)
	require.Len(t, res.Version.Files, 1)
	require.Len(t, res.Version.Files[0].SHA256, 64)
	hit := search(primary, "Eric Badege")
	require.Len(t, hit, 1)
	require.Equal(t, strings.ToLower(list)+":6907993", hit[0].EntryID)
	require.Equal(t, "6907993", hit[0].SourceID)
	eventually(func() bool { return len(search(replica, "Eric Badege")) == 1 })

	// The import enqueued one re-screening job for every tenant (the fixture tenant among them).
	var jobs int
	require.NoError(t, db.Pool.QueryRow(ctx, `select count(*) from river_job where kind = 'sanctions_rescreen'
		and args->>'list' = $1 and args->>'tenantId' = $2 and args->>'listVersion' = $3`, list, string(tenant.ID), list+"@1").Scan(&jobs))
	require.Equal(t, 1, jobs)

	// Identical files: nothing stored.
	res, err = primary.Import(ctx, sanctions.ImportParams{List: list, Format: sanctions.FormatUNXML,
		Files: []sanctions.SourceFile{{Name: "consolidated.xml", Data: un}}})
	require.NoError(t, err)
	require.True(t, res.Unchanged)
	require.Equal(t, 1, res.Version.Version)

	// Bad file (truncated XML): a clear error, version 1 stays in force everywhere.
	_, err = primary.Import(ctx, sanctions.ImportParams{List: list, Format: sanctions.FormatUNXML,
		Files: []sanctions.SourceFile{{Name: "consolidated.xml", Data: un[:len(un)/2]}}})
	require.ErrorIs(t, err, sanctions.ErrBadListFile)
	require.Contains(t, err.Error(), "XML syntax error")
	cur := currentVersion(t, db, list)
	require.Equal(t, 1, cur.Version)
	require.Len(t, search(primary, "Eric Badege"), 1)

	// Replaced file (Eric Badege delisted): version 2 replaces version 1 in both replicas.
	i := strings.Index(string(un), "<INDIVIDUAL>")
	j := strings.Index(string(un), "</INDIVIDUAL>") + len("</INDIVIDUAL>")
	v2 := append(append([]byte{}, un[:i]...), un[j:]...)
	res, err = primary.Import(ctx, sanctions.ImportParams{List: list, Format: sanctions.FormatUNXML,
		Files: []sanctions.SourceFile{{Name: "consolidated.xml", Data: v2}}})
	require.NoError(t, err)
	require.Equal(t, 2, res.Version.Version)
	require.Equal(t, cur.EntryCount-1, res.Version.EntryCount)
	require.Empty(t, search(primary, "Eric Badege"))
	eventually(func() bool { return len(search(replica, "Eric Badege")) == 0 })
	require.Equal(t, primary.Matcher().Global().Len(), replica.Matcher().Global().Len())
	require.Equal(t, 2, currentVersion(t, db, list).Version)
	require.Equal(t, sanctions.HealthOK, replica.Health(ctx))

	// A tenant watchlist entry added through one replica is screened by the other within seconds.
	actor := audit.Actor{ID: tenant.AdminID, Type: audit.ActorUser}
	w, err := primary.CreateWatchlist(ctx, tenant.ID, actor, "Internal "+list, sanctions.ListTypeInternal)
	require.NoError(t, err)
	e, err := primary.AddEntry(ctx, tenant.ID, actor, w.ID, sanctions.NewWatchlistEntry{Name: "Obinna Chukwuemeka Okafor", Reference: "CUST-9"})
	require.NoError(t, err)
	findEntry := func(s *sanctions.Service, tid tenancy.TenantID) bool {
		ms, err := s.Screen(ctx, tid, sanctions.ScreenParams{Name: "Obinna Okafor"})
		require.NoError(t, err)
		for _, m := range ms {
			if m.EntryID == e.ID && m.SourceID == "CUST-9" && m.List == w.Name && m.ListType == sanctions.ListTypeInternal {
				return true
			}
		}
		return false
	}
	require.True(t, findEntry(primary, tenant.ID))
	eventually(func() bool { return findEntry(replica, tenant.ID) })
	other := pgtest.Tenant(ctx, t, db)
	require.False(t, findEntry(primary, other.ID), "another tenant never sees the entry")
	require.NoError(t, primary.DeleteEntry(ctx, tenant.ID, actor, w.ID, e.ID))
	require.False(t, findEntry(primary, tenant.ID))
	eventually(func() bool { return !findEntry(replica, tenant.ID) })
	_, err = primary.GetWatchlist(ctx, other.ID, w.ID)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err))
}

func currentVersion(t *testing.T, db *postgres.DB, list string) sanctions.ListVersion {
	t.Helper()
	vs, err := sanctionsstore.NewSanctionsStore(db).CurrentVersions(context.Background())
	require.NoError(t, err)
	for _, v := range vs {
		if v.List == list {
			return v
		}
	}
	t.Fatalf("no current version of %s", list)
	return sanctions.ListVersion{}
}

// TestSanctionsLoadAllKeepsCurrentIndex: LoadAll runs at start-up and again on the listener's
// first connection. When the global lists' current versions are the ones in memory, the second
// keeps the index it has (rebuilding the OFAC and UN index costs about a second of CPU while a
// new replica is already screening); a new version is read and indexed, and a tenant's
// watchlist entry added meanwhile is loaded either way, and one deleted meanwhile (the
// tenant's last) is forgotten. A database of its own, so that no parallel test changes the
// global lists between the loads.
func TestSanctionsLoadAllKeepsCurrentIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := pgtest.Fresh(t)
	tenant := pgtest.Tenant(ctx, t, db)
	list := "UN-K" + strings.ToUpper(uuid.NewString()[:8])
	un := sharedFile(t, "un_sc/2026-02-27/consolidated.xml")
	primary, replica := newSanctionsService(db), newSanctionsService(db)
	_, err := primary.Import(ctx, sanctions.ImportParams{List: list, Format: sanctions.FormatUNXML,
		Files: []sanctions.SourceFile{{Name: "consolidated.xml", Data: un}}})
	require.NoError(t, err)
	found := func(tid tenancy.TenantID, name string) bool {
		ms, err := replica.Screen(ctx, tid, sanctions.ScreenParams{Name: name, Threshold: 0.95})
		require.NoError(t, err)
		return len(ms) > 0
	}

	require.NoError(t, replica.LoadAll(ctx))
	first := replica.Matcher().Global()
	require.True(t, found(tenant.ID, "Eric Badege"))

	// A tenant's entry added by another replica, with no notification received here.
	actor := audit.Actor{ID: tenant.AdminID, Type: audit.ActorUser}
	w, err := primary.CreateWatchlist(ctx, tenant.ID, actor, "Internal "+list, sanctions.ListTypeInternal)
	require.NoError(t, err)
	e, err := primary.AddEntry(ctx, tenant.ID, actor, w.ID, sanctions.NewWatchlistEntry{Name: "Obinna Chukwuemeka Okafor", Reference: "CUST-9"})
	require.NoError(t, err)
	require.False(t, found(tenant.ID, "Obinna Chukwuemeka Okafor"))

	require.NoError(t, replica.LoadAll(ctx))
	require.Same(t, first, replica.Matcher().Global(), "the same versions: the index is kept")
	require.True(t, found(tenant.ID, "Obinna Chukwuemeka Okafor"), "the tenant's watchlist is reloaded")
	require.Equal(t, sanctions.HealthOK, replica.Health(ctx))

	// The tenant's last entry deleted by another replica, again unnoticed here: the tenant is
	// no longer among the tenants with entries, and its entry must not stay in memory.
	require.NoError(t, primary.DeleteEntry(ctx, tenant.ID, actor, w.ID, e.ID))
	require.True(t, found(tenant.ID, "Obinna Chukwuemeka Okafor"))
	require.NoError(t, replica.LoadAll(ctx))
	require.False(t, found(tenant.ID, "Obinna Chukwuemeka Okafor"), "the deleted entry is forgotten")
	require.Same(t, first, replica.Matcher().Global())

	// A new version (Eric Badege delisted) is read and indexed.
	i := strings.Index(string(un), "<INDIVIDUAL>")
	j := strings.Index(string(un), "</INDIVIDUAL>") + len("</INDIVIDUAL>")
	_, err = primary.Import(ctx, sanctions.ImportParams{List: list, Format: sanctions.FormatUNXML,
		Files: []sanctions.SourceFile{{Name: "consolidated.xml", Data: append(append([]byte{}, un[:i]...), un[j:]...)}}})
	require.NoError(t, err)
	require.NoError(t, replica.LoadAll(ctx))
	require.NotSame(t, first, replica.Matcher().Global())
	require.False(t, found(tenant.ID, "Eric Badege"))
	require.Equal(t, primary.Matcher().Global().Len(), replica.Matcher().Global().Len())
}
