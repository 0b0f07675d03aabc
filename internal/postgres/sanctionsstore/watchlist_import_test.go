package sanctionsstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/sanctionsstore"
	"github.com/complyd/complyd/internal/sanctions"
)

// TestWatchlistAddEntriesAllOrNothing: a bulk import that fails in the database halfway (row
// 2,501 of 5,000 repeats row 10's id, which only the primary key can refuse) keeps nothing: no
// entry, no audit event, no re-screening job, and the list's count unchanged; the same rows
// without the repeat are stored whole, every field read back as written (an absent birth date,
// type, country or reference as NULL, an entry without aliases as an empty array).
func TestWatchlistAddEntriesAllOrNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	tenant := pgtest.Tenant(ctx, t, db)
	store := sanctionsstore.NewSanctionsStore(db)
	svc := newSanctionsService(db)
	actor := audit.Actor{ID: tenant.AdminID, Type: "USER"}
	w, err := svc.CreateWatchlist(ctx, tenant.ID, actor, "Import all or nothing", sanctions.ListTypePEP)
	require.NoError(t, err)

	now := time.Now().UTC().Truncate(time.Microsecond)
	entries := make([]sanctions.WatchlistEntry, 5000)
	for i := range entries {
		e := sanctions.WatchlistEntry{ID: uuid.NewString(), TenantID: tenant.ID, WatchlistID: w.ID,
			Name: fmt.Sprintf("Party Number %d Okonkwo", i), CreatedBy: tenant.AdminID, CreatedAt: now}
		if i%2 == 0 {
			e.Aliases = []string{fmt.Sprintf("P. %d Okonkwo", i), "Okonkwo Party"}
			e.EntityType, e.DateOfBirth, e.Country, e.Reference = sanctions.EntityIndividual, "1971-03-04", "NG", fmt.Sprintf("REF-%d", i)
		}
		entries[i] = e
	}
	ev := func() audit.Event {
		return audit.Event{TenantID: tenant.ID, Actor: actor, Action: "watchlist.entries_imported", ResourceType: "watchlist",
			ResourceID: w.ID, After: map[string]any{"entries": len(entries)}}
	}
	admin := pgtest.Admin(ctx, t) // counts every row: row-level security does not restrict it
	imported := func() (entries, events, jobs int) {
		require.NoError(t, admin.QueryRow(ctx, "select count(*) from watchlist_entries where watchlist_id = $1", w.ID).Scan(&entries))
		require.NoError(t, admin.QueryRow(ctx, `select count(*) from audit_events where tenant_id = $1
			and action = 'watchlist.entries_imported'`, tenant.ID).Scan(&events))
		require.NoError(t, admin.QueryRow(ctx, `select count(*) from river_job where args->>'tenantId' = $1`, string(tenant.ID)).Scan(&jobs))
		return
	}
	_, _, jobsBefore := imported()

	bad := append([]sanctions.WatchlistEntry(nil), entries...)
	bad[2500].ID = bad[10].ID
	_, err = store.AddEntries(ctx, tenant.ID, w.ID, bad, ev(), sanctions.RescreenArgs{TenantID: string(tenant.ID), ListVersion: "import:bad"})
	require.Error(t, err)
	n, events, jobs := imported()
	require.Zero(t, n, "a failed import keeps no entry")
	require.Zero(t, events, "nor its audit event")
	require.Equal(t, jobsBefore, jobs, "nor its re-screening job")
	got, err := svc.GetWatchlist(ctx, tenant.ID, w.ID)
	require.NoError(t, err)
	require.Zero(t, got.EntryCount)

	got, err = store.AddEntries(ctx, tenant.ID, w.ID, entries, ev(), sanctions.RescreenArgs{TenantID: string(tenant.ID), ListVersion: "import:good"})
	require.NoError(t, err)
	require.Equal(t, len(entries), got.EntryCount)
	n, events, jobs = imported()
	require.Equal(t, len(entries), n)
	require.Equal(t, 1, events)
	require.Equal(t, jobsBefore+1, jobs) // so the counts above see the rows a commit writes

	byID := map[string]sanctions.WatchlistEntry{}
	for page := 1; ; page++ {
		res, err := store.ListEntries(ctx, tenant.ID, w.ID, paging.Params{Page: page, Limit: 1000})
		require.NoError(t, err)
		for _, e := range res.Items {
			byID[e.ID] = e
		}
		if len(res.Items) < 1000 {
			break
		}
	}
	require.Len(t, byID, len(entries))
	for _, want := range []sanctions.WatchlistEntry{entries[0], entries[1], entries[4998], entries[4999]} {
		e := byID[want.ID]
		if want.Aliases == nil {
			want.Aliases = []string{}
		}
		if e.Aliases == nil {
			e.Aliases = []string{}
		}
		require.Equal(t, want.Name, e.Name)
		require.Equal(t, want.Aliases, e.Aliases)
		require.Equal(t, want.EntityType, e.EntityType)
		require.Equal(t, want.DateOfBirth, e.DateOfBirth)
		require.Equal(t, want.Country, e.Country)
		require.Equal(t, want.Reference, e.Reference)
		require.Equal(t, want.CreatedBy, e.CreatedBy)
		require.True(t, want.CreatedAt.Equal(e.CreatedAt), "%s != %s", want.CreatedAt, e.CreatedAt)
	}
}
