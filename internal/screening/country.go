package screening

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/tenancy"
)

// Country risk levels (docs/guide/countries.md). NONE exists only as a tenant override: it takes a
// country off the tenant's lists.
const (
	CountryCallForAction = "CALL_FOR_ACTION" // FATF "black list": HEUR-JURISDICTION 90, BLOCK
	CountryMonitored     = "MONITORED"       // FATF "grey list": HEUR-JURISDICTION 50, REVIEW
	CountryNone          = "NONE"
)

// CountryRisk is a tenant's effective jurisdiction lists as the Decision Engine reads them: the
// global default with the tenant's overrides applied. It is built once per settings load and
// only read afterwards, so screenings share it without locking.
type CountryRisk struct {
	CallForAction map[string]bool
	Monitored     map[string]bool
}

// NewCountryRisk builds the lists from effective (country, level) pairs; NONE is skipped.
func NewCountryRisk(levels map[string]string) *CountryRisk {
	cr := &CountryRisk{CallForAction: map[string]bool{}, Monitored: map[string]bool{}}
	for c, l := range levels {
		switch l {
		case CountryCallForAction:
			cr.CallForAction[c] = true
		case CountryMonitored:
			cr.Monitored[c] = true
		}
	}
	return cr
}

// Country is one country's effective risk for a tenant (GET /countries).
type Country struct {
	Country string
	// Level is the effective level: CALL_FOR_ACTION, MONITORED or NONE (overridden off).
	Level string
	// Default is the global default's level ("" when the country is not on it), with its
	// source and publication date.
	Default       string
	DefaultSource string
	PublishedOn   *time.Time
	// Override is the tenant's level ("" when none), with its reason, author and time.
	Override  string
	Reason    string
	UpdatedBy string
	UpdatedAt *time.Time
}

// CountryStore persists the lists (internal/postgres.CountryStore).
type CountryStore interface {
	// Countries lists every country on the default or overridden by the tenant, by code.
	Countries(ctx context.Context, tenantID tenancy.TenantID) ([]Country, error)
	// SetOverride upserts the tenant's override, audits it (before and after) and announces the
	// change to every replica's settings cache, in one transaction; it returns the country.
	SetOverride(ctx context.Context, tenantID tenancy.TenantID, country, level, reason string, actor audit.Actor) (Country, error)
	// DeleteOverride removes the override (audited, announced). Errors: NOT_FOUND when none.
	DeleteOverride(ctx context.Context, tenantID tenancy.TenantID, country string, actor audit.Actor) (Country, error)
}

// CountryService manages a tenant's jurisdiction lists.
type CountryService struct {
	store CountryStore
	// invalidate drops the tenant's cached Settings in this process once a change has
	// committed, so its next screening here uses it; the store's NOTIFY reaches the others.
	invalidate func(tenancy.TenantID)
}

// NewCountryService returns the service.
func NewCountryService(store CountryStore, invalidate func(tenancy.TenantID)) *CountryService {
	if store == nil || invalidate == nil {
		panic("screening: NewCountryService needs a store and an invalidation")
	}
	return &CountryService{store: store, invalidate: invalidate}
}

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// List returns the tenant's effective lists.
func (s *CountryService) List(ctx context.Context, tenantID tenancy.TenantID) ([]Country, error) {
	return s.store.Countries(ctx, tenantID)
}

// Set overrides one country for the tenant. Errors: VALIDATION_ERROR (country not ISO 3166-1
// alpha-2, level unknown, reason blank or over 500 characters).
func (s *CountryService) Set(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, country, level, reason string) (Country, error) {
	country = strings.ToUpper(strings.TrimSpace(country))
	reason = strings.TrimSpace(reason)
	var bad []apperr.FieldError
	if !countryCode.MatchString(country) {
		bad = append(bad, apperr.FieldError{Field: "country", Message: "must be an ISO 3166-1 alpha-2 code"})
	}
	switch level {
	case CountryCallForAction, CountryMonitored, CountryNone:
	default:
		bad = append(bad, apperr.FieldError{Field: "level", Message: "must be CALL_FOR_ACTION, MONITORED or NONE"})
	}
	if reason == "" || len(reason) > 500 {
		bad = append(bad, apperr.FieldError{Field: "reason", Message: "is required (at most 500 characters)"})
	}
	if len(bad) > 0 {
		return Country{}, apperr.InvalidFields(bad...)
	}
	c, err := s.store.SetOverride(ctx, tenantID, country, level, reason, actor)
	if err == nil {
		s.invalidate(tenantID)
	}
	return c, err
}

// Reset removes the tenant's override of country. Errors: VALIDATION_ERROR, NOT_FOUND.
func (s *CountryService) Reset(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, country string) (Country, error) {
	country = strings.ToUpper(strings.TrimSpace(country))
	if !countryCode.MatchString(country) {
		return Country{}, apperr.Invalid("country", "must be an ISO 3166-1 alpha-2 code")
	}
	c, err := s.store.DeleteOverride(ctx, tenantID, country, actor)
	if err == nil {
		s.invalidate(tenantID)
	}
	return c, err
}
