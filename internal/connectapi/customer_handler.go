package connectapi

import (
	"context"
	"log/slog"
	"time"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/customers"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
)

// CustomerHandler serves complyd.v1.CustomerService.
type CustomerHandler struct {
	svc *customers.Service
	log *slog.Logger
}

// NewCustomerHandler returns the handler.
func NewCustomerHandler(svc *customers.Service, log *slog.Logger) *CustomerHandler {
	return &CustomerHandler{svc: svc, log: log}
}

// Page sizes of the customer lists (docs/design/design-choices.md §7's list default and maximum).
const (
	customerPageDefault = 20
	customerPageMax     = 100
)

func factorsProto(fs []customers.Factor) []*complydv1.RiskFactor {
	out := make([]*complydv1.RiskFactor, 0, len(fs))
	for _, f := range fs {
		out = append(out, &complydv1.RiskFactor{Name: f.Name, Points: int32(f.Points), Detail: f.Detail})
	}
	return out
}

func riskProto(r customers.Risk) *complydv1.CustomerRisk {
	return &complydv1.CustomerRisk{CustomerId: r.CustomerID, Rating: r.Rating.Rating, Score: int32(r.Rating.Score),
		Factors: factorsProto(r.Rating.Factors), ComputedAt: ts(r.ComputedAt), NextReviewAt: ts(r.NextReviewAt), LastReviewedAt: tsPtr(r.LastReviewedAt)}
}

