package connectapi

import (
	"context"
	"encoding/json"
	"log/slog"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/kyc"
)

// ProviderHandler serves complyd.v1.IdentityProviderService.
type ProviderHandler struct {
	svc *kyc.ConfigService
	log *slog.Logger
}

// NewProviderHandler returns the handler.
func NewProviderHandler(svc *kyc.ConfigService, log *slog.Logger) *ProviderHandler {
	return &ProviderHandler{svc: svc, log: log}
}

// providerProto renders the settings; the API key never leaves: apiKey is dropped and
// apiKeySet tells whether one is stored.
func providerProto(s kyc.ProviderSettings) (*complydv1.ProviderConfig, error) {
	out := &complydv1.ProviderConfig{ProviderMode: s.ProviderMode, KycFallbackMode: s.FallbackMode, UpdatedAt: tsPtr(s.UpdatedAt)}
	if s.BYOL != nil {
		b, err := json.Marshal(s.BYOL)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		delete(m, "apiKey")
		m["apiKeySet"] = s.BYOL.APIKey != ""
		if out.Byol, err = structpb.NewStruct(m); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// GetProviderConfig implements IdentityProviderService.GetProviderConfig.
func (h *ProviderHandler) GetProviderConfig(ctx context.Context, _ *connect.Request[complydv1.GetProviderConfigRequest]) (*connect.Response[complydv1.ProviderConfig], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	s, err := h.svc.Get(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	out, err := providerProto(s)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

// UpdateProviderConfig implements IdentityProviderService.UpdateProviderConfig.
func (h *ProviderHandler) UpdateProviderConfig(ctx context.Context, req *connect.Request[complydv1.UpdateProviderConfigRequest]) (*connect.Response[complydv1.ProviderConfig], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	patch := kyc.ProviderPatch{ProviderMode: req.Msg.ProviderMode, FallbackMode: req.Msg.KycFallbackMode}
	if req.Msg.Byol != nil {
		if patch.BYOL, err = protojson.Marshal(req.Msg.Byol); err != nil {
			return nil, err
		}
	}
	s, err := h.svc.Update(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), patch)
	if err != nil {
		return nil, err
	}
	out, err := providerProto(s)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

// GetKycConfig implements IdentityProviderService.GetKycConfig.
func (h *ProviderHandler) GetKycConfig(ctx context.Context, _ *connect.Request[complydv1.GetKycConfigRequest]) (*connect.Response[complydv1.KycConfig], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	s, err := h.svc.Get(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	out := &complydv1.KycConfig{KycTrustMode: s.TrustMode, KycFallbackMode: s.FallbackMode, ProviderMode: s.ProviderMode,
		DocumentReviewFourEyes: s.DocumentReviewFourEyes, ApprovalEvidenceRequired: s.ApprovalEvidenceRequired}
	if s.BYOL != nil {
		out.MaxTier = &s.BYOL.MaxTier
		for _, v := range s.BYOL.SupportedVerifications {
			out.SupportedVerifications = append(out.SupportedVerifications, string(v))
		}
	}
	return connect.NewResponse(out), nil
}
