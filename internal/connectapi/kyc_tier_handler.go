package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/kyc"
)

// KYCTierHandler serves complyd.v1.KycTierService.
type KYCTierHandler struct {
	svc *kyc.Service
	log *slog.Logger
}

// NewKYCTierHandler returns the handler.
func NewKYCTierHandler(svc *kyc.Service, log *slog.Logger) *KYCTierHandler {
	return &KYCTierHandler{svc: svc, log: log}
}

func requirementsProto(rs []kyc.Requirement) []*complydv1.TierRequirement {
	out := make([]*complydv1.TierRequirement, 0, len(rs))
	for _, r := range rs {
		out = append(out, &complydv1.TierRequirement{Code: string(r), Description: r.Description()})
	}
	return out
}

// ListTierRequirements implements KycTierService.ListTierRequirements.
func (h *KYCTierHandler) ListTierRequirements(context.Context, *connect.Request[complydv1.ListTierRequirementsRequest]) (*connect.Response[complydv1.ListTierRequirementsResponse], error) {
	out := &complydv1.ListTierRequirementsResponse{}
	for _, t := range kyc.TierRequirements() {
		out.Tiers = append(out.Tiers, &complydv1.TierDefinition{Tier: t.Tier, Requirements: requirementsProto(t.Requirements)})
	}
	return connect.NewResponse(out), nil
}

// GetApplicationTierRequirements implements KycTierService.GetApplicationTierRequirements.
func (h *KYCTierHandler) GetApplicationTierRequirements(ctx context.Context, req *connect.Request[complydv1.GetApplicationTierRequirementsRequest]) (*connect.Response[complydv1.ApplicationTierRequirements], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	g, err := h.svc.TierGap(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ApplicationTierRequirements{ApplicationId: g.ApplicationID, CurrentTier: g.Tier,
		QualifiedTier: optStr(g.QualifiedTier), NextTier: optStr(g.NextTier), MissingForNextTier: requirementsProto(g.MissingForNext)}
	for _, t := range g.Tiers {
		out.Tiers = append(out.Tiers, &complydv1.TierStanding{Tier: t.Tier, Met: requirementsProto(t.Met), Missing: requirementsProto(t.Missing)})
	}
	return connect.NewResponse(out), nil
}
