package identity

import (
	"encoding/json"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/wallet"
)

// CompanyLookup is a CAC lookup request.
type CompanyLookup struct {
	RCNumber string `json:"rcNumber"`
}

// Validate checks that the RC number is present (an optional "RC" prefix, then digits).
func (l CompanyLookup) Validate() error {
	n := NormalizeRC(l.RCNumber)
	if n == "" {
		return apperr.Invalid("rcNumber", "is required")
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return apperr.Invalid("rcNumber", "must be digits, optionally prefixed with RC")
		}
	}
	if len(n) > 10 {
		return apperr.Invalid("rcNumber", "must be at most 10 digits")
	}
	return nil
}

// NormalizeRC strips spaces and an "RC" prefix from an RC number ("RC 123456" → "123456"), so
// registries and providers compare RC numbers in one form.
func NormalizeRC(rc string) string {
	rc = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(rc), " ", ""))
	return strings.TrimPrefix(strings.TrimPrefix(rc, "RC"), "-")
}

// Director is a company director as the registry holds it.
type Director struct {
	Name            string `json:"name"`
	Nationality     string `json:"nationality"`
	AppointmentDate string `json:"appointmentDate"`
}

// BeneficialOwner is a person with significant control and their percentage.
type BeneficialOwner struct {
	Name       string  `json:"name"`
	Percentage float64 `json:"percentage"`
}

// Company is a registry company record (docs/reference/specification.md 4.5 verify-cac).
type Company struct {
	RCNumber         string            `json:"rcNumber"`
	CompanyName      string            `json:"companyName"`
	Address          string            `json:"address"`
	RegistrationDate string            `json:"registrationDate"`
	Status           string            `json:"status,omitempty"`
	Directors        []Director        `json:"directors"`
	BeneficialOwners []BeneficialOwner `json:"beneficialOwners"`
}

// CompanyResult is the answer to a CAC lookup; Company is nil when Found is false.
type CompanyResult struct {
	Found          bool            `json:"found"`
	Company        *Company        `json:"company,omitempty"`
	Provider       string          `json:"provider"`
	ProviderSource ProviderSource  `json:"providerSource"`
	Raw            json.RawMessage `json:"raw,omitempty"`
	// Charge is Waived when the answering provider does not bill it (Unbilled); never serialised.
	Charge wallet.Charge `json:"-"`
}
