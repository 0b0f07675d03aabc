package kyc

import (
	"context"
	"net/mail"
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

// Deps are the service's collaborators; all are required but Images.
type Deps struct {
	Store Store
	// Deps are the shared ones (wallet, providers, matcher, blobs, clock, logger); the matcher
	// screens the applicant's name once a BVN or NIN has tied the application to a registry
	// identity (watchlist.go).
	application.Deps
	Biometrics *identity.Biometrics
	// Images bounds the memory of the selfie and document images being decoded at once
	// (nil: identity.DefaultDecodeBudget, waiting at most 2 s for room).
	Images *identity.DecodeBudget
}

// Service applies the KYC rules. The steps KYC shares with KYB (List, SetAssignee, the
// documents, Approve and Reject) are application.Core's, embedded.
type Service struct {
	Deps
	*application.Core[Application, *Application, Change]
}

// Kind is what the shared steps differ in for KYC: audit actions kyc.*, resource type
// kyc_application, approval notes "Approved" when none are given.
var Kind = application.Kind{Name: "kyc", Owner: document.OwnerKYC, Lifecycle: lifecycle, ApprovedNotes: "Approved"}

// NewService returns the service; it panics on a missing dependency.
func NewService(d Deps) *Service {
	if d.Store == nil || !d.Complete() || d.Biometrics == nil {
		panic("kyc: NewService needs every dependency")
	}
	if d.Images == nil {
		d.Images = identity.NewDecodeBudget(identity.DefaultDecodeBudget, 2*time.Second)
	}
	s := &Service{Deps: d}
	s.Core = application.New(Kind, d.Store, d.Blobs, d.Now, d.Logger, application.Hooks[Application, *Application, Change]{
		Wrap: change, Snapshot: snapshot, Uploaded: uploaded, Evidence: s.evidenceOf})
	return s
}

// evidenceOf is what an approval rests on: the evidence record and the open checks of the
// verification results (read before the application is locked).
func (s *Service) evidenceOf(ctx context.Context, tenantID tenancy.TenantID, id string) (evidence.Record, func(*Application) []evidence.Check, error) {
	det, err := s.Store.Detail(ctx, tenantID, id)
	return det.Evidence, func(a *Application) []evidence.Check { return a.OpenChecks(det.Results) }, err
}

// NewApplication is the create body (docs/reference/specification.md 4.4).
type NewApplication struct {
	EntityType, FirstName, LastName string
	BVN, NIN, Phone, Email, Address string
	DateOfBirth                     string
	Tier                            string
}

// Create submits an application: PENDING; the tier is the requested one (default TIER_1) and at
// least TIER_2 when both BVN and NIN are given. Errors: VALIDATION_ERROR.
func (s *Service) Create(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, n NewApplication) (Application, error) {
	now := s.Now()
	a := Application{Base: application.Base{ID: newID(IDPrefix), TenantID: string(tenantID), Status: StatusPending, CreatedBy: actor.ID,
		CreatedAt: now, UpdatedAt: now}, EntityType: n.EntityType,
		FirstName: strings.TrimSpace(n.FirstName), LastName: strings.TrimSpace(n.LastName), BVN: n.BVN, NIN: n.NIN,
		Phone: strings.TrimSpace(n.Phone), Email: strings.TrimSpace(n.Email), Address: strings.TrimSpace(n.Address),
		Tier: identity.Tier1}
	var bad []apperr.FieldError
	if a.EntityType != EntityIndividual && a.EntityType != EntityBusiness {
		bad = append(bad, apperr.FieldError{Field: "entityType", Message: "must be INDIVIDUAL or BUSINESS"})
	}
	if a.FirstName == "" {
		bad = append(bad, apperr.FieldError{Field: "firstName", Message: "is required"})
	}
	if a.LastName == "" {
		bad = append(bad, apperr.FieldError{Field: "lastName", Message: "is required"})
	}
	for _, f := range []struct{ name, v string }{{"bvn", a.BVN}, {"nin", a.NIN}} {
		if f.v != "" && !identity.IsElevenDigits(f.v) {
			bad = append(bad, apperr.FieldError{Field: f.name, Message: "must be exactly 11 digits"})
		}
	}
	if a.Email != "" && !validEmail(a.Email) {
		bad = append(bad, apperr.FieldError{Field: "email", Message: "must be an email address"})
	}
	if n.DateOfBirth != "" {
		d, ok := parseDOB(n.DateOfBirth, now)
		if !ok {
			bad = append(bad, apperr.FieldError{Field: "dateOfBirth", Message: "must be a valid past ISO 8601 date (YYYY-MM-DD)"})
		}
		a.DateOfBirth = d
	}
	if n.Tier != "" {
		if identity.TierRank(n.Tier) == 0 {
			bad = append(bad, apperr.FieldError{Field: "tier", Message: "must be TIER_1, TIER_2 or TIER_3"})
		}
		a.Tier = n.Tier
	}
	if len(bad) > 0 {
		return Application{}, apperr.InvalidFields(bad...)
	}
	a.upgradeTier()
	return s.Insert(ctx, tenantID, actor, a, snapshot(a))
}

// Get returns an application with its results and documents. Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (Detail, error) {
	d, err := s.Store.Detail(ctx, tenantID, id)
	if err != nil {
		return Detail{}, err
	}
	d.Evidence.Checks = d.OpenChecks(d.Results)
	return d, nil
}

