package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"
	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/network"
)

// NetworkHandler serves complyd.v1.NetworkService.
type NetworkHandler struct {
	svc *network.Service
	log *slog.Logger
}

// NewNetworkHandler returns the handler.
func NewNetworkHandler(svc *network.Service, log *slog.Logger) *NetworkHandler {
	return &NetworkHandler{svc: svc, log: log}
}

// networkParams maps the optional bounds; absent fields take network.Normalize's defaults and
// shared identifiers are on unless turned off.
func networkParams(q *complydv1.NetworkQuery) (network.Params, error) {
	p := network.Params{SharedIdentifiers: true}
	if q == nil {
		return p, nil
	}
	p.Hops, p.MaxNodes, p.MaxEdges, p.FanThreshold = int(q.GetHops()), int(q.GetMaxNodes()), int(q.GetMaxEdges()), int(q.GetFanThreshold())
	if q.From != nil {
		p.From = q.From.AsTime()
	}
	if q.To != nil {
		p.To = q.To.AsTime()
	}
	if q.MinAmount != nil {
		d, err := decimal.NewFromString(q.GetMinAmount())
		if err != nil {
			return p, apperr.Invalid("query.minAmount", "must be a decimal amount")
		}
		p.MinAmount = d
	}
	if q.SharedIdentifiers != nil {
		p.SharedIdentifiers = q.GetSharedIdentifiers()
	}
	return p, nil
}

func graphToProto(g network.Graph) *complydv1.NetworkGraph {
	out := &complydv1.NetworkGraph{Truncated: g.Truncated, Nodes: make([]*complydv1.NetworkNode, 0, len(g.Nodes)),
		Edges: make([]*complydv1.NetworkEdge, 0, len(g.Edges)), Findings: make([]*complydv1.NetworkFinding, 0, len(g.Findings))}
	for _, n := range g.Nodes {
		out.Nodes = append(out.Nodes, &complydv1.NetworkNode{Account: n.Account, Hop: int32(n.Hop), Seed: n.Seed})
	}
	for _, e := range g.Edges {
		pe := &complydv1.NetworkEdge{From: e.From, To: e.To, Kind: e.Kind, Count: int32(e.Count), Total: e.Total.StringFixed(2), Value: e.Value}
		if e.Kind == network.EdgeTransfer {
			pe.FirstAt, pe.LastAt = ts(e.First), ts(e.Last)
		}
		out.Edges = append(out.Edges, pe)
	}
	for _, f := range g.Findings {
		out.Findings = append(out.Findings, findingToProto(f))
	}
	return out
}

func findingToProto(f network.Finding) *complydv1.NetworkFinding {
	return &complydv1.NetworkFinding{Kind: f.Kind, Account: f.Account, Accounts: f.Accounts, Count: int32(f.Count),
		Total: f.Total.StringFixed(2), Description: f.Description}
}

// GetAccountNetwork implements NetworkService.GetAccountNetwork.
func (h *NetworkHandler) GetAccountNetwork(ctx context.Context, req *connect.Request[complydv1.GetAccountNetworkRequest]) (*connect.Response[complydv1.NetworkGraph], error) {
	return h.graph(ctx, req.Msg.Query, req.Msg.Account, "")
}

// GetCustomerNetwork implements NetworkService.GetCustomerNetwork.
func (h *NetworkHandler) GetCustomerNetwork(ctx context.Context, req *connect.Request[complydv1.GetCustomerNetworkRequest]) (*connect.Response[complydv1.NetworkGraph], error) {
	return h.graph(ctx, req.Msg.Query, "", req.Msg.Id)
}

func (h *NetworkHandler) graph(ctx context.Context, q *complydv1.NetworkQuery, account, customerID string) (*connect.Response[complydv1.NetworkGraph], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	params, err := networkParams(q)
	if err != nil {
		return nil, err
	}
	params.Account, params.CustomerID = account, customerID
	g, err := h.svc.Graph(ctx, p.TenantID, params)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(graphToProto(g)), nil
}

// OpenNetworkCase implements NetworkService.OpenNetworkCase.
func (h *NetworkHandler) OpenNetworkCase(ctx context.Context, req *connect.Request[complydv1.OpenNetworkCaseRequest]) (*connect.Response[complydv1.Case], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	params, err := networkParams(req.Msg.Query)
	if err != nil {
		return nil, err
	}
	params.Account, params.CustomerID = req.Msg.GetAccount(), req.Msg.GetCustomerId()
	cs, _, err := h.svc.OpenCase(ctx, c, params, req.Msg.Kind, req.Msg.FindingAccount)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(caseToProto(cs, nil)), nil
}
