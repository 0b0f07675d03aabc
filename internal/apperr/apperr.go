// Package apperr is the service's one error type. Its codes are the spec's error codes
// (docs/reference/specification.md part 7, docs/design/design-choices.md §2); every transport maps them exactly once.
//
// apperr is a leaf: it imports nothing from the project.
package apperr

import (
	"errors"
	"fmt"
	"time"
)

// Code is a stable, documented error code (the failure envelope's error.code).
type Code string

// The codes of docs/design/design-choices.md §2, plus CONFLICT for generic conflicting changes.
const (
	Validation              Code = "VALIDATION_ERROR"
	Unauthenticated         Code = "UNAUTHENTICATED"
	InvalidCredentials      Code = "INVALID_CREDENTIALS"
	InvalidRefreshToken     Code = "INVALID_REFRESH_TOKEN"
	AccountDisabled         Code = "ACCOUNT_DISABLED"
	Forbidden               Code = "FORBIDDEN"
	NotFound                Code = "NOT_FOUND"
	UserAlreadyExists       Code = "USER_ALREADY_EXISTS"
	DuplicateExternalID     Code = "DUPLICATE_EXTERNAL_ID"
	InvalidStatusTransition Code = "INVALID_STATUS_TRANSITION"
	Conflict                Code = "CONFLICT"
	InsufficientFunds       Code = "INSUFFICIENT_FUNDS"
	PayloadTooLarge         Code = "PAYLOAD_TOO_LARGE"
	UnsupportedMediaType    Code = "UNSUPPORTED_MEDIA_TYPE"
	ProviderTierUnsupported Code = "PROVIDER_TIER_UNSUPPORTED"
	RateLimited             Code = "RATE_LIMITED"
	ProviderUnavailable     Code = "PROVIDER_UNAVAILABLE"
	Unavailable             Code = "SERVICE_UNAVAILABLE"
	Internal                Code = "INTERNAL"
)

// FieldError names one invalid field by its JSON (camelCase) path, as in
// error.details = [{field, message}].
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error is a failure the caller may see: code, message, optional field details and data.
type Error struct {
	Code    Code
	Message string
	Details []FieldError
	Data    map[string]any
	// RetryAfter is set on RATE_LIMITED and Overloaded; transports turn it into a Retry-After
	// header.
	RetryAfter time.Duration
}

// New returns an Error with code and message.
func New(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }

// Overloaded is the answer of a screening refused by overload protection (the in-flight gate,
// the store's admission, a stream's wait for its account): UNAVAILABLE with Retry-After 1s,
// answered at once so that the caller retries rather than times out (docs/guide/screening.md
// "Overload").
func Overloaded() *Error {
	return &Error{Code: Unavailable, Message: "screening is over capacity; retry shortly", RetryAfter: time.Second}
}

// Newf returns an Error with a formatted message.
func Newf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error implements error.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// WithData returns e with Data set.
func (e *Error) WithData(data map[string]any) *Error { e.Data = data; return e }

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// CodeOf returns the code of err, INTERNAL when err is not an *Error, and "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	if e, ok := As(err); ok {
		return e.Code
	}
	return Internal
}

// Invalid returns a VALIDATION_ERROR naming one field.
func Invalid(field, msg string) *Error {
	return &Error{Code: Validation, Message: "validation failed", Details: []FieldError{{Field: field, Message: msg}}}
}

// InvalidFields returns a VALIDATION_ERROR naming several fields.
func InvalidFields(details ...FieldError) *Error {
	return &Error{Code: Validation, Message: "validation failed", Details: details}
}

// NotFoundf returns NOT_FOUND for the named kind of resource.
func NotFoundf(format string, args ...any) *Error {
	return &Error{Code: NotFound, Message: fmt.Sprintf(format, args...)}
}

// Transition returns INVALID_STATUS_TRANSITION with data {from, to, allowed} (docs/design/design-choices.md §2, §5).
func Transition(from, to string, allowed []string) *Error {
	if allowed == nil {
		allowed = []string{}
	}
	return &Error{
		Code:    InvalidStatusTransition,
		Message: fmt.Sprintf("cannot move from %s to %s", from, to),
		Data:    map[string]any{"from": from, "to": to, "allowed": allowed},
	}
}
