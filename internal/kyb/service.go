package kyb

import (
	"context"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/tenancy"
)

// Deps are the service's collaborators; all are required.
type Deps struct {
	Store Store
	// Deps are the shared ones (wallet, providers, matcher, blobs, clock, logger); the matcher
	// screens directors and beneficial owners.
	application.Deps
}

// Service applies the KYB rules. The steps KYB shares with KYC (List, SetAssignee, the
// documents, Approve and Reject) are application.Core's, embedded.
type Service struct {
	Deps
	*application.Core[Application, *Application, Change]
}

// Kind is what the shared steps differ in for KYB: audit actions kyb.*, resource type
// kyb_application, an approval without notes keeps the application's notes.
var Kind = application.Kind{Name: "kyb", Owner: document.OwnerKYB, Lifecycle: lifecycle}

// NewService returns the service; it panics on a missing dependency.
func NewService(d Deps) *Service {
	if d.Store == nil || !d.Complete() {
		panic("kyb: NewService needs every dependency")
	}
	s := &Service{Deps: d}
	s.Core = application.New(Kind, d.Store, d.Blobs, d.Now, d.Logger, application.Hooks[Application, *Application, Change]{
		Wrap: change, Snapshot: snapshot, Evidence: s.evidenceOf})
	return s
}

// evidenceOf is what an approval rests on: the evidence record and the open checks of the
// checks trail (read before the application is locked).
func (s *Service) evidenceOf(ctx context.Context, tenantID tenancy.TenantID, id string) (evidence.Record, func(*Application) []evidence.Check, error) {
	det, err := s.Store.Detail(ctx, tenantID, id)
	return det.Evidence, func(a *Application) []evidence.Check { return a.OpenChecks(det.Checks) }, err
}

// NewApplication is the create body (docs/reference/specification.md 4.5) and, from a saved business profile,
// what the profile pre-fills (ProfileID names it).
type NewApplication struct {
	CompanyName, RCNumber, TIN, Address string
	IncorporationDate                   string
	BusinessActivity, OperatingCountry  string
	Directors                           []Director
	Owners                              []Owner
	ProfileID                           string
}

// Create submits an application: PENDING. Errors: VALIDATION_ERROR.
func (s *Service) Create(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, n NewApplication) (Application, error) {
	now := s.Now()
	a := Application{Base: application.Base{ID: newID(IDPrefix), TenantID: string(tenantID), Status: StatusPending, CreatedBy: actor.ID,
		CreatedAt: now, UpdatedAt: now}, CompanyName: strings.TrimSpace(n.CompanyName),
		RCNumber: strings.TrimSpace(n.RCNumber), TIN: strings.TrimSpace(n.TIN), Address: strings.TrimSpace(n.Address),
		BusinessActivity: strings.TrimSpace(n.BusinessActivity), OperatingCountry: strings.TrimSpace(n.OperatingCountry),
		ProfileID: n.ProfileID}
	var bad []apperr.FieldError
	if a.CompanyName == "" {
		bad = append(bad, apperr.FieldError{Field: "companyName", Message: "is required"})
	}
	bad = append(bad, validateRC(a.RCNumber)...)
	if n.IncorporationDate != "" {
		d, ok := parseDate(n.IncorporationDate, now)
		if !ok {
			bad = append(bad, apperr.FieldError{Field: "incorporationDate", Message: "must be a valid past ISO 8601 date (YYYY-MM-DD)"})
		}
		a.IncorporationDate = d
	}
	var dbad []apperr.FieldError
	a.Directors, dbad = cleanDirectors(n.Directors)
	bad = append(bad, dbad...)
	a.Owners, dbad = cleanOwners(n.Owners)
	bad = append(bad, dbad...)
	if len(bad) > 0 {
		return Application{}, apperr.InvalidFields(bad...)
	}
	after := snapshot(a)
	if a.ProfileID != "" {
		after["profileId"] = a.ProfileID
	}
	return s.Insert(ctx, tenantID, actor, a, after)
}

