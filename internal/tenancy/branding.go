package tenancy

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
)

// BrandingPatch is the body of PATCH /tenants/me/branding; nil fields stay unchanged.
type BrandingPatch struct {
	// LogoURL is an https URL, or "" to remove the logo.
	LogoURL *string
	// PrimaryColor is #RRGGBB.
	PrimaryColor *string
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
	return nil
}
