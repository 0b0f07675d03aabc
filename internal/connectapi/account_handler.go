package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/tenancy"
)

// AccountHandler serves complyd.v1.AccountService: the caller's password and MFA enrolment, and
// a BANK_ADMIN's reset of another user's MFA.
type AccountHandler struct {
	account *auth.Account
	me      func(ctx context.Context, p auth.Principal) (auth.User, tenancy.Tenant, error)
	log     *slog.Logger
}

// NewAccountHandler returns the handler; me reads the caller's profile (auth.Service.Me).
func NewAccountHandler(account *auth.Account, me func(context.Context, auth.Principal) (auth.User, tenancy.Tenant, error), log *slog.Logger) *AccountHandler {
	return &AccountHandler{account: account, me: me, log: log}
}

// ChangePassword implements AccountService.ChangePassword.
func (h *AccountHandler) ChangePassword(ctx context.Context, req *connect.Request[complydv1.ChangePasswordRequest]) (*connect.Response[complydv1.ChangePasswordResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := h.account.ChangePassword(ctx, p, callActor(ctx, p, req.Peer().Addr), req.Msg.CurrentPassword, req.Msg.NewPassword); err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.ChangePasswordResponse{Changed: true}), nil
}

// StartMfaEnrolment implements AccountService.StartMfaEnrolment.
func (h *AccountHandler) StartMfaEnrolment(ctx context.Context, _ *connect.Request[complydv1.StartMfaEnrolmentRequest]) (*connect.Response[complydv1.SetupMfaResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	secret, url, err := h.account.StartEnrolment(ctx, p)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.SetupMfaResponse{Secret: secret, OtpauthUrl: url}), nil
}

// ConfirmMfaEnrolment implements AccountService.ConfirmMfaEnrolment.
func (h *AccountHandler) ConfirmMfaEnrolment(ctx context.Context, req *connect.Request[complydv1.ConfirmMfaEnrolmentRequest]) (*connect.Response[complydv1.Profile], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := h.account.ConfirmEnrolment(ctx, p, callActor(ctx, p, req.Peer().Addr), req.Msg.Secret, req.Msg.Code); err != nil {
		return nil, err
	}
	u, t, err := h.me(ctx, p)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(profileToProto(u, t)), nil
}

// ResetUserMfa implements AccountService.ResetUserMfa.
func (h *AccountHandler) ResetUserMfa(ctx context.Context, req *connect.Request[complydv1.ResetUserMfaRequest]) (*connect.Response[complydv1.User], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	u, err := h.account.ResetMFA(ctx, p, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(userToProto(u)), nil
}

func profileToProto(u auth.User, t tenancy.Tenant) *complydv1.Profile {
	return &complydv1.Profile{Id: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		Role: string(u.Role), IsActive: u.IsActive, LastLoginAt: tsPtr(u.LastLoginAt), CreatedAt: ts(u.CreatedAt), MfaEnabled: u.MFAEnabled,
		Tenant: tenantSummary(t)}
}

// BrandingStore is what BrandingHandler needs (postgres.BrandingStore).
type BrandingStore interface {
	// Branding returns the logo URL (nil when unset), primary colour and time zone. Errors: NOT_FOUND.
	Branding(ctx context.Context, tenantID tenancy.TenantID) (tenancy.Branding, error)
	// UpdateBranding changes the given fields and records ev with before and after. Errors: NOT_FOUND.
	UpdateBranding(ctx context.Context, tenantID tenancy.TenantID, patch tenancy.BrandingPatch, ev audit.Event) (tenancy.Branding, error)
}

// BrandingHandler serves complyd.v1.BrandingService.
type BrandingHandler struct {
	store BrandingStore
	log   *slog.Logger
}

// NewBrandingHandler returns the handler.
func NewBrandingHandler(store BrandingStore, log *slog.Logger) *BrandingHandler {
	return &BrandingHandler{store: store, log: log}
}

// GetBranding implements BrandingService.GetBranding.
func (h *BrandingHandler) GetBranding(ctx context.Context, _ *connect.Request[complydv1.GetBrandingRequest]) (*connect.Response[complydv1.Branding], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	b, err := h.store.Branding(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(brandingToProto(b)), nil
}

// UpdateBranding implements BrandingService.UpdateBranding.
func (h *BrandingHandler) UpdateBranding(ctx context.Context, req *connect.Request[complydv1.UpdateBrandingRequest]) (*connect.Response[complydv1.Branding], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	patch := tenancy.BrandingPatch{LogoURL: req.Msg.LogoUrl, PrimaryColor: req.Msg.PrimaryColor, TimeZone: req.Msg.TimeZone}
	if err := patch.Validate(); err != nil {
		return nil, err
	}
	ev := audit.Event{TenantID: p.TenantID, Actor: callActor(ctx, p, req.Peer().Addr), Action: "tenant.branding_updated",
		ResourceType: "tenant", ResourceID: string(p.TenantID)}
	b, err := h.store.UpdateBranding(ctx, p.TenantID, patch, ev)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(brandingToProto(b)), nil
}

func brandingToProto(b tenancy.Branding) *complydv1.Branding {
	return &complydv1.Branding{LogoUrl: nullStringPtr(b.LogoURL), PrimaryColor: b.PrimaryColor, TimeZone: b.TimeZone}
}

// tenantSummary is the tenant object of the own profile.
func tenantSummary(t tenancy.Tenant) *complydv1.TenantSummary {
	return &complydv1.TenantSummary{Id: string(t.ID), Name: t.Name, Slug: t.Slug, LogoUrl: nullStringPtr(t.LogoURL), PrimaryColor: t.PrimaryColor,
		TimeZone: t.TimeZone}
}
