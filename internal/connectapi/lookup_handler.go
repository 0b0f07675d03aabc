package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/structpb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/lookup"
	"github.com/complyd/complyd/internal/paging"
)

// LookupHandler serves complyd.v1.LookupService.
type LookupHandler struct {
	svc *lookup.Service
	log *slog.Logger
}

// NewLookupHandler returns the handler.
func NewLookupHandler(svc *lookup.Service, log *slog.Logger) *LookupHandler {
	return &LookupHandler{svc: svc, log: log}
}

func mapStruct(m map[string]any) *structpb.Struct {
	if m == nil {
		return nil
	}
	return anyStruct(m)
}

func lookupProto(r lookup.Result) *complydv1.LookupResponse {
	return &complydv1.LookupResponse{Found: r.Found, Data: mapStruct(r.Data), ProfileId: nullString(r.ProfileID),
		Charged: r.Charged.StringFixed(2), Balance: r.Balance.StringFixed(2), LookupId: r.ID, Provider: r.Provider,
		ProviderSource: r.ProviderSource}
}

func profileProto(p lookup.Profile) *complydv1.CustomerProfile {
	return &complydv1.CustomerProfile{Id: p.ID, Type: p.Type, Name: p.DisplayName, Bvn: nullString(p.BVN), Nin: nullString(p.NIN),
		RcNumber: nullString(p.RCNumber), Data: mapStruct(p.Data()), Source: p.Source, LookupCount: int32(p.LookupCount),
		LastLookupAt: ts(p.LastLookupAt), CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt)}
}

// LookupBvn implements LookupService.LookupBvn.
func (h *LookupHandler) LookupBvn(ctx context.Context, req *connect.Request[complydv1.LookupBvnRequest]) (*connect.Response[complydv1.LookupResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.LookupBVN(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Bvn)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(lookupProto(r)), nil
}

// LookupNin implements LookupService.LookupNin.
func (h *LookupHandler) LookupNin(ctx context.Context, req *connect.Request[complydv1.LookupNinRequest]) (*connect.Response[complydv1.LookupResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.LookupNIN(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Nin)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(lookupProto(r)), nil
}

// LookupCac implements LookupService.LookupCac.
func (h *LookupHandler) LookupCac(ctx context.Context, req *connect.Request[complydv1.LookupCacRequest]) (*connect.Response[complydv1.LookupResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.LookupCAC(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.RcNumber)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(lookupProto(r)), nil
}

// ListLookups implements LookupService.ListLookups.
func (h *LookupHandler) ListLookups(ctx context.Context, req *connect.Request[complydv1.ListLookupsRequest]) (*connect.Response[complydv1.ListLookupsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, lookup.PageDefault, lookup.PageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.History(ctx, p.TenantID, lookup.ListParams{Type: req.Msg.GetType()}, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListLookupsResponse{Items: make([]*complydv1.LookupRecord, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, l := range res.Items {
		out.Items = append(out.Items, &complydv1.LookupRecord{Id: l.ID, Type: l.Type, Query: l.Query, Found: l.Found,
			ProfileId: nullString(l.ProfileID), Provider: l.Provider, ProviderSource: l.ProviderSource, Charged: l.Charged.StringFixed(2),
			ActorId: nullString(l.ActorID), CreatedAt: ts(l.CreatedAt)})
	}
	return connect.NewResponse(out), nil
}

// ListCustomers implements LookupService.ListCustomers.
func (h *LookupHandler) ListCustomers(ctx context.Context, req *connect.Request[complydv1.ListCustomersRequest]) (*connect.Response[complydv1.ListCustomersResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, lookup.PageDefault, lookup.PageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.Profiles(ctx, p.TenantID, lookup.ListParams{Type: req.Msg.GetType()}, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListCustomersResponse{Items: make([]*complydv1.CustomerProfile, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, pr := range res.Items {
		out.Items = append(out.Items, profileProto(pr))
	}
	return connect.NewResponse(out), nil
}

// GetCustomer implements LookupService.GetCustomer.
func (h *LookupHandler) GetCustomer(ctx context.Context, req *connect.Request[complydv1.GetCustomerRequest]) (*connect.Response[complydv1.CustomerProfile], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pr, err := h.svc.Profile(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(profileProto(pr)), nil
}

// CreateKycApplicationFromCustomer implements LookupService.CreateKycApplicationFromCustomer.
func (h *LookupHandler) CreateKycApplicationFromCustomer(ctx context.Context, req *connect.Request[complydv1.CreateKycApplicationFromCustomerRequest]) (*connect.Response[complydv1.KycApplication], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	a, err := h.svc.CreateKYCApplication(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), m.Id,
		lookup.KYCFromProfile{Email: m.GetEmail(), Phone: m.GetPhone(), Address: m.GetAddress(), Tier: m.GetTier()})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(KYCApplicationProto(a)), nil
}

// CreateKybApplicationFromCustomer implements LookupService.CreateKybApplicationFromCustomer.
func (h *LookupHandler) CreateKybApplicationFromCustomer(ctx context.Context, req *connect.Request[complydv1.CreateKybApplicationFromCustomerRequest]) (*connect.Response[complydv1.KybApplication], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	a, err := h.svc.CreateKYBApplication(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), m.Id,
		lookup.KYBFromProfile{TIN: m.GetTin(), BusinessActivity: m.GetBusinessActivity(), OperatingCountry: m.GetOperatingCountry()})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(KYBApplicationProto(a)), nil
}
