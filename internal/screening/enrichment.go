package screening

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/tenancy"
)

// Enrichment is what the store computes before the engines run (pipeline step 2). It is a
// plain struct so tests and the store build it directly; engines only read it.
type Enrichment struct {
	Config  tenancy.Config // tier limits, FX rates, trust mode
	History History
	KYC     KYC // resolved by trust mode (ResolveKYC)
	KYB     KYB // resolved by trust mode (ResolveKYB); zero for individuals
	Profile Profile
	// Rules are the tenant's custom rules; the Custom Rules engine evaluates the enabled ones.
	Rules []rules.Rule
	// Shadows are the tenant's drafts running in shadow (docs/guide/rules.md "Shadow"): evaluated by
	// the Custom Rules engine beside Rules, never counted in the verdict.
	Shadows []ShadowRule
	// PEPHits are the sender's PEP matches found by the sanctions stage. The Pipeline sets them
	// on the copy it gives stage 2 (Regulatory Compliance, Custom Rules); callers leave them nil.
	PEPHits []NameHit
	// Countries are the tenant's jurisdiction lists from its settings (nil: the Decision
	// Engine's built-in ones).
	Countries *CountryRisk
	// Engines is the tenant's engine configuration (weights, disabled optional engines); nil:
	// the built-in one.
	Engines *EngineConfig

	// ngn is the transaction's NGN conversion, computed once per screening by the Pipeline
	// (decimal rounding is costly enough to matter on the screening path).
	ngn *ngnConversion
}

type ngnConversion struct {
	amount  decimal.Decimal
	fx      *FX
	missing bool
}

// AmountNGN returns tx's NGN-equivalent amount with the tenant's rates, as ConvertToNGN.
func (e *Enrichment) AmountNGN(tx *Transaction) (amountNGN decimal.Decimal, fx *FX, missing bool) {
	if e.ngn != nil {
		return e.ngn.amount, e.ngn.fx, e.ngn.missing
	}
	return ConvertToNGN(tx.Amount, tx.Currency, e.Config.FXRates)
}

// History is the sender account's recent activity, all of it before this transaction.
type History struct {
	Count24h  int             // transactions in the 24 hours before the timestamp
	Sum24hNGN decimal.Decimal // their NGN-equivalent sum (the store keeps each one's amountNgn)
	Count60m  int             // transactions in the 60 minutes before the timestamp
	// LastActivityAt is the account's latest earlier transaction; nil for a new account.
	LastActivityAt *time.Time
	Amounts        AmountStats
	// Version is the store's version of the account's history when these values were read
	// (the PostgreSQL store: a counter bumped by every stored transaction of the account). No
	// engine reads it; Store.Save stores the record only while it is unchanged.
	Version int64
}

// AmountStats summarise the account's own earlier NGN amounts (for example the last 90 days),
// the baseline of the Decision Engine's amount anomaly heuristic.
type AmountStats struct {
	Count  int
	Mean   decimal.Decimal
	StdDev decimal.Decimal
}

// KYC is the sender's KYC as resolved by the tenant's trust mode.
type KYC struct {
	Status      string // stored: APPROVED, LIVENESS_PASSED, PENDING, ...; asserted: VERIFIED, ...; NONE
	Tier        string // TIER_1..TIER_3, "" when unknown
	Source      string // SourceDatabase or SourcePayload
	ExternalRef string
	Found       bool // a stored record exists (DATABASE) or the payload asserted a status (PAYLOAD)
}

// KYB is the sending business's KYB as resolved by the tenant's trust mode.
type KYB struct {
	Required bool   // business transaction: the KYB check runs
	Status   string // stored: APPROVED, PENDING, CAC_VERIFIED, ...; asserted: VERIFIED, ...; NONE
	Source   string
	Found    bool
	// BeneficialOwners are the owners of the tenant's KYB record of the sender (StoredKYB), read
	// in STRICT and HYBRID; EXTERNAL reads no record, so none.
	BeneficialOwners []KYBOwner
}

// Profile is the sender account's behavioral profile, as of before this transaction.
type Profile struct {
	KnownDevices   []string
	LastDeviceID   string
	LastLatitude   *float64
	LastLongitude  *float64
	LastLocationAt *time.Time
	LastIPAddress  string
}
