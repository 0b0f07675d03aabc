// Package lookup owns direct identity lookups (docs/reference/specification.md 4.6, docs/design/design-choices.md §6): BVN, NIN
// and CAC lookups through the identity provider chain, charged from the wallet on a found or
// not-found answer (never on an outage), the lookup history, and the reusable customer profiles
// the answers are saved as, from which KYC and KYB applications can be created without retyping.
//
// lookup is core: it imports identity, wallet, kyc, kyb, audit, apperr, paging and tenancy; never
// pgx, river, connect, net/http or an adapter.
package lookup

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// Lookup types.
const (
	TypeBVN = "BVN"
	TypeNIN = "NIN"
	TypeCAC = "CAC"
)

// Profile types.
const (
	ProfileIndividual = "INDIVIDUAL"
	ProfileBusiness   = "BUSINESS"
)

// Id prefixes and page sizes.
const (
	ProfileIDPrefix = "cus_"
	LookupIDPrefix  = "lkp_"
	PageDefault     = 20
	PageMax         = 100
)

// Shareholder is a holder of shares in a business profile. The registries we read (the sandbox,
// and BYOL vendors through responseFields) return beneficial owners with their percentage and
// no separate share register, so shareholders are the beneficial owners with their stakes
// (docs/guide/lookups.md).
type Shareholder struct {
	Name       string  `json:"name"`
	Percentage float64 `json:"percentage"`
}

// Profile is a saved customer profile: an individual (from a BVN or NIN lookup) or a business
// (from a CAC lookup). One profile per looked-up identifier; a repeated lookup refreshes it.
type Profile struct {
	ID           string
	TenantID     string
	Type         string
	DisplayName  string
	BVN          string
	NIN          string
	RCNumber     string
	Person       *identity.PersonRecord
	Company      *identity.Company
	Shareholders []Shareholder
	Source       string // the lookup type that saved it: BVN, NIN or CAC
	LookupCount  int
	LastLookupAt time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Key is the profile's identity within the tenant ("BVN:<n>", "NIN:<n>", "CAC:<rc>").
func (p Profile) Key() string {
	switch p.Source {
	case TypeBVN:
		return "BVN:" + p.BVN
	case TypeNIN:
		return "NIN:" + p.NIN
	}
	return "CAC:" + identity.NormalizeRC(p.RCNumber)
}

// Data is the profile's record as the API shows it (lookup `data` and the profile's `data`).
func (p Profile) Data() map[string]any {
	if p.Company != nil {
		c := p.Company
		return map[string]any{"rcNumber": c.RCNumber, "companyName": c.CompanyName, "address": c.Address,
			"registrationDate": c.RegistrationDate, "status": c.Status, "directors": orEmpty(c.Directors),
			"shareholders": orEmpty(p.Shareholders), "beneficialOwners": orEmpty(c.BeneficialOwners)}
	}
	if p.Person == nil {
		return nil
	}
	r := p.Person
	m := map[string]any{"firstName": r.FirstName, "middleName": r.MiddleName, "lastName": r.LastName, "dateOfBirth": r.DateOfBirth,
		"phone": r.Phone, "gender": r.Gender, "photoPresent": r.HasPhoto}
	if p.BVN != "" {
		m["bvn"] = p.BVN
	}
	if p.NIN != "" {
		m["nin"] = p.NIN
	}
	return m
}

func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// Lookup is one entry of the lookup history: every charged lookup, found or not.
type Lookup struct {
	ID             string
	TenantID       string
	Type           string
	Query          string
	Found          bool
	ProfileID      string
	Provider       string
	ProviderSource string
	Charged        decimal.Decimal
	ActorID        string
	CreatedAt      time.Time
}

// Result is the answer of a lookup (docs/design/design-choices.md §6): {found, data, profileId, charged, balance}.
type Result struct {
	Lookup
	Data    map[string]any
	Balance decimal.Decimal
}

// ListParams filter the lookup history and the profile list.
type ListParams struct {
	Type string
}

// Store is the persistence port (internal/postgres.LookupStore). Every method is one
// transaction scoped to the tenant.
type Store interface {
	// Save stores a charged lookup in one transaction: the hold is settled (the charge booked),
	// the profile (when the answer found someone) inserted or refreshed, the history entry
	// appended and the audit event written. It returns the profile id ("" when not found) and the
	// balance after the charge. Errors: INSUFFICIENT_FUNDS from settling.
	Save(ctx context.Context, l Lookup, p *Profile, h wallet.Hold, ev audit.Event) (profileID string, balance decimal.Decimal, err error)
	// Lookups pages the history, newest first.
	Lookups(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[Lookup], error)
	// Profiles pages saved profiles, most recently refreshed first.
	Profiles(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[Profile], error)
	// Profile returns one profile. Errors: NOT_FOUND.
	Profile(ctx context.Context, tenantID tenancy.TenantID, id string) (Profile, error)
}

func newID(prefix string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
