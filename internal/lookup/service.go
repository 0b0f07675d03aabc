package lookup

import (
	"context"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// ProvidersFunc returns the tenant's providers and their selection (identity.ProvidersFunc).
type ProvidersFunc = identity.ProvidersFunc

// Deps are the service's collaborators; all are required.
type Deps struct {
	Store     Store
	Wallet    *wallet.Service
	Providers ProvidersFunc
	KYC       *kyc.Service
	KYB       *kyb.Service
	Now       func() time.Time
}

// Service runs lookups and manages profiles.
type Service struct{ Deps }

// NewService returns the service; it panics on a missing dependency.
func NewService(d Deps) *Service {
	if d.Store == nil || d.Wallet == nil || d.Providers == nil || d.KYC == nil || d.KYB == nil || d.Now == nil {
		panic("lookup: NewService needs every dependency")
	}
	return &Service{Deps: d}
}

// LookupBVN looks a BVN up: see lookupPerson.
func (s *Service) LookupBVN(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, bvn string) (Result, error) {
	return s.lookupPerson(ctx, tenantID, actor, TypeBVN, strings.TrimSpace(bvn))
}

// LookupNIN looks a NIN up: see lookupPerson.
func (s *Service) LookupNIN(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, nin string) (Result, error) {
	return s.lookupPerson(ctx, tenantID, actor, TypeNIN, strings.TrimSpace(nin))
}

// lookupPerson is a paid lookup by number (docs/guide/wallet.md): validate (400, free), select the
// chain (422), reserve (402 before any call), ask the chain outside any transaction (503 on an
// outage: released, not charged), then one transaction with the charge, the saved profile (when
// found), the history entry and the audit event. A not-found answer is charged and saved in the
// history without a profile.
func (s *Service) lookupPerson(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, typ, number string) (Result, error) {
	field, v := "bvn", identity.VerifyBVN
	if typ == TypeNIN {
		field, v = "nin", identity.VerifyNIN
	}
	if !identity.IsElevenDigits(number) {
		return Result{}, apperr.Invalid(field, "must be exactly 11 digits")
	}
	chain, err := s.chain(ctx, tenantID, v)
	if err != nil {
		return Result{}, err
	}
	return s.paid(ctx, tenantID, actor, typ, number, func(ctx context.Context) (answer, error) {
		var res identity.PersonResult
		var err error
		if typ == TypeBVN {
			res, err = chain.LookupBVN(ctx, number)
		} else {
			res, err = chain.LookupNIN(ctx, number)
		}
		if err != nil {
			return answer{}, err
		}
		a := answer{found: res.Found && res.Record != nil, provider: res.Provider, source: string(res.ProviderSource), charge: res.Charge}
		if a.found {
			rec := *res.Record
			rec.PhotoBase64 = "" // never stored (spec 4.4)
			p := &Profile{Type: ProfileIndividual, Person: &rec, Source: typ,
				DisplayName: strings.Join(strings.Fields(rec.FirstName+" "+rec.MiddleName+" "+rec.LastName), " ")}
			if typ == TypeBVN {
				p.BVN = number
			} else {
				p.NIN = number
			}
			a.profile = p
		}
		return a, nil
	})
}

// LookupCAC looks a company up by RC number, like lookupPerson; a found company is saved as a
// business profile with its directors, shareholders and beneficial owners.
func (s *Service) LookupCAC(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, rc string) (Result, error) {
	rc = strings.TrimSpace(rc)
	if err := (identity.CompanyLookup{RCNumber: rc}).Validate(); err != nil {
		return Result{}, err
	}
	chain, err := s.chain(ctx, tenantID, identity.VerifyCAC)
	if err != nil {
		return Result{}, err
	}
	return s.paid(ctx, tenantID, actor, TypeCAC, rc, func(ctx context.Context) (answer, error) {
		res, err := chain.LookupCAC(ctx, identity.CompanyLookup{RCNumber: rc})
		if err != nil {
			return answer{}, err
		}
		a := answer{found: res.Found && res.Company != nil, provider: res.Provider, source: string(res.ProviderSource), charge: res.Charge}
		if a.found {
			c := *res.Company
			p := &Profile{Type: ProfileBusiness, Company: &c, Source: TypeCAC, DisplayName: c.CompanyName, RCNumber: c.RCNumber}
			if p.RCNumber == "" {
				p.RCNumber = rc
			}
			for _, o := range c.BeneficialOwners {
				p.Shareholders = append(p.Shareholders, Shareholder(o))
			}
			a.profile = p
		}
		return a, nil
	})
}

type answer struct {
	found            bool
	provider, source string
	profile          *Profile
	charge           wallet.Charge
}

func (s *Service) paid(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, typ, query string,
	call func(context.Context) (answer, error)) (Result, error) {
	var out Result
	paidCall := func(ctx context.Context) (answer, wallet.Charge, error) {
		a, err := call(ctx)
		return a, a.charge, err
	}
	_, err := wallet.Paid(ctx, s.Wallet, tenantID, "lookup "+typ, paidCall, func(ctx context.Context, h wallet.Hold, a answer) error {
		now := s.Now()
		l := Lookup{ID: newID(LookupIDPrefix), TenantID: string(tenantID), Type: typ, Query: query, Found: a.found,
			Provider: a.provider, ProviderSource: a.source, Charged: h.Amount, ActorID: actor.ID, CreatedAt: now}
		if a.profile != nil {
			a.profile.ID, a.profile.TenantID = newID(ProfileIDPrefix), string(tenantID)
			a.profile.LastLookupAt, a.profile.CreatedAt, a.profile.UpdatedAt, a.profile.LookupCount = now, now, now, 1
		}
		ev := audit.Event{TenantID: tenantID, Actor: actor, Action: "lookup." + strings.ToLower(typ), ResourceType: "lookup",
			ResourceID: l.ID, After: map[string]any{"query": maskQuery(typ, query), "found": a.found, "provider": a.provider,
				"charged": h.Amount.StringFixed(2)}}
		pid, bal, err := s.Store.Save(ctx, l, a.profile, h, ev)
		if err != nil {
			return err
		}
		l.ProfileID = pid
		out = Result{Lookup: l, Balance: bal}
		if a.profile != nil {
			a.profile.ID = pid
			out.Data = a.profile.Data()
		}
		return nil
	})
	return out, err
}

// maskQuery keeps BVNs and NINs out of the audit log in clear (the last four digits identify
// the lookup for an auditor; the history keeps the full number for the tenant's own use).
func maskQuery(typ, q string) string {
	if typ == TypeCAC || len(q) < 4 {
		return q
	}
	return strings.Repeat("*", len(q)-4) + q[len(q)-4:]
}

func (s *Service) chain(ctx context.Context, tenantID tenancy.TenantID, v identity.VerificationType) (identity.Chain, error) {
	ps, cfg, err := s.Providers(ctx, tenantID)
	if err != nil {
		return identity.Chain{}, err
	}
	return ps.Chain(cfg, v, "")
}

// History pages the tenant's lookups, newest first. Errors: VALIDATION_ERROR (type).
func (s *Service) History(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[Lookup], error) {
	if f.Type != "" && f.Type != TypeBVN && f.Type != TypeNIN && f.Type != TypeCAC {
		return paging.Result[Lookup]{}, apperr.Invalid("type", "must be BVN, NIN or CAC")
	}
	return s.Store.Lookups(ctx, tenantID, f, p)
}

// Profiles pages saved profiles. Errors: VALIDATION_ERROR (type).
func (s *Service) Profiles(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[Profile], error) {
	if f.Type != "" && f.Type != ProfileIndividual && f.Type != ProfileBusiness {
		return paging.Result[Profile]{}, apperr.Invalid("type", "must be INDIVIDUAL or BUSINESS")
	}
	return s.Store.Profiles(ctx, tenantID, f, p)
}

// Profile returns one saved profile. Errors: NOT_FOUND.
func (s *Service) Profile(ctx context.Context, tenantID tenancy.TenantID, id string) (Profile, error) {
	return s.Store.Profile(ctx, tenantID, id)
}

// KYCFromProfile are the fields a KYC application needs that an individual profile lacks.
type KYCFromProfile struct {
	Email, Phone, Address, Tier string
}

// CreateKYCApplication creates a KYC application from an individual profile: names, date of
// birth, phone and the looked-up BVN or NIN are taken from the profile (the body may add email,
// address and tier, and override the phone). The usual KYC rules apply (PENDING, tier rule 4);
// the number still has to be verified (verify-bvn/nin), because a lookup proves the number
// exists, not that the applicant is its holder. Errors: NOT_FOUND, CONFLICT (a business
// profile), VALIDATION_ERROR.
func (s *Service) CreateKYCApplication(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, in KYCFromProfile) (kyc.Application, error) {
	p, err := s.Store.Profile(ctx, tenantID, id)
	if err != nil {
		return kyc.Application{}, err
	}
	if p.Type != ProfileIndividual || p.Person == nil {
		return kyc.Application{}, apperr.Newf(apperr.Conflict, "profile %s is a %s profile; create a KYB application from it instead", id, p.Type)
	}
	phone := p.Person.Phone
	if in.Phone != "" {
		phone = in.Phone
	}
	return s.KYC.Create(ctx, tenantID, actor, kyc.NewApplication{EntityType: kyc.EntityIndividual, FirstName: p.Person.FirstName,
		LastName: p.Person.LastName, BVN: p.BVN, NIN: p.NIN, Phone: phone, Email: in.Email, Address: in.Address,
		DateOfBirth: p.Person.DateOfBirth, Tier: in.Tier})
}

// KYBFromProfile are the fields a KYB application needs that a business profile lacks.
type KYBFromProfile struct {
	TIN, BusinessActivity, OperatingCountry string
}

// CreateKYBApplication creates a KYB application from a business profile: company name, RC
// number, address, registration date (as incorporationDate), directors and beneficial owners are
// taken from the profile; the application records the profile id. It starts PENDING: the
// registry data is a claim until verify-cac/run-screening confirm it. Errors: NOT_FOUND,
// CONFLICT (an individual profile), VALIDATION_ERROR.
func (s *Service) CreateKYBApplication(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, in KYBFromProfile) (kyb.Application, error) {
	p, err := s.Store.Profile(ctx, tenantID, id)
	if err != nil {
		return kyb.Application{}, err
	}
	if p.Type != ProfileBusiness || p.Company == nil {
		return kyb.Application{}, apperr.Newf(apperr.Conflict, "profile %s is a %s profile; create a KYC application from it instead", id, p.Type)
	}
	c := p.Company
	n := kyb.NewApplication{CompanyName: c.CompanyName, RCNumber: p.RCNumber, Address: c.Address, IncorporationDate: c.RegistrationDate,
		TIN: in.TIN, BusinessActivity: in.BusinessActivity, OperatingCountry: in.OperatingCountry, ProfileID: p.ID}
	for _, d := range c.Directors {
		n.Directors = append(n.Directors, kyb.Director{Name: d.Name, Nationality: d.Nationality})
	}
	for _, o := range c.BeneficialOwners {
		n.Owners = append(n.Owners, kyb.Owner{Name: o.Name, Percentage: o.Percentage})
	}
	return s.KYB.Create(ctx, tenantID, actor, n)
}