// Patch is PATCH /kyc/applications/:id: nil leaves a field, "" clears it (spec 3.2).
type Patch struct {
	NIN, BVN, Email, Phone, DateOfBirth *string
}

// Update edits an application in PENDING, DOCUMENT_UPLOADED, NIN_VERIFIED or BVN_VERIFIED.
// Changing a verified BVN or NIN clears its verified flag (the status is never lowered). When
// both a BVN and a NIN become present the tier rises to TIER_2 (rule 4). Errors:
// VALIDATION_ERROR (not 11 digits, invalid date or email), NOT_FOUND, INVALID_STATUS_TRANSITION
// (409, not editable in this status).
func (s *Service) Update(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id string, p Patch) (Application, error) {
	now := s.Now()
	var bad []apperr.FieldError
	check := func(field string, v *string, ok func(string) bool, msg string) {
		if v != nil && *v != "" && !ok(*v) {
			bad = append(bad, apperr.FieldError{Field: field, Message: msg})
		}
	}
	check("nin", p.NIN, identity.IsElevenDigits, "must be exactly 11 digits, or empty to clear")
	check("bvn", p.BVN, identity.IsElevenDigits, "must be exactly 11 digits, or empty to clear")
	check("email", p.Email, validEmail, "must be an email address, or empty to clear")
	var dob *time.Time
	if p.DateOfBirth != nil && *p.DateOfBirth != "" {
		d, ok := parseDOB(*p.DateOfBirth, now)
		if !ok {
			bad = append(bad, apperr.FieldError{Field: "dateOfBirth", Message: "must be a valid past ISO 8601 date (YYYY-MM-DD), or empty to clear"})
		}
		dob = d
	}
	if len(bad) > 0 {
		return Application{}, apperr.InvalidFields(bad...)
	}
	return s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if !Editable(a.Status) {
			return Change{}, apperr.Newf(apperr.InvalidStatusTransition, "an application in status %s cannot be edited", a.Status).
				WithData(map[string]any{"from": a.Status, "to": a.Status, "allowed": []string{},
					"editableStatuses": []string{StatusPending, StatusDocumentUploaded, StatusNINVerified, StatusBVNVerified}})
		}
		prior := *a
		if p.NIN != nil && *p.NIN != a.NIN {
			a.NIN, a.NINVerified = *p.NIN, false
		}
		if p.BVN != nil && *p.BVN != a.BVN {
			a.BVN, a.BVNVerified = *p.BVN, false
		}
		if p.Email != nil {
			a.Email = strings.TrimSpace(*p.Email)
		}
		if p.Phone != nil {
			a.Phone = strings.TrimSpace(*p.Phone)
		}
		if p.DateOfBirth != nil {
			a.DateOfBirth = dob
		}
		a.upgradeTier()
		a.UpdatedAt = now
		return change(application.Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyc.updated", ResourceType: "kyc_application",
			ResourceID: a.ID, Before: snapshot(prior), After: afterWithChanges(prior, *a)}}), nil
	})
}

