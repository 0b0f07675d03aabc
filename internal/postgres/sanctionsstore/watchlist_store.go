package sanctionsstore

import (
	"context"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
)

const watchlistColumns = `w.id::text, w.tenant_id::text, w.name, w.type, coalesce(w.created_by::text, '') as created_by, w.created_at,
	(select count(*) from watchlist_entries e where e.tenant_id = w.tenant_id and e.watchlist_id = w.id)::int as entry_count`

type watchlistRow struct {
	ID         string    `db:"id"`
	TenantID   string    `db:"tenant_id"`
	Name       string    `db:"name"`
	Type       string    `db:"type"`
	CreatedBy  string    `db:"created_by"`
	CreatedAt  time.Time `db:"created_at"`
	EntryCount int       `db:"entry_count"`
}

func toWatchlist(r watchlistRow) sanctions.Watchlist {
	return sanctions.Watchlist{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), Name: r.Name, Type: sanctions.ListType(r.Type),
		EntryCount: r.EntryCount, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt}
}

func getWatchlist(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, id string, lock bool) (sanctions.Watchlist, error) {
	b := postgres.Psql.Select(watchlistColumns).From("watchlists w").Where(sq.Eq{"w.tenant_id": string(tenantID), "w.id": id})
	if lock {
		b = b.Suffix("FOR UPDATE")
	}
	r, err := postgres.One[watchlistRow](ctx, tx, b, "watchlist")
	return toWatchlist(r), err
}

// CreateWatchlist inserts a watchlist with its audit event.
func (s *SanctionsStore) CreateWatchlist(ctx context.Context, w sanctions.Watchlist, ev audit.Event) (sanctions.Watchlist, error) {
	err := s.db.InTenant(ctx, w.TenantID, func(tx pgx.Tx) error {
		if err := postgres.Exec(ctx, tx, postgres.Psql.Insert("watchlists").Columns("id", "tenant_id", "name", "type", "created_by", "created_at").
			Values(w.ID, string(w.TenantID), w.Name, string(w.Type), postgres.NullIfEmpty(w.CreatedBy), w.CreatedAt)); err != nil {
			return postgres.MapErr(err, "watchlist")
		}
		return postgres.InsertAudit(ctx, tx, ev, s.db.Now())
	})
	return w, err
}

// ListWatchlists pages the tenant's watchlists by name.
func (s *SanctionsStore) ListWatchlists(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[sanctions.Watchlist], error) {
	res := paging.Result[sanctions.Watchlist]{Page: p.Page, Limit: p.Limit, Items: []sanctions.Watchlist{}}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := postgres.Count(ctx, tx, postgres.Psql.Select("count(*)").From("watchlists").Where(sq.Eq{"tenant_id": string(tenantID)}))
		if err != nil {
			return err
		}
		rows, err := postgres.Collect[watchlistRow](ctx, tx, postgres.Psql.Select(watchlistColumns).From("watchlists w").
			Where(sq.Eq{"w.tenant_id": string(tenantID)}).OrderBy("w.name", "w.id").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, toWatchlist(r))
		}
		return nil
	})
	return res, err
}

// GetWatchlist returns one watchlist of the tenant.
func (s *SanctionsStore) GetWatchlist(ctx context.Context, tenantID tenancy.TenantID, id string) (sanctions.Watchlist, error) {
	var w sanctions.Watchlist
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		w, err = getWatchlist(ctx, tx, tenantID, id, false)
		return err
	})
	return w, err
}

// DeleteWatchlist deletes the watchlist and its entries, audits and notifies.
func (s *SanctionsStore) DeleteWatchlist(ctx context.Context, tenantID tenancy.TenantID, id string, actor audit.Actor) (sanctions.Watchlist, error) {
	var w sanctions.Watchlist
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		if w, err = getWatchlist(ctx, tx, tenantID, id, true); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "delete from watchlist_entries where tenant_id = $1 and watchlist_id = $2", string(tenantID), id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "delete from watchlists where tenant_id = $1 and id = $2", string(tenantID), id); err != nil {
			return err
		}
		if err := postgres.InsertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: actor, Action: "watchlist.deleted", ResourceType: "watchlist",
			ResourceID: id, Before: sanctions.WatchlistAudit(w)}, s.db.Now()); err != nil {
			return err
		}
		return pgNotify(ctx, tx, sanctions.NotifyTenantPrefix+string(tenantID))
	})
	return w, err
}

