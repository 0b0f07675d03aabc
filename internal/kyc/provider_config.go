package kyc

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/tenancy"
)

// ProviderSettings are the tenant's KYC provider settings: the tenant_settings columns and the
// BYOL configuration (its APIKey in clear only inside the process; encrypted at rest).
type ProviderSettings struct {
	TrustMode    string
	FallbackMode string
	ProviderMode string
	// DocumentReviewFourEyes: a document's verification needs a second officer (docs/guide/kyc.md
	// "Document review"). Read only; changed through PATCH /tenants/me/kyc-config.
	DocumentReviewFourEyes bool
	// ApprovalEvidenceRequired: an approval over open evidence is refused (docs/guide/kyc.md
	// "Evidence and overrides"). Read only; changed through PATCH /tenants/me/kyc-config.
	ApprovalEvidenceRequired bool
	BYOL                     *identity.BYOLConfig
	UpdatedAt                *time.Time
}

// ProviderConfig is the identity.ProviderConfig these settings select chains with.
func (s ProviderSettings) ProviderConfig() identity.ProviderConfig {
	return identity.NewProviderConfig(tenancy.Config{ProviderMode: s.ProviderMode, KYCFallbackMode: s.FallbackMode}, s.BYOL)
}

// ProviderStore persists ProviderSettings (internal/postgres.ProviderConfigStore).
type ProviderStore interface {
	// ProviderSettings reads the tenant's settings.
	ProviderSettings(ctx context.Context, tenantID tenancy.TenantID) (ProviderSettings, error)
	// SaveProviderSettings writes provider mode, fallback mode and the BYOL configuration
	// (nil keeps the stored one) with the audit event, in one transaction.
	SaveProviderSettings(ctx context.Context, tenantID tenancy.TenantID, s ProviderSettings, ev audit.Event) error
}

// ProviderPatch is PATCH /kyc/providers/config: nil leaves a value; BYOL is the raw JSON object.
type ProviderPatch struct {
	ProviderMode *string
	FallbackMode *string
	BYOL         json.RawMessage
}

// ConfigService manages the tenant's identity-provider configuration.
type ConfigService struct {
	store ProviderStore
	// Check validates a BYOL configuration the way the provider will be built (for example the
	// https rule of internal/idhttp); nil means identity.BYOLConfig.Validate only.
	Check func(identity.BYOLConfig) error
}

// NewConfigService returns the service.
func NewConfigService(store ProviderStore, check func(identity.BYOLConfig) error) *ConfigService {
	return &ConfigService{store: store, Check: check}
}

// Get returns the settings. The BYOL API key must be redacted by the caller before it leaves the
// process (Redacted).
func (c *ConfigService) Get(ctx context.Context, tenantID tenancy.TenantID) (ProviderSettings, error) {
	return c.store.ProviderSettings(ctx, tenantID)
}

// Update applies p (docs/design/design-choices.md §6). A byol object replaces the configuration; its apiKey may
// be omitted to keep the stored one. providerMode BYOL needs a configuration. Errors:
// VALIDATION_ERROR (fields under byol.).
func (c *ConfigService) Update(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, p ProviderPatch) (ProviderSettings, error) {
	cur, err := c.store.ProviderSettings(ctx, tenantID)
	if err != nil {
		return ProviderSettings{}, err
	}
	before := Redacted(cur)
	next := cur
	next.BYOL = nil
	if p.ProviderMode != nil {
		if *p.ProviderMode != string(identity.SourceEmbedded) && *p.ProviderMode != string(identity.SourceBYOL) {
			return ProviderSettings{}, apperr.Invalid("providerMode", "must be EMBEDDED or BYOL")
		}
		next.ProviderMode = *p.ProviderMode
	}
	if p.FallbackMode != nil {
		if *p.FallbackMode != identity.FallbackWalletReserve && *p.FallbackMode != identity.FallbackNone {
			return ProviderSettings{}, apperr.Invalid("kycFallbackMode", "must be WALLET_RESERVE or NONE")
		}
		next.FallbackMode = *p.FallbackMode
	}
	if len(p.BYOL) > 0 && string(p.BYOL) != "null" {
		var b identity.BYOLConfig
		dec := json.NewDecoder(bytesReader(p.BYOL))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&b); err != nil {
			return ProviderSettings{}, apperr.Invalid("byol", "must be a BYOL configuration object: "+err.Error())
		}
		if b.APIKey == "" && cur.BYOL != nil {
			b.APIKey = cur.BYOL.APIKey
		}
		if err := b.Validate(); err != nil {
			return ProviderSettings{}, err
		}
		if c.Check != nil {
			if err := c.Check(b); err != nil {
				return ProviderSettings{}, err
			}
		}
		next.BYOL = &b
	}
	if next.ProviderMode == string(identity.SourceBYOL) && next.BYOL == nil && cur.BYOL == nil {
		return ProviderSettings{}, apperr.Invalid("byol", "providerMode BYOL needs a byol configuration")
	}
	after := next
	if after.BYOL == nil {
		after.BYOL = cur.BYOL
	}
	if err := c.store.SaveProviderSettings(ctx, tenantID, next, audit.Event{TenantID: tenantID, Actor: actor,
		Action: "kyc.providers_configured", ResourceType: "tenant_settings", ResourceID: string(tenantID),
		Before: before.auditView(), After: Redacted(after).auditView()}); err != nil {
		return ProviderSettings{}, err
	}
	return c.store.ProviderSettings(ctx, tenantID)
}

// Redacted returns s with the BYOL API key masked (never returned, never logged).
func Redacted(s ProviderSettings) ProviderSettings {
	if s.BYOL != nil {
		b := s.BYOL.Redacted()
		s.BYOL = &b
	}
	return s
}

func (s ProviderSettings) auditView() map[string]any {
	m := map[string]any{"providerMode": s.ProviderMode, "kycFallbackMode": s.FallbackMode}
	if s.BYOL != nil {
		m["byol"] = s.BYOL
	}
	return m
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
