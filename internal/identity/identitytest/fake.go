// Package identitytest holds test helpers for identity providers: a hand-written fake Provider,
// real test images (no face, one face, two faces) and the conformance suite every Provider
// implementation must pass (RunProviderSuite). It is imported by tests only.
package identitytest

import (
	"context"

	"github.com/complyd/complyd/internal/identity"
)

// Provider is a hand-written fake identity.Provider; a nil …Func answers identity.ErrUnsupported.
type Provider struct {
	NameValue     string
	SourceValue   identity.ProviderSource
	SupportsFunc  func(v identity.VerificationType) bool
	CheckBVNFunc  func(ctx context.Context, req identity.PersonCheck) (identity.PersonResult, error)
	CheckNINFunc  func(ctx context.Context, req identity.PersonCheck) (identity.PersonResult, error)
	LookupCACFunc func(ctx context.Context, req identity.CompanyLookup) (identity.CompanyResult, error)
	LivenessFunc  func(ctx context.Context, req identity.LivenessCheck) (identity.LivenessResult, error)
	FaceMatchFunc func(ctx context.Context, req identity.FaceMatchCheck) (identity.FaceMatchResult, error)
}

var _ identity.Provider = (*Provider)(nil)

// Name returns NameValue, or "fake".
func (p *Provider) Name() string {
	if p.NameValue == "" {
		return "fake"
	}
	return p.NameValue
}

// Source returns SourceValue, or EMBEDDED.
func (p *Provider) Source() identity.ProviderSource {
	if p.SourceValue == "" {
		return identity.SourceEmbedded
	}
	return p.SourceValue
}

// Supports calls SupportsFunc, or reports true.
func (p *Provider) Supports(v identity.VerificationType) bool {
	if p.SupportsFunc == nil {
		return true
	}
	return p.SupportsFunc(v)
}

// CheckBVN calls CheckBVNFunc.
func (p *Provider) CheckBVN(ctx context.Context, req identity.PersonCheck) (identity.PersonResult, error) {
	if p.CheckBVNFunc == nil {
		return identity.PersonResult{}, identity.ErrUnsupported
	}
	return p.CheckBVNFunc(ctx, req)
}

// CheckNIN calls CheckNINFunc.
func (p *Provider) CheckNIN(ctx context.Context, req identity.PersonCheck) (identity.PersonResult, error) {
	if p.CheckNINFunc == nil {
		return identity.PersonResult{}, identity.ErrUnsupported
	}
	return p.CheckNINFunc(ctx, req)
}

// LookupCAC calls LookupCACFunc.
func (p *Provider) LookupCAC(ctx context.Context, req identity.CompanyLookup) (identity.CompanyResult, error) {
	if p.LookupCACFunc == nil {
		return identity.CompanyResult{}, identity.ErrUnsupported
	}
	return p.LookupCACFunc(ctx, req)
}

// Liveness calls LivenessFunc.
func (p *Provider) Liveness(ctx context.Context, req identity.LivenessCheck) (identity.LivenessResult, error) {
	if p.LivenessFunc == nil {
		return identity.LivenessResult{}, identity.ErrUnsupported
	}
	return p.LivenessFunc(ctx, req)
}

// FaceMatch calls FaceMatchFunc.
func (p *Provider) FaceMatch(ctx context.Context, req identity.FaceMatchCheck) (identity.FaceMatchResult, error) {
	if p.FaceMatchFunc == nil {
		return identity.FaceMatchResult{}, identity.ErrUnsupported
	}
	return p.FaceMatchFunc(ctx, req)
}
