package connectapi

import (
	"context"
	"log/slog"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"connectrpc.com/connect"
	"github.com/shopspring/decimal"
	"google.golang.org/protobuf/proto"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/tenancy"
)

// TenantConfigStore is what TenantConfigHandler needs (postgres.SettingsStore); every change
// is audited and announced to every replica's settings cache (LISTEN/NOTIFY).
type TenantConfigStore interface {
	// SetTrustMode changes kycTrustMode.
	SetTrustMode(ctx context.Context, tenant tenancy.TenantID, mode string, actor audit.Actor) error
	// SetDocumentReviewFourEyes changes documentReviewFourEyes.
	SetDocumentReviewFourEyes(ctx context.Context, tenant tenancy.TenantID, on bool, actor audit.Actor) error
	// SetApprovalEvidenceRequired changes approvalEvidenceRequired.
	SetApprovalEvidenceRequired(ctx context.Context, tenant tenancy.TenantID, on bool, actor audit.Actor) error
	// FXRates returns the tenant's rates by currency.
	FXRates(ctx context.Context, tenant tenancy.TenantID) ([]tenancy.FXRate, error)
	// UpsertFXRates upserts rates and returns all of them.
	UpsertFXRates(ctx context.Context, tenant tenancy.TenantID, rates []tenancy.FXRate, actor audit.Actor) ([]tenancy.FXRate, error)
	// Limits returns the tier limits and the KYC expiry.
	Limits(ctx context.Context, tenant tenancy.TenantID) (map[string]decimal.Decimal, int, error)
	// UpdateLimits changes some tier limits and, when non-nil, the expiry.
	UpdateLimits(ctx context.Context, tenant tenancy.TenantID, tiers map[string]decimal.Decimal, expiryDays *int, actor audit.Actor) (map[string]decimal.Decimal, int, error)
	// ScreeningPolicy returns what screening does while no sanctions list is loaded.
	ScreeningPolicy(ctx context.Context, tenant tenancy.TenantID) (string, error)
	// SetScreeningPolicy changes it.
	SetScreeningPolicy(ctx context.Context, tenant tenancy.TenantID, policy string, actor audit.Actor) error
}

// KycConfigFunc returns the caller's whole KYC configuration (IdentityProviderService.GetKycConfig).
type KycConfigFunc func(ctx context.Context) (*complydv1.KycConfig, error)

// TenantConfigHandler serves complyd.v1.TenantConfigService (docs/design/design-choices.md §11).
type TenantConfigHandler struct {
	store      TenantConfigStore
	kycConfig  KycConfigFunc
	invalidate func(tenancy.TenantID)
	log        *slog.Logger
}

// NewTenantConfigHandler returns the handler.
func NewTenantConfigHandler(store TenantConfigStore, kycConfig KycConfigFunc, invalidate func(tenancy.TenantID), log *slog.Logger) *TenantConfigHandler {
	return &TenantConfigHandler{store: store, kycConfig: kycConfig, invalidate: invalidate, log: log}
}