func listProto(res paging.Result[customers.ListItem]) *complydv1.SearchCustomersResponse {
	out := &complydv1.SearchCustomersResponse{Items: make([]*complydv1.CustomerListItem, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, it := range res.Items {
		item := &complydv1.CustomerListItem{Id: it.ID, Type: it.Type, Name: it.Name, UpdatedAt: ts(it.UpdatedAt)}
		if it.Risk != nil {
			item.Rating, item.Score, item.NextReviewAt = it.Risk.Rating.Rating, int32(it.Risk.Rating.Score), ts(it.Risk.NextReviewAt)
		}
		out.Items = append(out.Items, item)
	}
	return out
}

// SearchCustomers implements CustomerService.SearchCustomers.
func (h *CustomerHandler) SearchCustomers(ctx context.Context, req *connect.Request[complydv1.SearchCustomersRequest]) (*connect.Response[complydv1.SearchCustomersResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, customerPageDefault, customerPageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.Search(ctx, p.TenantID, customers.SearchParams{Query: req.Msg.GetQ(), Rating: req.Msg.GetRating()}, pg)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(listProto(res)), nil
}

// ListDueReviews implements CustomerService.ListDueReviews.
func (h *CustomerHandler) ListDueReviews(ctx context.Context, req *connect.Request[complydv1.ListDueReviewsRequest]) (*connect.Response[complydv1.SearchCustomersResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, customerPageDefault, customerPageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.DueReviews(ctx, p.TenantID, pg)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(listProto(res)), nil
}

// GetCustomerOverview implements CustomerService.GetCustomerOverview.
func (h *CustomerHandler) GetCustomerOverview(ctx context.Context, req *connect.Request[complydv1.GetCustomerOverviewRequest]) (*connect.Response[complydv1.CustomerOverview], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	o, err := h.svc.Overview(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.CustomerOverview{Customer: profileProto(o.Profile), AccountsTruncated: o.AccountsTruncated, CasesTruncated: o.CasesTruncated,
		Applications: []*complydv1.CustomerApplication{}, Accounts: []*complydv1.CustomerAccount{}, Cases: []*complydv1.CustomerCase{},
		SanctionsReviews: []*complydv1.SanctionsReview{}, Reports: []*complydv1.CustomerReport{}, ReportsTruncated: o.ReportsTruncated}
	if o.Risk != nil {
		out.Risk = riskProto(*o.Risk)
	}
	for _, a := range o.Applications {
		out.Applications = append(out.Applications, &complydv1.CustomerApplication{Id: a.ID, Kind: a.Kind, Status: a.Status, Tier: a.Tier,
			RiskLevel: a.RiskLevel, CreatedAt: ts(a.CreatedAt)})
	}
	for _, a := range o.Accounts {
		out.Accounts = append(out.Accounts, &complydv1.CustomerAccount{Account: a.Account, Transactions: int32(a.Transactions),
			Alerts: int32(a.Alerts), FirstAt: ts(a.FirstAt), LastAt: ts(a.LastAt)})
	}
	for _, c := range o.Cases {
		out.Cases = append(out.Cases, &complydv1.CustomerCase{Id: c.ID, CaseNumber: c.CaseNumber, Title: c.Title, Status: c.Status,
			Priority: c.Priority, CreatedAt: ts(c.CreatedAt)})
	}
	for _, r := range o.SanctionsReviews {
		out.SanctionsReviews = append(out.SanctionsReviews, &complydv1.SanctionsReview{Id: r.ID, SubjectKey: r.SubjectKey, EntryId: r.EntryID,
			Reason: r.Reason, Active: r.Active, CreatedAt: ts(r.CreatedAt)})
	}
	for _, r := range o.Reports {
		out.Reports = append(out.Reports, &complydv1.CustomerReport{Id: r.ID, Type: r.Type, Status: r.Status, Account: r.Account,
			CaseId: r.CaseID, Day: r.Day.Format(time.DateOnly), CreatedAt: ts(r.CreatedAt)})
	}
	return connect.NewResponse(out), nil
}

// GetCustomerRisk implements CustomerService.GetCustomerRisk.
func (h *CustomerHandler) GetCustomerRisk(ctx context.Context, req *connect.Request[complydv1.GetCustomerRiskRequest]) (*connect.Response[complydv1.CustomerRisk], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.Risk(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(riskProto(r)), nil
}

// ListCustomerRiskHistory implements CustomerService.ListCustomerRiskHistory.
func (h *CustomerHandler) ListCustomerRiskHistory(ctx context.Context, req *connect.Request[complydv1.ListCustomerRiskHistoryRequest]) (*connect.Response[complydv1.ListCustomerRiskHistoryResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	hs, err := h.svc.History(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListCustomerRiskHistoryResponse{Items: make([]*complydv1.RiskHistoryEntry, 0, len(hs))}
	for _, e := range hs {
		out.Items = append(out.Items, &complydv1.RiskHistoryEntry{Id: e.ID, Rating: e.Rating.Rating, PreviousRating: e.PreviousRating,
			Score: int32(e.Rating.Score), Factors: factorsProto(e.Rating.Factors), Reason: e.Reason, CreatedAt: ts(e.CreatedAt)})
	}
	return connect.NewResponse(out), nil
}

// RecomputeCustomerRisk implements CustomerService.RecomputeCustomerRisk.
func (h *CustomerHandler) RecomputeCustomerRisk(ctx context.Context, req *connect.Request[complydv1.RecomputeCustomerRiskRequest]) (*connect.Response[complydv1.CustomerRisk], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.Recompute(ctx, p.TenantID, req.Msg.Id, customers.RecomputeParams{Reason: customers.ReasonManual,
		Actor: callActor(ctx, p, req.Peer().Addr)})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(riskProto(r)), nil
}

// CompleteCustomerReview implements CustomerService.CompleteCustomerReview.
func (h *CustomerHandler) CompleteCustomerReview(ctx context.Context, req *connect.Request[complydv1.CompleteCustomerReviewRequest]) (*connect.Response[complydv1.CustomerRisk], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	r, err := h.svc.CompleteReview(ctx, p.TenantID, req.Msg.Id, callActor(ctx, p, req.Peer().Addr), req.Msg.Note)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(riskProto(r)), nil
}

// FindCustomer implements CustomerService.FindCustomer.
func (h *CustomerHandler) FindCustomer(ctx context.Context, req *connect.Request[complydv1.FindCustomerRequest]) (*connect.Response[complydv1.FoundCustomer], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	it, err := h.svc.Find(ctx, p.TenantID, customers.FindParams{CaseID: req.Msg.CaseId, TransactionID: req.Msg.TransactionId,
		ApplicationID: req.Msg.ApplicationId})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.FoundCustomer{Id: it.ID, DisplayName: it.Name, ProfileType: it.Type}), nil
}
