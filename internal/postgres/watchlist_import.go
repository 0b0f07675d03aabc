package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
)

// importChunk bounds the rows of one multi-row INSERT (11 parameters a row, under PostgreSQL's
// 65535 parameters a statement).
const importChunk = 1000

// AddEntries implements sanctions.Store: the watchlist row is locked so that a concurrent delete
// of the list cannot interleave, every chunk is inserted in the one transaction (a failure keeps
// nothing), then one audit event, one re-screening job and the tenant's notification.
func (s *SanctionsStore) AddEntries(ctx context.Context, tenantID tenancy.TenantID, watchlistID string, entries []sanctions.WatchlistEntry, ev audit.Event, rescreen sanctions.RescreenArgs) (sanctions.Watchlist, error) {
	var w sanctions.Watchlist
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		if w, err = getWatchlist(ctx, tx, tenantID, watchlistID, true); err != nil {
			return err
		}
		for start := 0; start < len(entries); start += importChunk {
			b := psql.Insert("watchlist_entries").Columns("id", "tenant_id", "watchlist_id", "name", "aliases", "entity_type",
				"date_of_birth", "country", "reference", "created_by", "created_at")
			for _, e := range entries[start:min(start+importChunk, len(entries))] {
				var dob *string
				if e.DateOfBirth != "" {
					dob = &e.DateOfBirth
				}
				if e.Aliases == nil {
					e.Aliases = []string{}
				}
				b = b.Values(e.ID, string(tenantID), watchlistID, e.Name, e.Aliases, nullIfEmpty(string(e.EntityType)), dob,
					nullIfEmpty(e.Country), nullIfEmpty(e.Reference), nullIfEmpty(e.CreatedBy), e.CreatedAt)
			}
			if err := exec(ctx, tx, b); err != nil {
				return mapErr(err, "watchlist entry")
			}
		}
		if err := insertAudit(ctx, tx, ev, s.db.now()); err != nil {
			return err
		}
		rescreen.List = w.Name
		if err := s.db.enqueue(ctx, tx, rescreen, nil); err != nil {
			return err
		}
		if w, err = getWatchlist(ctx, tx, tenantID, watchlistID, false); err != nil {
			return err
		}
		return pgNotify(ctx, tx, sanctions.NotifyTenantPrefix+string(tenantID))
	})
	return w, err
}