// Get returns an application with its checks and documents. Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (Detail, error) {
	d, err := s.Store.Detail(ctx, tenantID, id)
	if err != nil {
		return Detail{}, err
	}
	d.Evidence.Checks = d.OpenChecks(d.Checks)
	return d, nil
}

// Patch is PATCH /kyc/kyb/applications/:id: nil leaves a field; a non-nil slice replaces the
// list; "" clears an optional text field.
type Patch struct {
	CompanyName, RCNumber, TIN, Address, IncorporationDate *string
	BusinessActivity, OperatingCountry, Notes              *string
	Directors                                              *[]Director
	Owners                                                 *[]Owner
}

// Update edits a non-terminal application (our rule: decisions are final). Editing the RC
// number clears the CAC fact, replacing directors clears the directors fact and replacing owners
// clears the owners fact; the status is never lowered (the officer sees the facts). Errors:
// VALIDATION_ERROR, NOT_FOUND, INVALID_STATUS_TRANSITION (terminal).
func (s *Service) Update(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, p Patch) (Application, error) {
	now := s.Now()
	var bad []apperr.FieldError
	if p.CompanyName != nil && strings.TrimSpace(*p.CompanyName) == "" {
		bad = append(bad, apperr.FieldError{Field: "companyName", Message: "cannot be empty"})
	}
	if p.RCNumber != nil {
		bad = append(bad, validateRC(strings.TrimSpace(*p.RCNumber))...)
	}
	var inc *time.Time
	if p.IncorporationDate != nil && *p.IncorporationDate != "" {
		d, ok := parseDate(*p.IncorporationDate, now)
		if !ok {
			bad = append(bad, apperr.FieldError{Field: "incorporationDate", Message: "must be a valid past ISO 8601 date (YYYY-MM-DD), or empty to clear"})
		}
		inc = d
	}
	var dirs []Director
	var owners []Owner
	if p.Directors != nil {
		var dbad []apperr.FieldError
		dirs, dbad = cleanDirectors(*p.Directors)
		bad = append(bad, dbad...)
	}
	if p.Owners != nil {
		var obad []apperr.FieldError
		owners, obad = cleanOwners(*p.Owners)
		bad = append(bad, obad...)
	}
	if len(bad) > 0 {
		return Application{}, apperr.InvalidFields(bad...)
	}
	return s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if IsTerminal(a.Status) {
			return Change{}, apperr.Newf(apperr.InvalidStatusTransition, "an application in status %s cannot be edited", a.Status).
				WithData(map[string]any{"from": a.Status, "to": a.Status, "allowed": []string{}})
		}
		before := snapshot(*a)
		set := func(dst *string, v *string) {
			if v != nil {
				*dst = strings.TrimSpace(*v)
			}
		}
		set(&a.CompanyName, p.CompanyName)
		if p.RCNumber != nil && identity.NormalizeRC(*p.RCNumber) != identity.NormalizeRC(a.RCNumber) {
			a.RCNumber, a.CACVerified, a.Company = strings.TrimSpace(*p.RCNumber), false, nil
		}
		set(&a.TIN, p.TIN)
		set(&a.Address, p.Address)
		set(&a.BusinessActivity, p.BusinessActivity)
		set(&a.OperatingCountry, p.OperatingCountry)
		set(&a.Notes, p.Notes)
		if p.IncorporationDate != nil {
			a.IncorporationDate = inc
		}
		if p.Directors != nil {
			a.Directors, a.DirectorsVerified = dirs, false
		}
		if p.Owners != nil {
			a.Owners, a.OwnersClean = owners, false
		}
		a.UpdatedAt = now
		return change(application.Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyb.updated", ResourceType: "kyb_application",
			ResourceID: a.ID, Before: before, After: snapshot(*a)}}), nil
	})
}

