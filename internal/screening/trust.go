package screening

import (
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// KYC sources reported on the triggered rule (docs/reference/specification.md 2.4 kycSource).
const (
	SourceDatabase = "DATABASE"
	SourcePayload  = "PAYLOAD"
)

// StatusNone is the status of a party with no KYC or KYB at all.
const StatusNone = "NONE"

// StoredKYC is the service's own KYC record of the sender (the latest application).
type StoredKYC struct {
	Found       bool
	Status      string // KYC application status (docs/reference/specification.md 3.2)
	Tier        string
	ExternalRef string // the application id, reported as kycExternalRef
}

// StoredKYB is the service's own KYB record of the sending business.
type StoredKYB struct {
	Found  bool
	Status string // KYB application status (docs/reference/specification.md 3.3)
	// BeneficialOwners are the owners the application names; the sanctions engine screens
	// them as parties of the transaction (PartyBeneficialOwner).
	BeneficialOwners []KYBOwner
}

// KYBOwner is one beneficial owner of a KYB record: the name and the identifiers that key its
// reviewed false positives.
type KYBOwner struct {
	Name, BVN, NIN string
}

// NeedsStoredKYC reports whether resolving the sender's KYC under mode reads the store:
// always in STRICT, in HYBRID when the payload lacks the status or the tier, never in EXTERNAL.
func NeedsStoredKYC(mode string, tx *Transaction) bool {
	switch mode {
	case tenancy.TrustExternal:
		return false
	case tenancy.TrustHybrid:
		return tx.SenderKYCStatus == "" || tx.SenderKYCTier == ""
	}
	return true
}

// NeedsStoredKYB reports whether resolving the sender's KYB under mode reads the store: only for
// business transactions, in STRICT and HYBRID (in HYBRID the payload's senderKybStatus, when
// given, is still the status; the record is read for its beneficial owners, which no payload
// field carries), never in EXTERNAL.
func NeedsStoredKYB(mode string, tx *Transaction) bool {
	return tx.IsBusiness() && mode != tenancy.TrustExternal
}

// ResolveKYC applies the KYC trust mode (docs/reference/specification.md 4.3):
//   - STRICT (and any unknown mode, STRICT being the default): the stored record only; the
//     payload is ignored; no record is status NONE.
//   - HYBRID: the payload status when present (with the payload tier, else the stored tier),
//     otherwise the stored record.
//   - EXTERNAL: the payload only; senderKycStatus and senderKycTier are required
//     (VALIDATION_ERROR otherwise).
func ResolveKYC(mode string, tx *Transaction, stored StoredKYC) (KYC, error) {
	fromStore := func() KYC {
		if !stored.Found {
			return KYC{Status: StatusNone, Source: SourceDatabase}
		}
		return KYC{Status: stored.Status, Tier: stored.Tier, Source: SourceDatabase, ExternalRef: stored.ExternalRef, Found: true}
	}
	fromPayload := func() KYC {
		return KYC{Status: tx.SenderKYCStatus, Tier: tx.SenderKYCTier, Source: SourcePayload, ExternalRef: tx.SenderKYCExternalRef, Found: true}
	}
	switch mode {
	case tenancy.TrustExternal:
		switch {
		case tx.SenderKYCStatus == "":
			return KYC{}, apperr.Invalid("senderKycStatus", "is required in EXTERNAL trust mode")
		case tx.SenderKYCTier == "":
			return KYC{}, apperr.Invalid("senderKycTier", "is required in EXTERNAL trust mode")
		}
		return fromPayload(), nil
	case tenancy.TrustHybrid:
		if tx.SenderKYCStatus == "" {
			return fromStore(), nil
		}
		k := fromPayload()
		if k.Tier == "" && stored.Found {
			k.Tier = stored.Tier
		}
		return k, nil
	}
	return fromStore(), nil
}

// ResolveKYB applies the same trust mode to the sender's KYB on business transactions
// (docs/reference/specification.md 4.3 "Business transactions"); individuals get the zero KYB (not required).
// In EXTERNAL mode senderKybStatus is required. A missing stored record is status NONE, which
// scores high risk.
func ResolveKYB(mode string, tx *Transaction, stored StoredKYB) (KYB, error) {
	if !tx.IsBusiness() {
		return KYB{}, nil
	}
	fromStore := func() KYB {
		if !stored.Found {
			return KYB{Required: true, Status: StatusNone, Source: SourceDatabase}
		}
		return KYB{Required: true, Status: stored.Status, Source: SourceDatabase, Found: true, BeneficialOwners: stored.BeneficialOwners}
	}
	payload := KYB{Required: true, Status: tx.SenderKYBStatus, Source: SourcePayload, Found: true}
	if mode == tenancy.TrustHybrid {
		payload.BeneficialOwners = stored.BeneficialOwners
	}
	switch mode {
	case tenancy.TrustExternal:
		if tx.SenderKYBStatus == "" {
			return KYB{}, apperr.Invalid("senderKybStatus", "is required for business transactions in EXTERNAL trust mode")
		}
		return payload, nil
	case tenancy.TrustHybrid:
		if tx.SenderKYBStatus == "" {
			return fromStore(), nil
		}
		return payload, nil
	}
	return fromStore(), nil
}
