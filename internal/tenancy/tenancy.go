// Package tenancy holds the tenant: its id, profile and configuration (trust mode, FX rates,
// limits, MFA policy). Every tenant-owned row carries a TenantID.
//
// tenancy is a leaf: it imports nothing from the project but apperr.
package tenancy

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/apperr"
)

// TenantID is a tenant's UUID in its canonical string form.
type TenantID string

// String returns the UUID text.
func (id TenantID) String() string { return string(id) }

// KYC trust modes (docs/reference/specification.md 4.3).
const (
	TrustStrict   = "STRICT"
	TrustHybrid   = "HYBRID"
	TrustExternal = "EXTERNAL"
)

// Tenant is one institution.
type Tenant struct {
	ID           TenantID
	Name         string
	Slug         string
	LogoURL      *string
	PrimaryColor string
	// TimeZone is the IANA zone the dashboard shows times in (DefaultTimeZone unless set).
	TimeZone    string
	MFARequired bool
	CreatedAt   time.Time
}

// Config is what screening and KYC read of a tenant on every call; it is cached per tenant.
type Config struct {
	TenantID        TenantID
	KYCTrustMode    string
	KYCFallbackMode string
	ProviderMode    string
	TierLimits      map[string]decimal.Decimal // TIER_1..TIER_3, NGN
	ExpiryDays      int
	FXRates         map[string]FXRate // by ISO 4217 code
	MFARequired     bool
	// SanctionsListsMissing is what screening does while no sanctions list is loaded:
	// ListsMissingSkip (the default) or ListsMissingBlock.
	SanctionsListsMissing string
}

// Policies for screening while no sanctions list is loaded (Config.SanctionsListsMissing).
const (
	ListsMissingSkip  = "SKIP"
	ListsMissingBlock = "BLOCK"
)

// FXRate is the NGN value of one unit of Currency.
type FXRate struct {
	Currency  string
	RateToNGN decimal.Decimal
	UpdatedAt time.Time
}

// ValidateTierLimits checks the rule every stored set of tier limits keeps: TIER_1 ≤ TIER_2 ≤
// TIER_3. The store applies it to the merged limits inside the transaction that writes them, so
// that two concurrent changes, each valid alone, cannot together break it.
// Errors: VALIDATION_ERROR on tierLimits.
func ValidateTierLimits(l map[string]decimal.Decimal) error {
	if l["TIER_1"].GreaterThan(l["TIER_2"]) || l["TIER_2"].GreaterThan(l["TIER_3"]) {
		return apperr.Invalid("tierLimits", "must satisfy TIER_1 ≤ TIER_2 ≤ TIER_3")
	}
	return nil
}

// DefaultTierLimits are docs/design/design-choices.md §7's single-transaction limits in NGN.
func DefaultTierLimits() map[string]decimal.Decimal {
	return map[string]decimal.Decimal{
		"TIER_1": decimal.NewFromInt(50_000),
		"TIER_2": decimal.NewFromInt(200_000),
		"TIER_3": decimal.NewFromInt(5_000_000),
	}
}