const entryColumns = `id::text, tenant_id::text, watchlist_id::text, name, aliases, coalesce(entity_type, '') as entity_type,
	coalesce(to_char(date_of_birth, 'YYYY-MM-DD'), '') as date_of_birth, coalesce(country, '') as country,
	coalesce(reference, '') as reference, coalesce(created_by::text, '') as created_by, created_at`

type watchlistEntryRow struct {
	ID          string    `db:"id"`
	TenantID    string    `db:"tenant_id"`
	WatchlistID string    `db:"watchlist_id"`
	Name        string    `db:"name"`
	Aliases     []string  `db:"aliases"`
	EntityType  string    `db:"entity_type"`
	DateOfBirth string    `db:"date_of_birth"`
	Country     string    `db:"country"`
	Reference   string    `db:"reference"`
	CreatedBy   string    `db:"created_by"`
	CreatedAt   time.Time `db:"created_at"`
}

func toEntry(r watchlistEntryRow) sanctions.WatchlistEntry {
	return sanctions.WatchlistEntry{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), WatchlistID: r.WatchlistID, Name: r.Name,
		Aliases: r.Aliases, EntityType: sanctions.EntityType(r.EntityType), DateOfBirth: r.DateOfBirth, Country: r.Country,
		Reference: r.Reference, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt}
}

// AddEntry inserts an entry, audits it, enqueues the tenant's re-screening and notifies the
// other replicas, in one transaction.
func (s *SanctionsStore) AddEntry(ctx context.Context, e sanctions.WatchlistEntry, ev audit.Event, rescreen sanctions.RescreenArgs) (sanctions.WatchlistEntry, sanctions.Watchlist, error) {
	var w sanctions.Watchlist
	err := s.db.InTenant(ctx, e.TenantID, func(tx pgx.Tx) (err error) {
		if w, err = getWatchlist(ctx, tx, e.TenantID, e.WatchlistID, false); err != nil {
			return err
		}
		var dob *string
		if e.DateOfBirth != "" {
			dob = &e.DateOfBirth
		}
		if e.Aliases == nil {
			e.Aliases = []string{}
		}
		if err := postgres.Exec(ctx, tx, postgres.Psql.Insert("watchlist_entries").Columns("id", "tenant_id", "watchlist_id", "name", "aliases", "entity_type",
			"date_of_birth", "country", "reference", "created_by", "created_at").
			Values(e.ID, string(e.TenantID), e.WatchlistID, e.Name, e.Aliases, postgres.NullIfEmpty(string(e.EntityType)), dob,
				postgres.NullIfEmpty(e.Country), postgres.NullIfEmpty(e.Reference), postgres.NullIfEmpty(e.CreatedBy), e.CreatedAt)); err != nil {
			return postgres.MapErr(err, "watchlist entry")
		}
		if err := postgres.InsertAudit(ctx, tx, ev, s.db.Now()); err != nil {
			return err
		}
		rescreen.List = w.Name
		if err := s.db.Enqueue(ctx, tx, rescreen, nil); err != nil {
			return err
		}
		return pgNotify(ctx, tx, sanctions.NotifyTenantPrefix+string(e.TenantID))
	})
	return e, w, err
}

// ListEntries pages a watchlist's entries, oldest first.
func (s *SanctionsStore) ListEntries(ctx context.Context, tenantID tenancy.TenantID, watchlistID string, p paging.Params) (paging.Result[sanctions.WatchlistEntry], error) {
	res := paging.Result[sanctions.WatchlistEntry]{Page: p.Page, Limit: p.Limit, Items: []sanctions.WatchlistEntry{}}
	where := sq.Eq{"tenant_id": string(tenantID), "watchlist_id": watchlistID}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := getWatchlist(ctx, tx, tenantID, watchlistID, false); err != nil {
			return err
		}
		n, err := postgres.Count(ctx, tx, postgres.Psql.Select("count(*)").From("watchlist_entries").Where(where))
		if err != nil {
			return err
		}
		rows, err := postgres.Collect[watchlistEntryRow](ctx, tx, postgres.Psql.Select(entryColumns).From("watchlist_entries").Where(where).
			OrderBy("created_at", "id").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, toEntry(r))
		}
		return nil
	})
	return res, err
}

