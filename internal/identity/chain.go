package identity

import (
	"context"
	"errors"
	"fmt"

	"github.com/complyd/complyd/internal/apperr"
)

// Chain is the ordered list of providers for one verification type. It asks them in order and
// moves to the next one on an outage only: a definite answer (found or not, match or mismatch)
// stops the chain. When every provider is out it returns PROVIDER_UNAVAILABLE (503) and the caller
// charges nothing (docs/design/design-choices.md §6).
type Chain struct {
	Verification VerificationType
	Providers    []Provider
}

// CheckBVN runs a BVN check through the chain. Errors: VALIDATION_ERROR, PROVIDER_UNAVAILABLE.
func (c Chain) CheckBVN(ctx context.Context, req PersonCheck) (PersonResult, error) {
	if err := req.Validate("bvn"); err != nil {
		return PersonResult{}, err
	}
	return run(ctx, c, func(p Provider) (PersonResult, error) { return p.CheckBVN(ctx, req) })
}

// CheckNIN runs a NIN check through the chain. Errors: VALIDATION_ERROR, PROVIDER_UNAVAILABLE.
func (c Chain) CheckNIN(ctx context.Context, req PersonCheck) (PersonResult, error) {
	if err := req.Validate("nin"); err != nil {
		return PersonResult{}, err
	}
	return run(ctx, c, func(p Provider) (PersonResult, error) { return p.CheckNIN(ctx, req) })
}

// LookupCAC runs a CAC lookup through the chain. Errors: VALIDATION_ERROR, PROVIDER_UNAVAILABLE.
func (c Chain) LookupCAC(ctx context.Context, req CompanyLookup) (CompanyResult, error) {
	if err := req.Validate(); err != nil {
		return CompanyResult{}, err
	}
	return run(ctx, c, func(p Provider) (CompanyResult, error) { return p.LookupCAC(ctx, req) })
}

// Liveness runs a liveness check through the chain. Errors: PROVIDER_UNAVAILABLE.
func (c Chain) Liveness(ctx context.Context, req LivenessCheck) (LivenessResult, error) {
	return run(ctx, c, func(p Provider) (LivenessResult, error) { return p.Liveness(ctx, req) })
}

// FaceMatch runs a face match through the chain. Errors: PROVIDER_UNAVAILABLE.
func (c Chain) FaceMatch(ctx context.Context, req FaceMatchCheck) (FaceMatchResult, error) {
	return run(ctx, c, func(p Provider) (FaceMatchResult, error) { return p.FaceMatch(ctx, req) })
}

// run asks each provider in turn. An error wrapping ErrOutage or ErrUnsupported moves on; any
// other error (for example VALIDATION_ERROR) stops the chain and is returned as is. A cancelled
// context stops the chain too: the caller has gone, so there is no point asking the next provider.
func run[T any](ctx context.Context, c Chain, call func(Provider) (T, error)) (T, error) {
	var zero T
	var causes []error
	for _, p := range c.Providers {
		if err := ctx.Err(); err != nil {
			causes = append(causes, err)
			break
		}
		res, err := call(p)
		if err == nil {
			return res, nil
		}
		if !errors.Is(err, ErrOutage) && !errors.Is(err, ErrUnsupported) {
			return zero, fmt.Errorf("%s %s: %w", p.Name(), c.Verification, err)
		}
		causes = append(causes, fmt.Errorf("%s: %w", p.Name(), err))
	}
	return zero, unavailable(c.Verification, causes)
}

// unavailable is PROVIDER_UNAVAILABLE for v. The causes are joined into the error chain for logs,
// never into the message the caller sees.
func unavailable(v VerificationType, causes []error) error {
	e := apperr.Newf(apperr.ProviderUnavailable, "no identity provider is available for %s verification; nothing was charged", v).
		WithData(map[string]any{"verification": string(v)})
	if len(causes) == 0 {
		return e
	}
	return &unavailableError{app: e, cause: errors.Join(causes...)}
}

// unavailableError keeps the outage causes reachable with errors.Is while apperr.As still finds
// the PROVIDER_UNAVAILABLE error.
type unavailableError struct {
	app   *apperr.Error
	cause error
}

func (e *unavailableError) Error() string   { return e.app.Error() + ": " + e.cause.Error() }
func (e *unavailableError) Unwrap() []error { return []error{e.app, e.cause} }

// LookupBVN looks a BVN up by number alone, with no claim to compare (direct lookups, KYB
// director checks): the answer's Found and Record are the registry's; its Confidence and IsMatch
// carry no meaning and are zeroed. Errors: VALIDATION_ERROR, PROVIDER_UNAVAILABLE.
func (c Chain) LookupBVN(ctx context.Context, number string) (PersonResult, error) {
	return c.lookupPerson(ctx, "bvn", number, func(p Provider, req PersonCheck) (PersonResult, error) { return p.CheckBVN(ctx, req) })
}

// LookupNIN is LookupBVN for a NIN. Errors: VALIDATION_ERROR, PROVIDER_UNAVAILABLE.
func (c Chain) LookupNIN(ctx context.Context, number string) (PersonResult, error) {
	return c.lookupPerson(ctx, "nin", number, func(p Provider, req PersonCheck) (PersonResult, error) { return p.CheckNIN(ctx, req) })
}

func (c Chain) lookupPerson(ctx context.Context, field, number string, call func(Provider, PersonCheck) (PersonResult, error)) (PersonResult, error) {
	if !IsElevenDigits(number) {
		return PersonResult{}, apperr.Invalid(field, "must be exactly 11 digits")
	}
	req := PersonCheck{Number: number}
	res, err := run(ctx, c, func(p Provider) (PersonResult, error) { return call(p, req) })
	res.Confidence, res.IsMatch = 0, false
	return res, err
}
