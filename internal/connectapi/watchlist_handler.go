package connectapi

import (
	"context"
	"log/slog"
	"time"

	"connectrpc.com/connect"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/sanctions"
)

// WatchlistHandler serves complyd.v1.WatchlistService and SanctionsService (docs/design/design-choices.md §10).
type WatchlistHandler struct {
	svc *sanctions.Service
	log *slog.Logger
}

// NewWatchlistHandler returns the handler.
func NewWatchlistHandler(svc *sanctions.Service, log *slog.Logger) *WatchlistHandler {
	return &WatchlistHandler{svc: svc, log: log}
}

func watchlistToProto(w sanctions.Watchlist) *complydv1.Watchlist {
	return &complydv1.Watchlist{Id: w.ID, Name: w.Name, Type: string(w.Type), EntryCount: int32(w.EntryCount),
		CreatedBy: nullString(w.CreatedBy), CreatedAt: ts(w.CreatedAt)}
}

func watchlistEntryToProto(e sanctions.WatchlistEntry) *complydv1.WatchlistEntry {
	out := &complydv1.WatchlistEntry{Id: e.ID, WatchlistId: e.WatchlistID, Name: e.Name, Aliases: e.Aliases,
		EntityType: nullString(string(e.EntityType)), Country: nullString(e.Country), Reference: nullString(e.Reference),
		CreatedAt: ts(e.CreatedAt)}
	if out.Aliases == nil {
		out.Aliases = []string{}
	}
	if d, err := time.Parse(time.DateOnly, e.DateOfBirth); err == nil {
		out.DateOfBirth = ts(d)
	}
	return out
}

// CreateWatchlist implements WatchlistService.CreateWatchlist.
func (h *WatchlistHandler) CreateWatchlist(ctx context.Context, req *connect.Request[complydv1.CreateWatchlistRequest]) (*connect.Response[complydv1.Watchlist], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	w, err := h.svc.CreateWatchlist(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Name, sanctions.ListType(req.Msg.Type))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(watchlistToProto(w)), nil
}

// ListWatchlists implements WatchlistService.ListWatchlists.
func (h *WatchlistHandler) ListWatchlists(ctx context.Context, req *connect.Request[complydv1.ListWatchlistsRequest]) (*connect.Response[complydv1.ListWatchlistsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, sanctions.PageDefault, sanctions.PageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.ListWatchlists(ctx, p.TenantID, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListWatchlistsResponse{Items: make([]*complydv1.Watchlist, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, w := range res.Items {
		out.Items = append(out.Items, watchlistToProto(w))
	}
	return connect.NewResponse(out), nil
}

// GetWatchlist implements WatchlistService.GetWatchlist.
func (h *WatchlistHandler) GetWatchlist(ctx context.Context, req *connect.Request[complydv1.GetWatchlistRequest]) (*connect.Response[complydv1.Watchlist], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	w, err := h.svc.GetWatchlist(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(watchlistToProto(w)), nil
}

// DeleteWatchlist implements WatchlistService.DeleteWatchlist.
func (h *WatchlistHandler) DeleteWatchlist(ctx context.Context, req *connect.Request[complydv1.DeleteWatchlistRequest]) (*connect.Response[complydv1.Watchlist], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	w, err := h.svc.DeleteWatchlist(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(watchlistToProto(w)), nil
}

// AddWatchlistEntry implements WatchlistService.AddWatchlistEntry.
func (h *WatchlistHandler) AddWatchlistEntry(ctx context.Context, req *connect.Request[complydv1.AddWatchlistEntryRequest]) (*connect.Response[complydv1.WatchlistEntry], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	e, err := h.svc.AddEntry(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), m.WatchlistId, sanctions.NewWatchlistEntry{
		Name: m.Name, Aliases: m.Aliases, EntityType: sanctions.EntityType(m.GetEntityType()), DateOfBirth: m.GetDateOfBirth(),
		Country: m.GetCountry(), Reference: m.GetReference()})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(watchlistEntryToProto(e)), nil
}

// ListWatchlistEntries implements WatchlistService.ListWatchlistEntries.
func (h *WatchlistHandler) ListWatchlistEntries(ctx context.Context, req *connect.Request[complydv1.ListWatchlistEntriesRequest]) (*connect.Response[complydv1.ListWatchlistEntriesResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, sanctions.PageDefault, sanctions.PageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.ListEntries(ctx, p.TenantID, req.Msg.WatchlistId, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListWatchlistEntriesResponse{Items: make([]*complydv1.WatchlistEntry, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, e := range res.Items {
		out.Items = append(out.Items, watchlistEntryToProto(e))
	}
	return connect.NewResponse(out), nil
}

// DeleteWatchlistEntry implements WatchlistService.DeleteWatchlistEntry.
func (h *WatchlistHandler) DeleteWatchlistEntry(ctx context.Context, req *connect.Request[complydv1.DeleteWatchlistEntryRequest]) (*connect.Response[complydv1.DeleteWatchlistEntryResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := h.svc.DeleteEntry(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.WatchlistId, req.Msg.EntryId); err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.DeleteWatchlistEntryResponse{Deleted: true}), nil
}
