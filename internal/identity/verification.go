package identity

import "slices"

// VerificationType names one kind of identity verification; a provider chain exists per type
// (docs/design/design-choices.md §6).
type VerificationType string

// The verification types of docs/design/design-choices.md §6.
const (
	VerifyBVN       VerificationType = "BVN"
	VerifyNIN       VerificationType = "NIN"
	VerifyCAC       VerificationType = "CAC"
	VerifyLiveness  VerificationType = "LIVENESS"
	VerifyFaceMatch VerificationType = "FACE_MATCH"
)

// VerificationTypes lists every verification type in a stable order.
func VerificationTypes() []VerificationType {
	return []VerificationType{VerifyBVN, VerifyNIN, VerifyCAC, VerifyLiveness, VerifyFaceMatch}
}

// Valid reports whether v is one of the known verification types.
func (v VerificationType) Valid() bool { return slices.Contains(VerificationTypes(), v) }

// ProviderSource says which kind of provider gave an answer: the built-in one or the tenant's own
// (the verify-bvn response's providerSource, docs/reference/specification.md 4.4).
type ProviderSource string

// Provider sources (docs/reference/specification.md 2.2 "Provider mode values").
const (
	SourceEmbedded ProviderSource = "EMBEDDED"
	SourceBYOL     ProviderSource = "BYOL"
)

// KYC tiers (docs/reference/specification.md 2.5, 3.2).
const (
	Tier1 = "TIER_1"
	Tier2 = "TIER_2"
	Tier3 = "TIER_3"
)

// TierRank orders tiers: TIER_1 is 1, TIER_2 is 2, TIER_3 is 3 and anything else is 0.
func TierRank(tier string) int {
	switch tier {
	case Tier1:
		return 1
	case Tier2:
		return 2
	case Tier3:
		return 3
	}
	return 0
}

// Fallback modes of the tenant's BYOL configuration (docs/reference/specification.md 2.2, kycFallbackMode).
const (
	FallbackWalletReserve = "WALLET_RESERVE"
	FallbackNone          = "NONE"
)
