package document

import "github.com/complyd/complyd/internal/apperr"

// DocumentType is what an uploaded document is (the API's documentType, spelled bare as the
// spec spells enum values; docs/design/architecture.md "Enum strings").
type DocumentType string

// The allowed document types. The spec names passport, driver's licence, voter's card and
// national ID as valid means of identification (docs/reference/specification.md 2.5); the KYB types are the
// Nigerian company-registration documents.
const (
	TypePassport        DocumentType = "PASSPORT"
	TypeDriversLicense  DocumentType = "DRIVERS_LICENSE"
	TypeVotersCard      DocumentType = "VOTERS_CARD"
	TypeNationalID      DocumentType = "NATIONAL_ID"
	TypeProofOfAddress  DocumentType = "PROOF_OF_ADDRESS"
	TypeUtilityBill     DocumentType = "UTILITY_BILL"
	TypeCACCertificate  DocumentType = "CAC_CERTIFICATE"
	TypeMEMART          DocumentType = "MEMART" // memorandum and articles of association
	TypeBoardResolution DocumentType = "BOARD_RESOLUTION"
	TypeOther           DocumentType = "OTHER"
)

// Types lists every allowed document type, in a stable order.
func Types() []DocumentType {
	return []DocumentType{
		TypePassport, TypeDriversLicense, TypeVotersCard, TypeNationalID,
		TypeProofOfAddress, TypeUtilityBill,
		TypeCACCertificate, TypeMEMART, TypeBoardResolution, TypeOther,
	}
}

// Valid reports whether t is one of Types.
func (t DocumentType) Valid() bool {
	for _, v := range Types() {
		if t == v {
			return true
		}
	}
	return false
}

// IsMeansOfIdentification reports whether t counts as a "valid means of identification" for
// KYC tiers 2 and 3 (docs/reference/specification.md 2.5, 3.2): PASSPORT, DRIVERS_LICENSE, VOTERS_CARD and
// NATIONAL_ID.
func (t DocumentType) IsMeansOfIdentification() bool {
	switch t {
	case TypePassport, TypeDriversLicense, TypeVotersCard, TypeNationalID:
		return true
	}
	return false
}

// IsProofOfAddress reports whether t counts as "proof of address" for KYC tier 3
// (docs/reference/specification.md 3.2): PROOF_OF_ADDRESS and UTILITY_BILL.
func (t DocumentType) IsProofOfAddress() bool {
	return t == TypeProofOfAddress || t == TypeUtilityBill
}

// ParseDocumentType returns s as a DocumentType, or VALIDATION_ERROR on field documentType.
func ParseDocumentType(s string) (DocumentType, error) {
	t := DocumentType(s)
	if !t.Valid() {
		return "", apperr.Invalid("documentType", "must be one of PASSPORT, DRIVERS_LICENSE, VOTERS_CARD, "+
			"NATIONAL_ID, PROOF_OF_ADDRESS, UTILITY_BILL, CAC_CERTIFICATE, MEMART, BOARD_RESOLUTION, OTHER")
	}
	return t, nil
}
