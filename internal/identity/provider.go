package identity

import (
	"context"
	"errors"
)

// ErrOutage marks a provider failure that carries no answer: a timeout, a connection error, a 5xx
// or an undecodable reply (docs/design/design-choices.md §6). The Chain moves to its next provider on ErrOutage
// only; providers wrap it (fmt.Errorf("bvn lookup: %w: %v", ErrOutage, cause)).
var ErrOutage = errors.New("identity provider outage")

// ErrUnsupported is returned by a provider asked for a verification type it does not offer. The
// Chain treats it like an outage of that provider (it has no answer), but a correct selection
// (SelectSources) never routes an unsupported type to a provider.
var ErrUnsupported = errors.New("verification type not supported by provider")

// Provider is the identity provider port: the embedded sandbox and the BYOL HTTP provider
// (internal/idhttp) implement it. Every method returns a definite answer (found or not, match or
// not) with a nil error, or an error wrapping ErrOutage or ErrUnsupported. A VALIDATION_ERROR may be
// returned for a request the provider cannot even send; it stops the Chain.
type Provider interface {
	// Name is the provider's name as shown in results (for example "SANDBOX", "dojah").
	Name() string
	// Source is EMBEDDED or BYOL.
	Source() ProviderSource
	// Supports reports whether the provider offers verification type v.
	Supports(v VerificationType) bool
	// CheckBVN looks a BVN up and compares the registry record with the submitted names and date
	// of birth. Errors: ErrOutage, ErrUnsupported, VALIDATION_ERROR.
	CheckBVN(ctx context.Context, req PersonCheck) (PersonResult, error)
	// CheckNIN is CheckBVN for a NIN. Errors: ErrOutage, ErrUnsupported, VALIDATION_ERROR.
	CheckNIN(ctx context.Context, req PersonCheck) (PersonResult, error)
	// LookupCAC looks a company up by RC number. Errors: ErrOutage, ErrUnsupported,
	// VALIDATION_ERROR.
	LookupCAC(ctx context.Context, req CompanyLookup) (CompanyResult, error)
	// Liveness judges whether the selfie shows a live person. Errors: ErrOutage, ErrUnsupported.
	Liveness(ctx context.Context, req LivenessCheck) (LivenessResult, error)
	// FaceMatch judges whether the selfie and the reference photo show the same person. Errors:
	// ErrOutage, ErrUnsupported.
	FaceMatch(ctx context.Context, req FaceMatchCheck) (FaceMatchResult, error)
}