// DeleteEntry deletes one entry, audits and notifies.
func (s *SanctionsStore) DeleteEntry(ctx context.Context, tenantID tenancy.TenantID, watchlistID, entryID string, actor audit.Actor) error {
	return s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := postgres.One[watchlistEntryRow](ctx, tx, postgres.Psql.Select(entryColumns).From("watchlist_entries").
			Where(sq.Eq{"tenant_id": string(tenantID), "watchlist_id": watchlistID, "id": entryID}).Suffix("FOR UPDATE"), "watchlist entry")
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "delete from watchlist_entries where tenant_id = $1 and id = $2", string(tenantID), entryID); err != nil {
			return err
		}
		if err := postgres.InsertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: actor, Action: "watchlist.entry_deleted",
			ResourceType: "watchlist_entry", ResourceID: entryID, Before: sanctions.EntryAudit(toEntry(r))}, s.db.Now()); err != nil {
			return err
		}
		return pgNotify(ctx, tx, sanctions.NotifyTenantPrefix+string(tenantID))
	})
}

// TenantEntries returns every watchlist entry of the tenant as matcher entries.
func (s *SanctionsStore) TenantEntries(ctx context.Context, tenantID tenancy.TenantID) ([]sanctions.Entry, error) {
	var out []sanctions.Entry
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		lists, err := postgres.Collect[watchlistRow](ctx, tx, postgres.Psql.Select(watchlistColumns).From("watchlists w").Where(sq.Eq{"w.tenant_id": string(tenantID)}))
		if err != nil {
			return err
		}
		byID := make(map[string]sanctions.Watchlist, len(lists))
		for _, l := range lists {
			byID[l.ID] = toWatchlist(l)
		}
		rows, err := postgres.Collect[watchlistEntryRow](ctx, tx, postgres.Psql.Select(entryColumns).From("watchlist_entries").
			Where(sq.Eq{"tenant_id": string(tenantID)}).OrderBy("id"))
		if err != nil {
			return err
		}
		for _, r := range rows {
			out = append(out, toEntry(r).MatcherEntry(byID[r.WatchlistID]))
		}
		return nil
	})
	return out, err
}

// TenantsWithEntries lists the tenants with watchlist entries. Row-level security hides other
// tenants' rows, so it asks each tenant in turn (tenants are readable by all).
func (s *SanctionsStore) TenantsWithEntries(ctx context.Context) ([]tenancy.TenantID, error) {
	var all []tenancy.TenantID
	if err := s.db.Global(ctx, func(tx pgx.Tx) (err error) { all, err = allTenants(ctx, tx); return err }); err != nil {
		return nil, err
	}
	var out []tenancy.TenantID
	for _, t := range all {
		var has bool
		err := s.db.InTenant(ctx, t, func(tx pgx.Tx) error {
			return tx.QueryRow(ctx, "select exists (select 1 from watchlist_entries where tenant_id = $1)", string(t)).Scan(&has)
		})
		if err != nil {
			return nil, err
		}
		if has {
			out = append(out, t)
		}
	}
	return out, nil
}

const fpColumns = `id::text, tenant_id::text, subject_key, entry_id, reason, coalesce(created_by::text, '') as created_by, created_at,
	revoked_at, coalesce(revoked_by::text, '') as revoked_by`

type fpRow struct {
	ID         string     `db:"id"`
	TenantID   string     `db:"tenant_id"`
	SubjectKey string     `db:"subject_key"`
	EntryID    string     `db:"entry_id"`
	Reason     string     `db:"reason"`
	CreatedBy  string     `db:"created_by"`
	CreatedAt  time.Time  `db:"created_at"`
	RevokedAt  *time.Time `db:"revoked_at"`
	RevokedBy  string     `db:"revoked_by"`
}

func toFP(r fpRow) sanctions.FalsePositive {
	return sanctions.FalsePositive{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), SubjectKey: r.SubjectKey, EntryID: r.EntryID,
		Reason: r.Reason, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt, RevokedBy: r.RevokedBy}
}