// Decision is approve's and reject's body.
type Decision = application.Decision

// UpgradeTier is the Tier 1 → Tier 2 path (spec 3.2, last row): an APPROVED TIER_1 application
// with a verified NIN gets the BVN now provided, goes back to NIN_VERIFIED (the verified NIN is
// kept) at TIER_2; then verify-bvn gives BVN_VERIFIED and an officer approves again. Errors:
// VALIDATION_ERROR, NOT_FOUND, INVALID_STATUS_TRANSITION (not APPROVED at TIER_1 with a
// verified NIN).
func (s *Service) UpgradeTier(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, id, bvn string) (Application, error) {
	if !identity.IsElevenDigits(bvn) {
		return Application{}, apperr.Invalid("bvn", "must be exactly 11 digits")
	}
	now := s.Now()
	return s.Store.Update(ctx, tenantID, id, func(a *Application) (Change, error) {
		if a.Status != StatusApproved || a.Tier != identity.Tier1 || !a.NINVerified {
			return Change{}, apperr.Newf(apperr.InvalidStatusTransition,
				"only an APPROVED TIER_1 application with a verified NIN can be upgraded to TIER_2 (this one is %s at %s)", a.Status, a.Tier).
				WithData(map[string]any{"from": a.Status, "to": StatusNINVerified, "allowed": []string{}})
		}
		prior := *a
		a.BVN, a.BVNVerified = bvn, false
		a.Status, a.Tier, a.UpdatedAt = StatusNINVerified, identity.Tier2, now
		a.RiskLevel, a.Notes = "", ""
		return change(application.Change{Audit: audit.Event{TenantID: tenantID, Actor: actor, Action: "kyc.tier_upgrade_started", ResourceType: "kyc_application",
			ResourceID: a.ID, Before: snapshot(prior), After: afterWithChanges(prior, *a)}}), nil
	})
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s
}

// parseDOB parses an ISO date that is not in the future and not before 1900.
func parseDOB(s string, now time.Time) (*time.Time, bool) {
	t, ok := identity.ParseDate(s)
	if !ok || t.After(now) || t.Year() < 1900 {
		return nil, false
	}
	return &t, true
}

// snapshot is the audited state of an application. The audit log is immutable and readable by
// AUDITOR, so personal data appears only masked (BVN, NIN and phone: the last four digits; email:
// its first character and domain) and the date of birth only as whether there is one (docs/guide/kyc.md,
// NDPA 2023). Which of them a change touched is named by changedFields.
func snapshot(a Application) map[string]any {
	m := map[string]any{"status": a.Status, "tier": a.Tier, "bvnVerified": a.BVNVerified, "ninVerified": a.NINVerified,
		"livenessPassed": a.LivenessPassed, "bvn": audit.MaskTail(a.BVN), "nin": audit.MaskTail(a.NIN),
		"email": audit.MaskEmail(a.Email), "phone": audit.MaskTail(a.Phone), "hasDateOfBirth": a.DateOfBirth != nil}
	if a.RiskLevel != "" {
		m["riskLevel"] = a.RiskLevel
	}
	if a.Notes != "" {
		m["notes"] = a.Notes
	}
	return m
}

// changedFields names the personal-data fields (by their API names) whose values differ between
// before and after, in a fixed order; the audit record carries these names, not the values.
func changedFields(before, after Application) []string {
	out := []string{}
	for _, f := range []struct {
		name string
		same bool
	}{
		{"bvn", before.BVN == after.BVN},
		{"nin", before.NIN == after.NIN},
		{"email", before.Email == after.Email},
		{"phone", before.Phone == after.Phone},
		{"dateOfBirth", sameDate(before.DateOfBirth, after.DateOfBirth)},
	} {
		if !f.same {
			out = append(out, f.name)
		}
	}
	return out
}

func sameDate(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// afterWithChanges is after's snapshot with changedFields (see changedFields).
func afterWithChanges(before, after Application) map[string]any {
	m := snapshot(after)
	m["changedFields"] = changedFields(before, after)
	return m
}
