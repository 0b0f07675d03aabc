package sanctionsstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
)

// importColumns are the columns an import writes, in the order of importRow.
var importColumns = []string{"id", "tenant_id", "watchlist_id", "name", "aliases", "entity_type", "date_of_birth",
	"country", "reference", "created_by", "created_at"}

// AddEntries implements sanctions.Store: the watchlist row is locked so that a concurrent delete
// of the list cannot interleave; the entries are copied (COPY, one stream) into a temporary
// table dropped at commit and moved into watchlist_entries by one INSERT ... SELECT, all in the
// one transaction (a failure anywhere keeps nothing); then one audit event, one re-screening
// job and the tenant's notification. COPY cannot write watchlist_entries itself: PostgreSQL
// refuses COPY FROM into a table under row-level security, and the INSERT ... SELECT keeps the
// policy's check on every row. Before, 100 multi-row INSERTs of 1,000 rows (11,000 parameters
// each, built and bound one by one) were most of the import's time in the database.
func (s *SanctionsStore) AddEntries(ctx context.Context, tenantID tenancy.TenantID, watchlistID string, entries []sanctions.WatchlistEntry, ev audit.Event, rescreen sanctions.RescreenArgs) (sanctions.Watchlist, error) {
	var w sanctions.Watchlist
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		if w, err = getWatchlist(ctx, tx, tenantID, watchlistID, true); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `create temporary table watchlist_entries_import
			(like watchlist_entries including defaults) on commit drop`); err != nil {
			return fmt.Errorf("create import table: %w", err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"watchlist_entries_import"}, importColumns,
			pgx.CopyFromSlice(len(entries), func(i int) ([]any, error) {
				return importRow(tenantID, watchlistID, &entries[i]), nil
			})); err != nil {
			return postgres.MapErr(err, "watchlist entry")
		}
		cols := "id, tenant_id, watchlist_id, name, aliases, entity_type, date_of_birth, country, reference, created_by, created_at"
		if _, err := tx.Exec(ctx, "insert into watchlist_entries ("+cols+") select "+cols+" from watchlist_entries_import"); err != nil {
			return postgres.MapErr(err, "watchlist entry")
		}
		if err := postgres.InsertAudit(ctx, tx, ev, s.db.Now()); err != nil {
			return err
		}
		rescreen.List = w.Name
		if err := s.db.Enqueue(ctx, tx, rescreen, nil); err != nil {
			return err
		}
		if w, err = getWatchlist(ctx, tx, tenantID, watchlistID, false); err != nil {
			return err
		}
		return pgNotify(ctx, tx, sanctions.NotifyTenantPrefix+string(tenantID))
	})
	return w, err
}

// importRow is one entry's values in importColumns' order (NULL for an absent optional field).
func importRow(tenantID tenancy.TenantID, watchlistID string, e *sanctions.WatchlistEntry) []any {
	var dob any
	if e.DateOfBirth != "" {
		dob = e.DateOfBirth
	}
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return []any{e.ID, string(tenantID), watchlistID, e.Name, aliases, postgres.NullIfEmpty(string(e.EntityType)), dob,
		postgres.NullIfEmpty(e.Country), postgres.NullIfEmpty(e.Reference), postgres.NullIfEmpty(e.CreatedBy), e.CreatedAt}
}
