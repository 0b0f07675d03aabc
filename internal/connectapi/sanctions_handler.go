package connectapi

import (
	"context"

	"connectrpc.com/connect"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/sanctions"
)

// Search implements SanctionsService.Search (docs/design/design-choices.md §10).
func (h *WatchlistHandler) Search(ctx context.Context, req *connect.Request[complydv1.SearchRequest]) (*connect.Response[complydv1.SearchResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	sp := sanctions.ScreenParams{Name: m.Name, EntityType: sanctions.EntityType(m.GetEntityType()), DateOfBirth: m.GetDateOfBirth(),
		Country: m.GetCountry(), Threshold: sanctions.DefaultThreshold, Limit: sanctions.DefaultLimit, SubjectKey: m.GetSubjectKey()}
	if m.Threshold != nil {
		sp.Threshold = *m.Threshold
	}
	if m.Limit != nil {
		sp.Limit = int(*m.Limit)
	}
	ms, err := h.svc.Screen(ctx, p.TenantID, sp)
	if err != nil {
		return nil, err
	}
	out := &complydv1.SearchResponse{Matches: make([]*complydv1.SanctionsMatch, 0, len(ms))}
	for _, x := range ms {
		sm := &complydv1.SanctionsMatch{List: x.List, ListType: string(x.ListType), EntryId: x.EntryID, SourceId: x.SourceID,
			Name: x.Name, MatchedName: x.MatchedName, Score: x.Score, Explanation: x.Explanation.String(), Band: sanctions.Band(x.Score)}
		if x.Entry != nil {
			sm.EntityType = string(x.Entry.EntityType)
		}
		out.Matches = append(out.Matches, sm)
	}
	return connect.NewResponse(out), nil
}

func falsePositiveToProto(f sanctions.FalsePositive) *complydv1.FalsePositive {
	return &complydv1.FalsePositive{Id: f.ID, SubjectKey: f.SubjectKey, EntryId: f.EntryID, Reason: f.Reason, Active: f.Active(),
		CreatedBy: nullString(f.CreatedBy), CreatedAt: ts(f.CreatedAt), RevokedAt: tsPtr(f.RevokedAt), RevokedBy: nullString(f.RevokedBy)}
}

// CreateFalsePositive implements SanctionsService.CreateFalsePositive.
func (h *WatchlistHandler) CreateFalsePositive(ctx context.Context, req *connect.Request[complydv1.CreateFalsePositiveRequest]) (*connect.Response[complydv1.FalsePositive], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	f, err := h.svc.CreateFalsePositive(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.SubjectKey, req.Msg.EntryId, req.Msg.Reason)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(falsePositiveToProto(f)), nil
}

// ListFalsePositives implements SanctionsService.ListFalsePositives.
func (h *WatchlistHandler) ListFalsePositives(ctx context.Context, req *connect.Request[complydv1.ListFalsePositivesRequest]) (*connect.Response[complydv1.ListFalsePositivesResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, sanctions.PageDefault, sanctions.PageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.ListFalsePositives(ctx, p.TenantID, req.Msg.GetActiveOnly(), pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListFalsePositivesResponse{Items: make([]*complydv1.FalsePositive, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, f := range res.Items {
		out.Items = append(out.Items, falsePositiveToProto(f))
	}
	return connect.NewResponse(out), nil
}

// RevokeFalsePositive implements SanctionsService.RevokeFalsePositive.
func (h *WatchlistHandler) RevokeFalsePositive(ctx context.Context, req *connect.Request[complydv1.RevokeFalsePositiveRequest]) (*connect.Response[complydv1.FalsePositive], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	f, err := h.svc.RevokeFalsePositive(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(falsePositiveToProto(f)), nil
}
