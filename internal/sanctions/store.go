package sanctions

import (
	"context"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// NotifyChannel is the PostgreSQL channel on which list changes are
// announced to every replica. Payloads: a global list's name (a new version
// is current), "tenant:<id>" (the tenant's watchlists changed) or
// "fp:<id>" (the tenant's reviewed false positives changed).
const NotifyChannel = "complyd_sanctions"

// Notification payload prefixes (see NotifyChannel).
const (
	NotifyTenantPrefix = "tenant:"
	NotifyFPPrefix     = "fp:"
)

// Store persists global list versions, tenant watchlists, reviewed false
// positives and re-screening hits. Every change also sends the NotifyChannel
// notification in its transaction, so other replicas reload after commit.
type Store interface {
	// ImportList stores v and its entries as the new current version of v.List
	// (v.Version is assigned) and enqueues rescreen for every tenant, all in
	// one transaction.
	ImportList(ctx context.Context, v ListVersion, entries []Entry, rescreen RescreenArgs) (ListVersion, error)
	// CurrentVersions returns the current version of every global list.
	CurrentVersions(ctx context.Context) ([]ListVersion, error)
	// LoadVersion returns the entries of one list version. Codes: NOT_FOUND.
	LoadVersion(ctx context.Context, versionID int64) ([]Entry, error)

	// CreateWatchlist inserts w. Codes: CONFLICT (name taken).
	CreateWatchlist(ctx context.Context, w Watchlist, ev audit.Event) (Watchlist, error)
	// ListWatchlists pages the tenant's watchlists by name.
	ListWatchlists(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[Watchlist], error)
	// GetWatchlist returns one watchlist. Codes: NOT_FOUND.
	GetWatchlist(ctx context.Context, tenantID tenancy.TenantID, id string) (Watchlist, error)
	// DeleteWatchlist deletes a watchlist and its entries. Codes: NOT_FOUND.
	DeleteWatchlist(ctx context.Context, tenantID tenancy.TenantID, id string, actor audit.Actor) (Watchlist, error)
	// AddEntry inserts e into its watchlist and enqueues rescreen. Codes: NOT_FOUND (watchlist).
	AddEntry(ctx context.Context, e WatchlistEntry, ev audit.Event, rescreen RescreenArgs) (WatchlistEntry, Watchlist, error)
	// AddEntries inserts entries into one watchlist in one transaction with one audit event,
	// one re-screening job and the notification; it returns the watchlist with its new count.
	// Errors: NOT_FOUND.
	AddEntries(ctx context.Context, tenantID tenancy.TenantID, watchlistID string, entries []WatchlistEntry, ev audit.Event, rescreen RescreenArgs) (Watchlist, error)
	// ListEntries pages a watchlist's entries, oldest first. Codes: NOT_FOUND (watchlist).
	ListEntries(ctx context.Context, tenantID tenancy.TenantID, watchlistID string, p paging.Params) (paging.Result[WatchlistEntry], error)
	// DeleteEntry deletes one entry. Codes: NOT_FOUND.
	DeleteEntry(ctx context.Context, tenantID tenancy.TenantID, watchlistID, entryID string, actor audit.Actor) error
	// TenantEntries returns every watchlist entry of the tenant as matcher entries.
	TenantEntries(ctx context.Context, tenantID tenancy.TenantID) ([]Entry, error)
	// TenantsWithEntries lists the tenants that have watchlist entries.
	TenantsWithEntries(ctx context.Context) ([]tenancy.TenantID, error)

	// CreateFalsePositive records a suppression. Codes: CONFLICT (already active).
	CreateFalsePositive(ctx context.Context, fp FalsePositive, ev audit.Event) (FalsePositive, error)
	// ListFalsePositives pages the tenant's suppressions, newest first.
	ListFalsePositives(ctx context.Context, tenantID tenancy.TenantID, activeOnly bool, p paging.Params) (paging.Result[FalsePositive], error)
	// RevokeFalsePositive ends a suppression. Codes: NOT_FOUND (unknown or already revoked).
	RevokeFalsePositive(ctx context.Context, tenantID tenancy.TenantID, id string, actor audit.Actor) (FalsePositive, error)
	// ActiveFalsePositives returns the tenant's suppressions in force.
	ActiveFalsePositives(ctx context.Context, tenantID tenancy.TenantID) ([]FalsePositive, error)

	// RecordRescreenHit remembers a re-screening hit and, when the same
	// (subject, entry) was not recorded before, calls open in its transaction:
	// an error from open rolls the record back so a retried job opens the
	// case again (CaseOpener is idempotent). It reports whether h was new.
	RecordRescreenHit(ctx context.Context, tenantID tenancy.TenantID, h RescreenHit, open func() error) (bool, error)
}