// UpdateKycConfig implements TenantConfigService.UpdateKycConfig: each field given is changed
// (each change audited on its own); a field left out is kept.
func (h *TenantConfigHandler) UpdateKycConfig(ctx context.Context, req *connect.Request[complydv1.UpdateKycConfigRequest]) (*connect.Response[complydv1.KycConfig], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	actor := callActor(ctx, p, req.Peer().Addr)
	if req.Msg.KycTrustMode != "" {
		if err := h.store.SetTrustMode(ctx, p.TenantID, req.Msg.KycTrustMode, actor); err != nil {
			return nil, err
		}
	}
	if req.Msg.DocumentReviewFourEyes != nil {
		if err := h.store.SetDocumentReviewFourEyes(ctx, p.TenantID, *req.Msg.DocumentReviewFourEyes, actor); err != nil {
			return nil, err
		}
	}
	if req.Msg.ApprovalEvidenceRequired != nil {
		if err := h.store.SetApprovalEvidenceRequired(ctx, p.TenantID, *req.Msg.ApprovalEvidenceRequired, actor); err != nil {
			return nil, err
		}
	}
	h.invalidate(p.TenantID)
	out, err := h.kycConfig(ctx)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

func fxRatesToProto(rs []tenancy.FXRate) *complydv1.FxRates {
	out := &complydv1.FxRates{Rates: []*complydv1.FxRate{}}
	for _, r := range rs {
		out.Rates = append(out.Rates, &complydv1.FxRate{Currency: r.Currency, RateToNgn: r.RateToNGN.String(), UpdatedAt: ts(r.UpdatedAt)})
	}
	return out
}

// GetFxRates implements TenantConfigService.GetFxRates.
func (h *TenantConfigHandler) GetFxRates(ctx context.Context, _ *connect.Request[complydv1.GetFxRatesRequest]) (*connect.Response[complydv1.FxRates], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	rs, err := h.store.FXRates(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(fxRatesToProto(rs)), nil
}

// UpdateFxRates implements TenantConfigService.UpdateFxRates. A rate must be positive; NGN has
// no rate (it is the base currency).
func (h *TenantConfigHandler) UpdateFxRates(ctx context.Context, req *connect.Request[complydv1.UpdateFxRatesRequest]) (*connect.Response[complydv1.FxRates], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	var in []tenancy.FXRate
	var bad []apperr.FieldError
	for i, r := range req.Msg.Rates {
		d, err := decimal.NewFromString(r.RateToNgn)
		switch {
		case r.Currency == "NGN":
			bad = append(bad, apperr.FieldError{Field: fieldIndex("rates", i, "currency"), Message: "NGN is the base currency"})
		case !screeningCurrencies[r.Currency]:
			bad = append(bad, apperr.FieldError{Field: fieldIndex("rates", i, "currency"),
				Message: "must be an ISO 4217 currency code a screening accepts"})
		case err != nil || !d.IsPositive():
			bad = append(bad, apperr.FieldError{Field: fieldIndex("rates", i, "rateToNgn"), Message: "must be a positive decimal"})
		default:
			in = append(in, tenancy.FXRate{Currency: r.Currency, RateToNGN: d})
		}
	}
	if len(bad) > 0 {
		return nil, apperr.InvalidFields(bad...)
	}
	rs, err := h.store.UpsertFXRates(ctx, p.TenantID, in, callActor(ctx, p, req.Peer().Addr))
	if err != nil {
		return nil, err
	}
	h.invalidate(p.TenantID)
	return connect.NewResponse(fxRatesToProto(rs)), nil
}

func fieldIndex(list string, i int, field string) string {
	return list + "[" + itoa(i) + "]." + field
}

func itoa(i int) string { return decimal.NewFromInt(int64(i)).String() }

func limitsToProto(t map[string]decimal.Decimal, expiry int) *complydv1.Limits {
	return &complydv1.Limits{TierLimits: &complydv1.TierLimits{Tier_1: t["TIER_1"].String(), Tier_2: t["TIER_2"].String(),
		Tier_3: t["TIER_3"].String()}, ExpiryDays: int32(expiry)}
}

// GetLimits implements TenantConfigService.GetLimits.
func (h *TenantConfigHandler) GetLimits(ctx context.Context, _ *connect.Request[complydv1.GetLimitsRequest]) (*connect.Response[complydv1.Limits], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	t, e, err := h.store.Limits(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(limitsToProto(t, e)), nil
}

// UpdateLimits implements TenantConfigService.UpdateLimits: each given limit must be positive,
// and after the change TIER_1 ≤ TIER_2 ≤ TIER_3.
func (h *TenantConfigHandler) UpdateLimits(ctx context.Context, req *connect.Request[complydv1.UpdateLimitsRequest]) (*connect.Response[complydv1.Limits], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	tiers := map[string]decimal.Decimal{}
	var bad []apperr.FieldError
	if t := m.TierLimits; t != nil {
		for name, v := range map[string]*string{"TIER_1": t.Tier_1, "TIER_2": t.Tier_2, "TIER_3": t.Tier_3} {
			if v == nil {
				continue
			}
			d, err := decimal.NewFromString(*v)
			if err != nil || !d.IsPositive() {
				bad = append(bad, apperr.FieldError{Field: "tierLimits." + name, Message: "must be a positive decimal"})
				continue
			}
			tiers[name] = d
		}
	}
	if len(bad) > 0 {
		return nil, apperr.InvalidFields(bad...)
	}
	var expiry *int
	if m.ExpiryDays != nil {
		e := int(*m.ExpiryDays)
		expiry = &e
	}
	t, e, err := h.store.UpdateLimits(ctx, p.TenantID, tiers, expiry, callActor(ctx, p, req.Peer().Addr))
	if err != nil {
		return nil, err
	}
	h.invalidate(p.TenantID)
	return connect.NewResponse(limitsToProto(t, e)), nil
}

// screeningCurrencies are the currencies a screening accepts: the ISO 4217 list of the
// protovalidate rule on ScreenTransactionRequest.currency, read from the descriptor so that a
// rate can only be set for a currency that can be screened.
var screeningCurrencies = func() map[string]bool {
	fd := (&complydv1.ScreenTransactionRequest{}).ProtoReflect().Descriptor().Fields().ByName("currency")
	rules, _ := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules)
	in := rules.GetString().GetIn()
	if len(in) == 0 {
		panic("connectapi: ScreenTransactionRequest.currency has no ISO 4217 list")
	}
	out := make(map[string]bool, len(in))
	for _, c := range in {
		out[c] = true
	}
	return out
}()

// GetScreeningPolicy implements TenantConfigService.GetScreeningPolicy.
func (h *TenantConfigHandler) GetScreeningPolicy(ctx context.Context, _ *connect.Request[complydv1.GetScreeningPolicyRequest]) (*connect.Response[complydv1.ScreeningPolicy], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	policy, err := h.store.ScreeningPolicy(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.ScreeningPolicy{SanctionsListsMissing: policy}), nil
}

// UpdateScreeningPolicy implements TenantConfigService.UpdateScreeningPolicy.
func (h *TenantConfigHandler) UpdateScreeningPolicy(ctx context.Context, req *connect.Request[complydv1.UpdateScreeningPolicyRequest]) (*connect.Response[complydv1.ScreeningPolicy], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := h.store.SetScreeningPolicy(ctx, p.TenantID, req.Msg.SanctionsListsMissing, callActor(ctx, p, req.Peer().Addr)); err != nil {
		return nil, err
	}
	h.invalidate(p.TenantID)
	return connect.NewResponse(&complydv1.ScreeningPolicy{SanctionsListsMissing: req.Msg.SanctionsListsMissing}), nil
}
