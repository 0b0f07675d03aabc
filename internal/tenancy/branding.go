package tenancy

import (
	"net/url"
	"regexp"
	"strings"
	"time"
	_ "time/tzdata" // zone names are checked the same on a host without /usr/share/zoneinfo

	"github.com/complyd/complyd/internal/apperr"
)

// BrandingPatch is the body of PATCH /tenants/me/branding; nil fields stay unchanged.
type BrandingPatch struct {
	// LogoURL is an https URL, or "" to remove the logo.
	LogoURL *string
	// PrimaryColor is #RRGGBB.
	PrimaryColor *string
	// TimeZone is an IANA zone name.
	TimeZone *string
}

// DefaultTimeZone is the zone of a tenant that has not chosen one: Nigeria's (migration 0046).
const DefaultTimeZone = "Africa/Lagos"

// Branding is the tenant's look in the dashboard: logo, colour and the zone times are shown in.
type Branding struct {
	LogoURL      *string
	PrimaryColor string
	TimeZone     string
}

var hexColor = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// Validate checks the patch: the logo is served to every user's browser, so only an absolute
// https URL with a host is accepted (no javascript:, data: or plain-http mixed content); the
// colour is #RRGGBB, the one form CSS and the dashboard both take as is. Codes: VALIDATION_ERROR.
func (b BrandingPatch) Validate() error {
	if b.LogoURL != nil && *b.LogoURL != "" {
		u, err := url.Parse(*b.LogoURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || strings.ContainsAny(*b.LogoURL, " \t\r\n") || len(*b.LogoURL) > 2048 {
			return apperr.Invalid("logoUrl", "must be an https URL")
		}
	}
	if b.PrimaryColor != nil && !hexColor.MatchString(*b.PrimaryColor) {
		return apperr.Invalid("primaryColor", "must be a colour as #RRGGBB")
	}
	if b.TimeZone != nil {
		// "Local" and "" are what LoadLocation accepts but are not zones a browser knows.
		if _, err := time.LoadLocation(*b.TimeZone); err != nil || *b.TimeZone == "" || *b.TimeZone == "Local" {
			return apperr.Invalid("timeZone", "must be an IANA time zone such as Africa/Lagos")
		}
	}
	return nil
}
