package screening

import (
	"context"
	"fmt"
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
	// PEPHits are the sender's PEP matches found by the sanctions stage. The Pipeline sets them
	// on the copy it gives stage 2 (Regulatory Compliance, Custom Rules); callers leave them nil.
	PEPHits []NameHit

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

// EnrichmentStore is the port the enrichment step reads (implemented by internal/postgres).
// Every method is tenant-scoped and returns INTERNAL-class errors only: absence is a zero
// value (Found false, empty history), never NOT_FOUND.
type EnrichmentStore interface {
	// AccountHistory returns the sender account's activity before at.
	AccountHistory(ctx context.Context, tenantID tenancy.TenantID, accountNumber string, at time.Time) (History, error)
	// StoredKYC returns the sender's KYC record, looked up by BVN (applications carry no
	// account number: without a BVN nothing is found).
	StoredKYC(ctx context.Context, tenantID tenancy.TenantID, bvn, accountNumber string) (StoredKYC, error)
	// StoredKYB returns the KYB record of the company with registration number rcNumber.
	StoredKYB(ctx context.Context, tenantID tenancy.TenantID, rcNumber string) (StoredKYB, error)
	// BehaviorProfile returns the sender account's behavioral profile.
	BehaviorProfile(ctx context.Context, tenantID tenancy.TenantID, accountNumber string) (Profile, error)
	// CustomRules returns the tenant's custom rules (enabled or not).
	CustomRules(ctx context.Context, tenantID tenancy.TenantID) ([]rules.Rule, error)
}

// Enrich runs pipeline step 2 for a normalised, validated tx: it reads the store and resolves
// KYC and KYB by cfg.KYCTrustMode, skipping the lookups the trust mode does not need.
func Enrich(ctx context.Context, store EnrichmentStore, cfg tenancy.Config, tx *Transaction) (*Enrichment, error) {
	e := &Enrichment{Config: cfg}
	var err error
	if e.History, err = store.AccountHistory(ctx, tx.TenantID, tx.SenderAccountNumber, tx.Timestamp); err != nil {
		return nil, fmt.Errorf("account history: %w", err)
	}
	var kyc StoredKYC
	if NeedsStoredKYC(cfg.KYCTrustMode, tx) {
		if kyc, err = store.StoredKYC(ctx, tx.TenantID, tx.SenderBVN, tx.SenderAccountNumber); err != nil {
			return nil, fmt.Errorf("stored kyc: %w", err)
		}
	}
	if e.KYC, err = ResolveKYC(cfg.KYCTrustMode, tx, kyc); err != nil {
		return nil, err
	}
	var kyb StoredKYB
	if NeedsStoredKYB(cfg.KYCTrustMode, tx) {
		if kyb, err = store.StoredKYB(ctx, tx.TenantID, tx.SenderRCNumber); err != nil {
			return nil, fmt.Errorf("stored kyb: %w", err)
		}
	}
	if e.KYB, err = ResolveKYB(cfg.KYCTrustMode, tx, kyb); err != nil {
		return nil, err
	}
	if e.Profile, err = store.BehaviorProfile(ctx, tx.TenantID, tx.SenderAccountNumber); err != nil {
		return nil, fmt.Errorf("behavior profile: %w", err)
	}
	if e.Rules, err = store.CustomRules(ctx, tx.TenantID); err != nil {
		return nil, fmt.Errorf("custom rules: %w", err)
	}
	return e, nil
}
