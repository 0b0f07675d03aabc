package restapi

import (
	"net/http"

	"github.com/complyd/complyd/internal/apperr"
)

// httpStatus maps every apperr code to its HTTP status (docs/design/design-choices.md §2), exactly once.
var httpStatus = map[apperr.Code]int{
	apperr.Validation:              http.StatusBadRequest,
	apperr.Unauthenticated:         http.StatusUnauthorized,
	apperr.InvalidCredentials:      http.StatusUnauthorized,
	apperr.InvalidRefreshToken:     http.StatusUnauthorized,
	apperr.AccountDisabled:         http.StatusForbidden,
	apperr.Forbidden:               http.StatusForbidden,
	apperr.NotFound:                http.StatusNotFound,
	apperr.UserAlreadyExists:       http.StatusConflict,
	apperr.DuplicateExternalID:     http.StatusConflict,
	apperr.InvalidStatusTransition: http.StatusConflict,
	apperr.Conflict:                http.StatusConflict,
	apperr.InsufficientFunds:       http.StatusPaymentRequired,
	apperr.PayloadTooLarge:         http.StatusRequestEntityTooLarge,
	apperr.UnsupportedMediaType:    http.StatusUnsupportedMediaType,
	apperr.ProviderTierUnsupported: http.StatusUnprocessableEntity,
	apperr.RateLimited:             http.StatusTooManyRequests,
	apperr.ProviderUnavailable:     http.StatusServiceUnavailable,
	apperr.Unavailable:             http.StatusServiceUnavailable,
	apperr.Internal:                http.StatusInternalServerError,
}

// codeForStatus names the code of a failure that never reached a handler (routing, decoding).
func codeForStatus(status int) apperr.Code {
	switch status {
	case http.StatusBadRequest:
		return apperr.Validation
	case http.StatusUnauthorized:
		return apperr.Unauthenticated
	case http.StatusForbidden:
		return apperr.Forbidden
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return apperr.NotFound
	case http.StatusConflict:
		return apperr.Conflict
	case http.StatusRequestEntityTooLarge:
		return apperr.PayloadTooLarge
	case http.StatusUnsupportedMediaType:
		return apperr.UnsupportedMediaType
	case http.StatusTooManyRequests:
		return apperr.RateLimited
	case http.StatusServiceUnavailable:
		return apperr.ProviderUnavailable
	}
	return apperr.Internal
}

// created lists the routes that answer 201 Created on success (docs/reference/specification.md part 4).
var created = []string{
	"POST /api/v1/auth/users",
	"POST /api/v1/cases",
	"POST /api/v1/cases/{id}/notes",
	"POST /api/v1/cases/{id}/resolution-proposals",
	"POST /api/v1/cases/{id}/interdictions",
	"POST /api/v1/kyc/applications",
	"POST /api/v1/kyc/kyb/applications",
	"POST /api/v1/watchlists",
	"POST /api/v1/watchlists/{id}/entries",
	"POST /api/v1/sanctions/false-positives",
	"POST /api/v1/customers/{id}/kyc-application",
	"POST /api/v1/customers/{id}/kyb-application",
	"POST /api/v1/rules",
	"POST /api/v1/rule-drafts",
	"POST /api/v1/network/findings/case",
	"POST /api/v1/reports",
	"POST /api/v1/cases/{id}/reports",
	"POST /api/v1/case-inboxes",
	"POST /api/v1/case-views",
}

func createdMatcher() *http.ServeMux {
	m := http.NewServeMux()
	for _, p := range created {
		m.Handle(p, http.NotFoundHandler())
	}
	return m
}
