package connectapi

import (
	"context"

	"connectrpc.com/connect"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/sanctions"
)

// ImportWatchlistEntries implements WatchlistService.ImportWatchlistEntries: a bad row answers
// 200 with the row errors and imported 0 (nothing is kept), so that a client shows every error
// of the file at once (docs/guide/watchlists.md).
func (h *WatchlistHandler) ImportWatchlistEntries(ctx context.Context, req *connect.Request[complydv1.ImportWatchlistEntriesRequest]) (*connect.Response[complydv1.ImportWatchlistEntriesResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	res, err := h.svc.ImportEntries(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), m.WatchlistId, m.Format, []byte(m.Content))
	if err != nil {
		return nil, err
	}
	out := &complydv1.ImportWatchlistEntriesResponse{Rows: int32(res.Rows), Imported: int32(res.Imported), EntryCount: int32(res.EntryCount),
		Errors: make([]*complydv1.ImportRowError, 0, len(res.Errors))}
	for _, e := range res.Errors {
		out.Errors = append(out.Errors, &complydv1.ImportRowError{Line: int32(e.Line), Field: e.Field, Message: e.Message})
	}
	return connect.NewResponse(out), nil
}

// ListGlobalLists implements WatchlistService.ListGlobalLists.
func (h *WatchlistHandler) ListGlobalLists(ctx context.Context, _ *connect.Request[complydv1.ListGlobalListsRequest]) (*connect.Response[complydv1.ListGlobalListsResponse], error) {
	vs, err := h.svc.GlobalVersions(ctx)
	if err != nil {
		return nil, err
	}
	rep, err := h.svc.ListsReport(ctx)
	if err != nil {
		return nil, err
	}
	health := map[string]sanctions.ListHealth{}
	for _, l := range rep.Lists {
		health[l.List] = l
	}
	out := &complydv1.ListGlobalListsResponse{Items: make([]*complydv1.GlobalList, 0, len(vs)), Missing: rep.Missing}
	for _, v := range vs {
		lh := health[v.List]
		g := &complydv1.GlobalList{List: v.List, Type: string(v.Type), Version: int32(v.Version), Format: v.Format,
			EntryCount: int32(v.EntryCount), ImportedAt: ts(v.ImportedAt), AgeDays: int32(lh.AgeDays), MaxAgeDays: int32(lh.MaxAgeDays),
			Stale: lh.Stale, SourceVersion: v.SourceVersion}
		if !v.PublishedAt.IsZero() {
			g.PublishedAt = ts(v.PublishedAt)
		}
		for _, f := range v.Files {
			g.Files = append(g.Files, &complydv1.GlobalListFile{Name: f.Name, Sha256: f.SHA256, Bytes: int32(f.Bytes)})
		}
		out.Items = append(out.Items, g)
	}
	return connect.NewResponse(out), nil
}
