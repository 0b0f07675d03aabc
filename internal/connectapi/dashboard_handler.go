package connectapi

import (
	"context"
	"log/slog"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/complyd/complyd/internal/dashboard"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// DashboardHandler serves complyd.v1.DashboardService (docs/guide/dashboard.md "Overview API").
type DashboardHandler struct {
	svc *dashboard.Service
	log *slog.Logger
	// freshnessFunc reports where the figures are read from (WithFreshness).
	freshnessFunc func() dashboard.Freshness
	now           func() time.Time
}

// NewDashboardHandler returns the handler.
func NewDashboardHandler(svc *dashboard.Service, log *slog.Logger) *DashboardHandler {
	return &DashboardHandler{svc: svc, log: log, now: time.Now,
		freshnessFunc: func() dashboard.Freshness { return dashboard.Freshness{ReplicaStatus: "none"} }}
}

// WithFreshness has GetDataFreshness answer with f (the read replica's state) and now.
func (h *DashboardHandler) WithFreshness(f func() dashboard.Freshness, now func() time.Time) *DashboardHandler {
	h.freshnessFunc, h.now = f, now
	return h
}

// GetDataFreshness implements DashboardService.GetDataFreshness.
func (h *DashboardHandler) GetDataFreshness(ctx context.Context, _ *connect.Request[complydv1.GetDataFreshnessRequest]) (*connect.Response[complydv1.GetDataFreshnessResponse], error) {
	if _, err := principalOf(ctx); err != nil {
		return nil, err
	}
	f := h.freshnessFunc()
	out := &complydv1.GetDataFreshnessResponse{Source: "PRIMARY", ReplicaStatus: f.ReplicaStatus, MaxLagSeconds: f.MaxLag.Seconds(),
		AsOf: timestamppb.New(h.now())}
	if f.FromReplica {
		out.Source, out.LagSeconds, out.AsOf = "REPLICA", f.Lag.Seconds(), timestamppb.New(h.now().Add(-f.Lag))
	}
	return connect.NewResponse(out), nil
}

// periodRequest is what every dashboard request carries.
type periodRequest interface {
	GetFrom() *timestamppb.Timestamp
	GetTo() *timestamppb.Timestamp
}

func counts(c dashboard.Counts) []*complydv1.DashboardCount {
	out := make([]*complydv1.DashboardCount, 0, len(c.Keys))
	for _, k := range c.Keys {
		out = append(out, &complydv1.DashboardCount{Key: k, Count: c.Values[k]})
	}
	return out
}

func query(r periodRequest, g string) dashboard.Query {
	return dashboard.Query{From: timePtr(r.GetFrom()), To: timePtr(r.GetTo()), Granularity: dashboard.Granularity(g)}
}

// GetScreeningStats implements DashboardService.GetScreeningStats.
func (h *DashboardHandler) GetScreeningStats(ctx context.Context, req *connect.Request[complydv1.GetScreeningStatsRequest]) (*connect.Response[complydv1.GetScreeningStatsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	st, err := h.svc.Screenings(ctx, p.TenantID, query(req.Msg, req.Msg.GetGranularity()))
	if err != nil {
		return nil, err
	}
	out := &complydv1.GetScreeningStatsResponse{From: ts(st.Period.From), To: ts(st.Period.To), Granularity: string(st.Period.Granularity),
		Total: st.Outcomes.Total(), ByOutcome: counts(st.Outcomes), ByRiskLevel: counts(st.RiskLevel),
		Buckets: make([]*complydv1.ScreeningBucket, 0, len(st.Buckets))}
	for _, b := range st.Buckets {
		out.Buckets = append(out.Buckets, &complydv1.ScreeningBucket{Start: ts(b.Start), Total: b.Outcomes.Total(),
			ByOutcome: counts(b.Outcomes), ByRiskLevel: counts(b.RiskLevel)})
	}
	return connect.NewResponse(out), nil
}

// GetTopRules implements DashboardService.GetTopRules.
func (h *DashboardHandler) GetTopRules(ctx context.Context, req *connect.Request[complydv1.GetTopRulesRequest]) (*connect.Response[complydv1.GetTopRulesResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	period, rules, err := h.svc.TopRules(ctx, p.TenantID, query(req.Msg, ""), int(req.Msg.GetLimit()))
	if err != nil {
		return nil, err
	}
	out := &complydv1.GetTopRulesResponse{From: ts(period.From), To: ts(period.To), Items: make([]*complydv1.RuleHits, 0, len(rules))}
	for _, r := range rules {
		out.Items = append(out.Items, &complydv1.RuleHits{RuleId: r.RuleID, RuleName: r.RuleName, Hits: r.Hits})
	}
	return connect.NewResponse(out), nil
}

// GetCaseStats implements DashboardService.GetCaseStats.
func (h *DashboardHandler) GetCaseStats(ctx context.Context, req *connect.Request[complydv1.GetCaseStatsRequest]) (*connect.Response[complydv1.GetCaseStatsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	st, err := h.svc.Cases(ctx, p.TenantID, query(req.Msg, req.Msg.GetGranularity()))
	if err != nil {
		return nil, err
	}
	out := &complydv1.GetCaseStatsResponse{From: ts(st.Period.From), To: ts(st.Period.To), Granularity: string(st.Period.Granularity),
		Buckets: make([]*complydv1.CaseBucket, 0, len(st.Buckets)), Oldest: make([]*complydv1.OldestCase, 0, len(st.Oldest))}
	for _, b := range st.Buckets {
		out.Opened += b.Opened
		out.Closed += b.Closed
		out.Buckets = append(out.Buckets, &complydv1.CaseBucket{Start: ts(b.Start), Opened: b.Opened, Closed: b.Closed})
	}
	for _, o := range st.OpenByPriority {
		out.OpenTotal += o.ByAge.Total()
		out.OpenByPriority = append(out.OpenByPriority, &complydv1.OpenCases{Priority: o.Priority, Total: o.ByAge.Total(), ByAge: counts(o.ByAge)})
	}
	for _, c := range st.Oldest {
		out.Oldest = append(out.Oldest, &complydv1.OldestCase{Id: c.ID, CaseNumber: c.CaseNumber, Priority: c.Priority, Status: c.Status,
			Type: c.Type, CreatedAt: ts(c.CreatedAt)})
	}
	return connect.NewResponse(out), nil
}

// GetApplicationFunnel implements DashboardService.GetApplicationFunnel.
func (h *DashboardHandler) GetApplicationFunnel(ctx context.Context, req *connect.Request[complydv1.GetApplicationFunnelRequest]) (*connect.Response[complydv1.GetApplicationFunnelResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	f, err := h.svc.Applications(ctx, p.TenantID, query(req.Msg, ""))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.GetApplicationFunnelResponse{From: ts(f.Period.From), To: ts(f.Period.To),
		Kyc: counts(f.KYC), KycTotal: f.KYC.Total(), Kyb: counts(f.KYB), KybTotal: f.KYB.Total()}), nil
}

// GetSanctionsStats implements DashboardService.GetSanctionsStats.
func (h *DashboardHandler) GetSanctionsStats(ctx context.Context, req *connect.Request[complydv1.GetSanctionsStatsRequest]) (*connect.Response[complydv1.GetSanctionsStatsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	st, err := h.svc.Sanctions(ctx, p.TenantID, query(req.Msg, req.Msg.GetGranularity()))
	if err != nil {
		return nil, err
	}
	out := &complydv1.GetSanctionsStatsResponse{From: ts(st.Period.From), To: ts(st.Period.To), Granularity: string(st.Period.Granularity),
		Hits: st.Reviews.Total(), ByReview: counts(st.Reviews), Buckets: make([]*complydv1.DashboardCountBucket, 0, len(st.Buckets))}
	for _, b := range st.Buckets {
		out.Buckets = append(out.Buckets, &complydv1.DashboardCountBucket{Start: ts(b.Start), Count: b.Count})
	}
	return connect.NewResponse(out), nil
}

// GetWebhookStats implements DashboardService.GetWebhookStats.
func (h *DashboardHandler) GetWebhookStats(ctx context.Context, req *connect.Request[complydv1.GetWebhookStatsRequest]) (*connect.Response[complydv1.GetWebhookStatsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	st, err := h.svc.Webhooks(ctx, p.TenantID, query(req.Msg, ""))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.GetWebhookStatsResponse{From: ts(st.Period.From), To: ts(st.Period.To),
		Total: st.ByStatus.Total(), ByStatus: counts(st.ByStatus), SuccessRate: st.SuccessRate()}), nil
}

// GetWalletStats implements DashboardService.GetWalletStats.
func (h *DashboardHandler) GetWalletStats(ctx context.Context, req *connect.Request[complydv1.GetWalletStatsRequest]) (*connect.Response[complydv1.GetWalletStatsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	st, err := h.svc.Wallet(ctx, p.TenantID, query(req.Msg, req.Msg.GetGranularity()))
	if err != nil {
		return nil, err
	}
	out := &complydv1.GetWalletStatsResponse{From: ts(st.Period.From), To: ts(st.Period.To), Granularity: string(st.Period.Granularity),
		Balance: st.Balance.StringFixed(2), Held: st.Held.StringFixed(2), Currency: "NGN", Spend: st.Spend.StringFixed(2),
		Charges: st.Charges, Credits: st.Credits.StringFixed(2), Buckets: make([]*complydv1.WalletBucket, 0, len(st.Buckets))}
	for _, b := range st.Buckets {
		out.Buckets = append(out.Buckets, &complydv1.WalletBucket{Start: ts(b.Start), Spend: b.Spend.StringFixed(2), Charges: b.Charges})
	}
	return connect.NewResponse(out), nil
}