// Decision is approve's and reject's body.
type Decision = application.Decision

// checkOpen refuses steps on a terminal application (409, before anything is charged).
func checkOpen(a Application, to string) error { return lifecycle.CheckOpen(a.Base, to) }

func validateRC(rc string) []apperr.FieldError {
	if rc == "" {
		return nil
	}
	if err := (identity.CompanyLookup{RCNumber: rc}).Validate(); err != nil {
		return []apperr.FieldError{{Field: "rcNumber", Message: "must be digits, optionally prefixed with RC (at most 10 digits)"}}
	}
	return nil
}

func cleanDirectors(in []Director) ([]Director, []apperr.FieldError) {
	out := make([]Director, 0, len(in))
	var bad []apperr.FieldError
	for i, d := range in {
		d = Director{Name: strings.TrimSpace(d.Name), BVN: strings.TrimSpace(d.BVN), NIN: strings.TrimSpace(d.NIN),
			Email: strings.TrimSpace(d.Email), Phone: strings.TrimSpace(d.Phone), Nationality: strings.TrimSpace(d.Nationality)}
		f := func(name string) string { return "directors[" + strconv.Itoa(i) + "]." + name }
		if d.Name == "" {
			bad = append(bad, apperr.FieldError{Field: f("name"), Message: "is required"})
		}
		if d.BVN != "" && !identity.IsElevenDigits(d.BVN) {
			bad = append(bad, apperr.FieldError{Field: f("bvn"), Message: "must be exactly 11 digits"})
		}
		if d.NIN != "" && !identity.IsElevenDigits(d.NIN) {
			bad = append(bad, apperr.FieldError{Field: f("nin"), Message: "must be exactly 11 digits"})
		}
		if d.Email != "" {
			if m, err := mail.ParseAddress(d.Email); err != nil || m.Address != d.Email {
				bad = append(bad, apperr.FieldError{Field: f("email"), Message: "must be an email address"})
			}
		}
		out = append(out, d)
	}
	return out, bad
}

func cleanOwners(in []Owner) ([]Owner, []apperr.FieldError) {
	out := make([]Owner, 0, len(in))
	var bad []apperr.FieldError
	total := 0.0
	for i, o := range in {
		o = Owner{Name: strings.TrimSpace(o.Name), Percentage: o.Percentage, BVN: strings.TrimSpace(o.BVN), NIN: strings.TrimSpace(o.NIN)}
		f := func(name string) string { return "beneficialOwners[" + strconv.Itoa(i) + "]." + name }
		if o.Name == "" {
			bad = append(bad, apperr.FieldError{Field: f("name"), Message: "is required"})
		}
		// Written as what is allowed, so that NaN (for which every comparison is false) is
		// refused too rather than stored (issue 48 point 7b's defect in another double).
		if !(o.Percentage > 0 && o.Percentage <= 100) {
			bad = append(bad, apperr.FieldError{Field: f("percentage"), Message: "must be greater than 0 and at most 100"})
		}
		if o.BVN != "" && !identity.IsElevenDigits(o.BVN) {
			bad = append(bad, apperr.FieldError{Field: f("bvn"), Message: "must be exactly 11 digits"})
		}
		if o.NIN != "" && !identity.IsElevenDigits(o.NIN) {
			bad = append(bad, apperr.FieldError{Field: f("nin"), Message: "must be exactly 11 digits"})
		}
		total += o.Percentage
		out = append(out, o)
	}
	if total > 100.0001 {
		bad = append(bad, apperr.FieldError{Field: "beneficialOwners", Message: "percentages add up to more than 100"})
	}
	return out, bad
}

// parseDate parses an ISO date that is not in the future and not before 1800.
func parseDate(s string, now time.Time) (*time.Time, bool) {
	t, ok := identity.ParseDate(s)
	if !ok || t.After(now) || t.Year() < 1800 {
		return nil, false
	}
	return &t, true
}
