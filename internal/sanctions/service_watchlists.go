package sanctions

import (
	"context"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Watchlist and false-positive list paging (docs/design/design-choices.md §11 defaults).
const (
	PageDefault = 20
	PageMax     = 100
)

// CreateWatchlist creates a tenant watchlist. Codes: VALIDATION_ERROR, CONFLICT.
func (s *Service) CreateWatchlist(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, name string, typ ListType) (Watchlist, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 100 {
		return Watchlist{}, apperr.Invalid("name", "must be 1-100 characters")
	}
	switch typ {
	case ListTypeSanctions, ListTypePEP, ListTypeInternal:
	default:
		return Watchlist{}, apperr.Invalid("type", "must be SANCTIONS, PEP or INTERNAL")
	}
	w := Watchlist{ID: s.newID(), TenantID: tenantID, Name: name, Type: typ, CreatedBy: actor.ID, CreatedAt: s.now()}
	return s.store.CreateWatchlist(ctx, w, audit.Event{TenantID: tenantID, Actor: actor, Action: "watchlist.created",
		ResourceType: "watchlist", ResourceID: w.ID, After: watchlistAudit(w)})
}

// ListWatchlists pages the tenant's watchlists.
func (s *Service) ListWatchlists(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[Watchlist], error) {
	return s.store.ListWatchlists(ctx, tenantID, p)
}

// GetWatchlist returns one watchlist. Codes: NOT_FOUND.
func (s *Service) GetWatchlist(ctx context.Context, tenantID tenancy.TenantID, id string) (Watchlist, error) {
	return s.store.GetWatchlist(ctx, tenantID, id)
}

// DeleteWatchlist deletes a watchlist with its entries; they stop matching at
// once. Codes: NOT_FOUND.
func (s *Service) DeleteWatchlist(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (Watchlist, error) {
	w, err := s.store.DeleteWatchlist(ctx, tenantID, id, actor)
	if err != nil {
		return Watchlist{}, err
	}
	return w, s.ReloadTenant(ctx, tenantID)
}

// AddEntry adds an entry to a watchlist. It is screened from the moment this
// returns (docs/design/design-choices.md §10): the local matcher is updated after commit, and
// other replicas reload on the notification sent by the store. A re-screening
// job for the tenant is enqueued with the entry. Codes: VALIDATION_ERROR, NOT_FOUND.
func (s *Service) AddEntry(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, watchlistID string, n NewWatchlistEntry) (WatchlistEntry, error) {
	n.Name = strings.TrimSpace(n.Name)
	if n.Name == "" || len(n.Name) > 300 {
		return WatchlistEntry{}, apperr.Invalid("name", "must be 1-300 characters")
	}
	if len(tokenize(n.Name)) == 0 {
		return WatchlistEntry{}, apperr.Invalid("name", "must contain a searchable name")
	}
	switch n.EntityType {
	case "", EntityIndividual, EntityBusiness:
	default:
		return WatchlistEntry{}, apperr.Invalid("entityType", "must be INDIVIDUAL or BUSINESS")
	}
	if n.DateOfBirth != "" {
		if _, err := time.Parse(time.DateOnly, n.DateOfBirth); err != nil {
			return WatchlistEntry{}, apperr.Invalid("dateOfBirth", "must be an ISO 8601 date (YYYY-MM-DD)")
		}
	}
	aliases := make([]string, 0, len(n.Aliases))
	for i, a := range n.Aliases {
		if a = strings.TrimSpace(a); a == "" || len(a) > 300 {
			return WatchlistEntry{}, apperr.Invalid("aliases["+itoa(i)+"]", "must be 1-300 characters")
		}
		aliases = append(aliases, a)
	}
	e := WatchlistEntry{ID: s.newID(), TenantID: tenantID, WatchlistID: watchlistID, Name: n.Name, Aliases: aliases,
		EntityType: n.EntityType, DateOfBirth: n.DateOfBirth, Country: strings.TrimSpace(n.Country),
		Reference: strings.TrimSpace(n.Reference), CreatedBy: actor.ID, CreatedAt: s.now()}
	e, w, err := s.store.AddEntry(ctx, e, audit.Event{TenantID: tenantID, Actor: actor, Action: "watchlist.entry_added",
		ResourceType: "watchlist_entry", ResourceID: e.ID, After: entryAudit(e)},
		RescreenArgs{TenantID: string(tenantID), List: "", ListVersion: "entry:" + e.ID, EntryID: e.ID})
	if err != nil {
		return WatchlistEntry{}, err
	}
	s.matcher.UpsertTenantEntry(tenantID, e.MatcherEntry(w))
	return e, nil
}

// ListEntries pages a watchlist's entries. Codes: NOT_FOUND.
func (s *Service) ListEntries(ctx context.Context, tenantID tenancy.TenantID, watchlistID string, p paging.Params) (paging.Result[WatchlistEntry], error) {
	return s.store.ListEntries(ctx, tenantID, watchlistID, p)
}

// DeleteEntry removes an entry; it stops matching at once. Codes: NOT_FOUND.
func (s *Service) DeleteEntry(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, watchlistID, entryID string) error {
	if err := s.store.DeleteEntry(ctx, tenantID, watchlistID, entryID, actor); err != nil {
		return err
	}
	s.matcher.RemoveTenantEntry(tenantID, entryID)
	return nil
}

// CreateFalsePositive records that entryID is a reviewed false positive for
// subjectKey: searches and screenings passing that key stop reporting it.
// Codes: VALIDATION_ERROR, NOT_FOUND (no such entry), CONFLICT (already suppressed).
func (s *Service) CreateFalsePositive(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, subjectKey, entryID, reason string) (FalsePositive, error) {
	subjectKey, entryID, reason = strings.TrimSpace(subjectKey), strings.TrimSpace(entryID), strings.TrimSpace(reason)
	var bad []apperr.FieldError
	if subjectKey == "" || len(subjectKey) > 200 {
		bad = append(bad, apperr.FieldError{Field: "subjectKey", Message: "must be 1-200 characters"})
	}
	if entryID == "" {
		bad = append(bad, apperr.FieldError{Field: "entryId", Message: "must not be empty"})
	}
	if reason == "" || len(reason) > 2000 {
		bad = append(bad, apperr.FieldError{Field: "reason", Message: "must be 1-2000 characters"})
	}
	if len(bad) > 0 {
		return FalsePositive{}, apperr.InvalidFields(bad...)
	}
	if _, ok := s.findEntry(tenantID, entryID); !ok {
		return FalsePositive{}, apperr.NotFoundf("list entry %s not found", entryID)
	}
	fp := FalsePositive{ID: s.newID(), TenantID: tenantID, SubjectKey: subjectKey, EntryID: entryID, Reason: reason,
		CreatedBy: actor.ID, CreatedAt: s.now()}
	fp, err := s.store.CreateFalsePositive(ctx, fp, audit.Event{TenantID: tenantID, Actor: actor, Action: "sanctions.false_positive_created",
		ResourceType: "sanctions_false_positive", ResourceID: fp.ID, After: fpAudit(fp)})
	if err != nil {
		return FalsePositive{}, err
	}
	s.suppressed.drop(tenantID)
	return fp, nil
}

// ListFalsePositives pages the tenant's reviewed false positives, newest first.
func (s *Service) ListFalsePositives(ctx context.Context, tenantID tenancy.TenantID, activeOnly bool, p paging.Params) (paging.Result[FalsePositive], error) {
	return s.store.ListFalsePositives(ctx, tenantID, activeOnly, p)
}

// RevokeFalsePositive ends a suppression. Codes: NOT_FOUND.
func (s *Service) RevokeFalsePositive(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string) (FalsePositive, error) {
	fp, err := s.store.RevokeFalsePositive(ctx, tenantID, id, actor)
	if err != nil {
		return FalsePositive{}, err
	}
	s.suppressed.drop(tenantID)
	return fp, nil
}

func watchlistAudit(w Watchlist) map[string]any {
	return map[string]any{"id": w.ID, "name": w.Name, "type": string(w.Type)}
}

func entryAudit(e WatchlistEntry) map[string]any {
	return map[string]any{"id": e.ID, "watchlistId": e.WatchlistID, "name": e.Name, "aliases": e.Aliases,
		"entityType": string(e.EntityType), "dateOfBirth": e.DateOfBirth, "country": e.Country, "reference": e.Reference}
}

// WatchlistAudit renders a watchlist's audit state (for the store's delete event).
func WatchlistAudit(w Watchlist) map[string]any { return watchlistAudit(w) }

// EntryAudit renders an entry's audit state.
func EntryAudit(e WatchlistEntry) map[string]any { return entryAudit(e) }

func fpAudit(f FalsePositive) map[string]any {
	m := map[string]any{"id": f.ID, "subjectKey": f.SubjectKey, "entryId": f.EntryID, "reason": f.Reason, "active": f.Active()}
	return m
}

// FalsePositiveAudit renders a false positive's audit state.
func FalsePositiveAudit(f FalsePositive) map[string]any { return fpAudit(f) }

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
