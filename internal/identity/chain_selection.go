package identity

import (
	"slices"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// ProviderConfig is the part of a tenant's configuration that decides its provider chain: the
// provider mode (EMBEDDED or BYOL), kycFallbackMode and, in BYOL mode, the tenant provider's
// maxTier and supportedVerifications (docs/reference/specification.md 2.2).
type ProviderConfig struct {
	Mode                   ProviderSource
	FallbackMode           string
	MaxTier                string
	SupportedVerifications []VerificationType
}

// NewProviderConfig builds the ProviderConfig of a tenant from its cached configuration and the
// BYOL settings (nil in EMBEDDED mode).
func NewProviderConfig(tc tenancy.Config, byol *BYOLConfig) ProviderConfig {
	pc := ProviderConfig{Mode: ProviderSource(tc.ProviderMode), FallbackMode: tc.KYCFallbackMode}
	if byol != nil {
		pc.MaxTier = byol.MaxTier
		pc.SupportedVerifications = byol.SupportedVerifications
	}
	return pc
}

// byolCovers reports whether the tenant's own provider may answer v at tier. An empty tier (a
// direct lookup, which has no tier) needs only the verification type; an empty or unknown maxTier
// covers no tier.
func (c ProviderConfig) byolCovers(v VerificationType, tier string) bool {
	if !slices.Contains(c.SupportedVerifications, v) {
		return false
	}
	if tier == "" {
		return true
	}
	return TierRank(c.MaxTier) >= TierRank(tier) && TierRank(tier) > 0
}

// SelectSources is the chain selection: a pure function of the tenant's provider configuration,
// the verification type and the requested tier (empty for direct lookups). It returns the
// provider sources to try, in order.
//
//   - EMBEDDED mode (or no mode): [EMBEDDED].
//   - BYOL mode, the tenant provider covers the type and tier: [BYOL] and, with kycFallbackMode
//     WALLET_RESERVE, EMBEDDED after it for outages (docs/design/design-choices.md §6 "falls back per
//     kycFallbackMode").
//   - BYOL mode, not covered (type not in supportedVerifications, or maxTier below the tier):
//     WALLET_RESERVE uses the embedded provider ([EMBEDDED], docs/reference/specification.md 3.2 rule 6); NONE
//     (or an unset fallback mode, which never charges the wallet silently) returns
//     PROVIDER_TIER_UNSUPPORTED (422) with data {verification, requestedTier, maxTier,
//     supportedVerifications}.
func SelectSources(cfg ProviderConfig, v VerificationType, tier string) ([]ProviderSource, error) {
	if !v.Valid() {
		return nil, apperr.Invalid("verificationType", "unknown verification type")
	}
	if cfg.Mode != SourceBYOL {
		return []ProviderSource{SourceEmbedded}, nil
	}
	reserve := cfg.FallbackMode == FallbackWalletReserve
	if cfg.byolCovers(v, tier) {
		if reserve {
			return []ProviderSource{SourceBYOL, SourceEmbedded}, nil
		}
		return []ProviderSource{SourceBYOL}, nil
	}
	if reserve {
		return []ProviderSource{SourceEmbedded}, nil
	}
	supported := make([]string, 0, len(cfg.SupportedVerifications))
	for _, s := range cfg.SupportedVerifications {
		supported = append(supported, string(s))
	}
	return nil, apperr.Newf(apperr.ProviderTierUnsupported,
		"your identity provider does not support %s verification at %s and kycFallbackMode is NONE",
		v, tierOrAny(tier)).WithData(map[string]any{
		"verification":           string(v),
		"requestedTier":          tier,
		"maxTier":                cfg.MaxTier,
		"supportedVerifications": supported,
	})
}

func tierOrAny(tier string) string {
	if tier == "" {
		return "any tier"
	}
	return tier
}

// NotConfigured is PROVIDER_UNAVAILABLE for a deployment with no identity provider at all: no
// tenant provider (BYOL) and the sandbox not enabled, as `complyd serve` runs by default. Nothing
// is asked and nothing is charged; the message says what an operator must configure.
func NotConfigured(v VerificationType) error {
	return apperr.Newf(apperr.ProviderUnavailable, "no identity provider is configured for %s verification: "+
		"configure the tenant's provider (BYOL) through /api/v1/kyc/providers/config; nothing was charged", v).
		WithData(map[string]any{"verification": string(v), "reason": "NO_PROVIDER_CONFIGURED"})
}

// Providers resolves provider sources to providers: the embedded provider and, when the tenant
// runs BYOL, the tenant's own provider.
type Providers struct {
	Embedded Provider
	BYOL     Provider // nil in EMBEDDED mode
}

// Chain selects the sources for (cfg, v, tier) and returns the Chain of providers. A BYOL source
// without a configured BYOL provider is skipped, so a half-configured tenant falls back like an
// outage would; if nothing is left, the error is PROVIDER_UNAVAILABLE.
func (ps Providers) Chain(cfg ProviderConfig, v VerificationType, tier string) (Chain, error) {
	sources, err := SelectSources(cfg, v, tier)
	if err != nil {
		return Chain{}, err
	}
	c := Chain{Verification: v}
	for _, s := range sources {
		switch {
		case s == SourceEmbedded && ps.Embedded != nil:
			c.Providers = append(c.Providers, ps.Embedded)
		case s == SourceBYOL && ps.BYOL != nil:
			c.Providers = append(c.Providers, ps.BYOL)
		}
	}
	if ps.Embedded == nil && ps.BYOL == nil {
		return Chain{}, NotConfigured(v)
	}
	if len(c.Providers) == 0 {
		return Chain{}, unavailable(v, nil)
	}
	return c, nil
}