// CreateFalsePositive records a suppression, audits and notifies.
func (s *SanctionsStore) CreateFalsePositive(ctx context.Context, fp sanctions.FalsePositive, ev audit.Event) (sanctions.FalsePositive, error) {
	err := s.db.InTenant(ctx, fp.TenantID, func(tx pgx.Tx) error {
		if err := postgres.Exec(ctx, tx, postgres.Psql.Insert("sanctions_false_positives").
			Columns("id", "tenant_id", "subject_key", "entry_id", "reason", "created_by", "created_at").
			Values(fp.ID, string(fp.TenantID), fp.SubjectKey, fp.EntryID, fp.Reason, postgres.NullIfEmpty(fp.CreatedBy), fp.CreatedAt)); err != nil {
			return postgres.MapErr(err, "false positive")
		}
		if err := postgres.InsertAudit(ctx, tx, ev, s.db.Now()); err != nil {
			return err
		}
		return pgNotify(ctx, tx, sanctions.NotifyFPPrefix+string(fp.TenantID))
	})
	return fp, err
}

// ListFalsePositives pages the tenant's suppressions, newest first.
func (s *SanctionsStore) ListFalsePositives(ctx context.Context, tenantID tenancy.TenantID, activeOnly bool, p paging.Params) (paging.Result[sanctions.FalsePositive], error) {
	res := paging.Result[sanctions.FalsePositive]{Page: p.Page, Limit: p.Limit, Items: []sanctions.FalsePositive{}}
	where := sq.And{sq.Eq{"tenant_id": string(tenantID)}}
	if activeOnly {
		where = append(where, sq.Eq{"revoked_at": nil})
	}
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		n, err := postgres.Count(ctx, tx, postgres.Psql.Select("count(*)").From("sanctions_false_positives").Where(where))
		if err != nil {
			return err
		}
		rows, err := postgres.Collect[fpRow](ctx, tx, postgres.Psql.Select(fpColumns).From("sanctions_false_positives").Where(where).
			OrderBy("created_at DESC", "id DESC").Limit(uint64(p.Limit)).Offset(uint64(p.Offset())))
		if err != nil {
			return err
		}
		res.Total = n
		for _, r := range rows {
			res.Items = append(res.Items, toFP(r))
		}
		return nil
	})
	return res, err
}

// RevokeFalsePositive ends an active suppression, audits and notifies.
func (s *SanctionsStore) RevokeFalsePositive(ctx context.Context, tenantID tenancy.TenantID, id string, actor audit.Actor) (sanctions.FalsePositive, error) {
	var fp sanctions.FalsePositive
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := postgres.One[fpRow](ctx, tx, postgres.Psql.Select(fpColumns).From("sanctions_false_positives").
			Where(sq.Eq{"tenant_id": string(tenantID), "id": id, "revoked_at": nil}).Suffix("FOR UPDATE"), "false positive")
		if err != nil {
			return err
		}
		before := toFP(r)
		now := s.db.Now()
		if _, err := tx.Exec(ctx, "update sanctions_false_positives set revoked_at = $3, revoked_by = $4 where tenant_id = $1 and id = $2",
			string(tenantID), id, now, postgres.NullIfEmpty(actor.ID)); err != nil {
			return err
		}
		fp = before
		fp.RevokedAt, fp.RevokedBy = &now, actor.ID
		if err := postgres.InsertAudit(ctx, tx, audit.Event{TenantID: tenantID, Actor: actor, Action: "sanctions.false_positive_revoked",
			ResourceType: "sanctions_false_positive", ResourceID: id, Before: sanctions.FalsePositiveAudit(before),
			After: sanctions.FalsePositiveAudit(fp)}, now); err != nil {
			return err
		}
		return pgNotify(ctx, tx, sanctions.NotifyFPPrefix+string(tenantID))
	})
	return fp, err
}

// ActiveFalsePositives returns the tenant's suppressions in force.
func (s *SanctionsStore) ActiveFalsePositives(ctx context.Context, tenantID tenancy.TenantID) ([]sanctions.FalsePositive, error) {
	var out []sanctions.FalsePositive
	err := s.db.InTenant(ctx, tenantID, func(tx pgx.Tx) error {
		rows, err := postgres.Collect[fpRow](ctx, tx, postgres.Psql.Select(fpColumns).From("sanctions_false_positives").
			Where(sq.Eq{"tenant_id": string(tenantID), "revoked_at": nil}))
		for _, r := range rows {
			out = append(out, toFP(r))
		}
		return err
	})
	return out, err
}
