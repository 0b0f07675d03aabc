package identity_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/identity/identitytest"
	"github.com/complyd/complyd/internal/tenancy"
)

func TestSelectSources(t *testing.T) {
	t.Parallel()
	emb, byol := identity.SourceEmbedded, identity.SourceBYOL
	byolT2 := func(fallback string) identity.ProviderConfig {
		return identity.ProviderConfig{
			Mode: byol, FallbackMode: fallback, MaxTier: identity.Tier2,
			SupportedVerifications: []identity.VerificationType{identity.VerifyBVN, identity.VerifyNIN},
		}
	}
	tests := []struct {
		name    string
		cfg     identity.ProviderConfig
		v       identity.VerificationType
		tier    string
		want    []identity.ProviderSource
		wantErr apperr.Code
	}{
		{"embedded mode", identity.ProviderConfig{Mode: emb}, identity.VerifyBVN, identity.Tier3, []identity.ProviderSource{emb}, ""},
		{"no mode is embedded", identity.ProviderConfig{}, identity.VerifyFaceMatch, "", []identity.ProviderSource{emb}, ""},
		{"byol covers, reserve falls back on outage", byolT2(identity.FallbackWalletReserve), identity.VerifyBVN, identity.Tier2, []identity.ProviderSource{byol, emb}, ""},
		{"byol covers, none has no fallback", byolT2(identity.FallbackNone), identity.VerifyNIN, identity.Tier1, []identity.ProviderSource{byol}, ""},
		{"lookup without tier, byol covers", byolT2(identity.FallbackNone), identity.VerifyBVN, "", []identity.ProviderSource{byol}, ""},
		{"tier above maxTier, reserve uses embedded", byolT2(identity.FallbackWalletReserve), identity.VerifyBVN, identity.Tier3, []identity.ProviderSource{emb}, ""},
		{"tier above maxTier, none refuses", byolT2(identity.FallbackNone), identity.VerifyBVN, identity.Tier3, nil, apperr.ProviderTierUnsupported},
		{"type unsupported, reserve uses embedded", byolT2(identity.FallbackWalletReserve), identity.VerifyLiveness, identity.Tier1, []identity.ProviderSource{emb}, ""},
		{"type unsupported, none refuses", byolT2(identity.FallbackNone), identity.VerifyCAC, "", nil, apperr.ProviderTierUnsupported},
		{"unset fallback refuses", byolT2(""), identity.VerifyBVN, identity.Tier3, nil, apperr.ProviderTierUnsupported},
		{"unset maxTier covers no tier", identity.ProviderConfig{Mode: byol, FallbackMode: identity.FallbackNone, SupportedVerifications: []identity.VerificationType{identity.VerifyBVN}}, identity.VerifyBVN, identity.Tier1, nil, apperr.ProviderTierUnsupported},
		{"unknown tier is not covered", byolT2(identity.FallbackWalletReserve), identity.VerifyBVN, "TIER_9", []identity.ProviderSource{emb}, ""},
		{"unknown verification", byolT2(identity.FallbackWalletReserve), "SELFIE", "", nil, apperr.Validation},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := identity.SelectSources(tc.cfg, tc.v, tc.tier)
			if tc.wantErr != "" {
				require.Equal(t, tc.wantErr, apperr.CodeOf(err))
				require.Nil(t, got)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestSelectSourcesTierUnsupportedData(t *testing.T) {
	t.Parallel()
	cfg := identity.NewProviderConfig(
		tenancy.Config{ProviderMode: "BYOL", KYCFallbackMode: identity.FallbackNone},
		&identity.BYOLConfig{MaxTier: identity.Tier1, SupportedVerifications: []identity.VerificationType{identity.VerifyNIN}},
	)
	_, err := identity.SelectSources(cfg, identity.VerifyNIN, identity.Tier2)
	e, ok := apperr.As(err)
	require.True(t, ok)
	require.Equal(t, apperr.ProviderTierUnsupported, e.Code)
	require.Equal(t, map[string]any{
		"verification": "NIN", "requestedTier": "TIER_2", "maxTier": "TIER_1", "supportedVerifications": []string{"NIN"},
	}, e.Data)
}

func TestProvidersChain(t *testing.T) {
	t.Parallel()
	emb := identity.NewSandbox(identity.DefaultRegistry(), nil)
	own := &identitytest.Provider{NameValue: "own"}
	cfg := identity.ProviderConfig{Mode: identity.SourceBYOL, FallbackMode: identity.FallbackWalletReserve, MaxTier: identity.Tier3,
		SupportedVerifications: []identity.VerificationType{identity.VerifyBVN}}

	c, err := identity.Providers{Embedded: emb, BYOL: own}.Chain(cfg, identity.VerifyBVN, identity.Tier1)
	require.NoError(t, err)
	require.Equal(t, []string{"own", "SANDBOX"}, names(c))

	c, err = identity.Providers{Embedded: emb}.Chain(cfg, identity.VerifyBVN, identity.Tier1)
	require.NoError(t, err)
	require.Equal(t, []string{"SANDBOX"}, names(c), "a missing BYOL provider is skipped")

	cfg.FallbackMode = identity.FallbackNone
	_, err = identity.Providers{Embedded: emb}.Chain(cfg, identity.VerifyBVN, identity.Tier1)
	require.Equal(t, apperr.ProviderUnavailable, apperr.CodeOf(err))
}

func names(c identity.Chain) []string {
	var out []string
	for _, p := range c.Providers {
		out = append(out, p.Name())
	}
	return out
}
