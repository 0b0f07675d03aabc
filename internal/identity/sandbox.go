package identity

import (
	"context"
	"encoding/json"
	"fmt"
)

// SandboxName is the provider name the embedded sandbox reports.
const SandboxName = "SANDBOX"

// Sandbox is the embedded provider: BVN, NIN and CAC answers come from a Registry (docs/design/design-choices.md
// §6), liveness and face match from the sandbox-grade Biometrics. A number in the registry's
// outage list answers with ErrOutage, so fallback and "no charge on outage" can be exercised.
type Sandbox struct {
	registry *Registry
	bio      *Biometrics
}

// NewSandbox returns the sandbox over registry; bio may be nil, and then LIVENESS and FACE_MATCH
// are unsupported.
func NewSandbox(registry *Registry, bio *Biometrics) *Sandbox {
	if registry == nil {
		panic("identity: NewSandbox needs a Registry")
	}
	return &Sandbox{registry: registry, bio: bio}
}

// Name returns "SANDBOX": every answer, webhook and audit record names the sandbox as such.
func (s *Sandbox) Name() string { return SandboxName }

// Source returns EMBEDDED.
func (s *Sandbox) Source() ProviderSource { return SourceEmbedded }

// Supports reports BVN, NIN and CAC always, LIVENESS and FACE_MATCH when biometrics are set.
func (s *Sandbox) Supports(v VerificationType) bool {
	switch v {
	case VerifyBVN, VerifyNIN, VerifyCAC:
		return true
	case VerifyLiveness, VerifyFaceMatch:
		return s.bio != nil
	}
	return false
}

// CheckBVN answers from the registry's bvn array. Errors: ErrOutage for an outage number.
func (s *Sandbox) CheckBVN(_ context.Context, req PersonCheck) (PersonResult, error) {
	if s.registry.IsOutage(req.Number) {
		return PersonResult{}, fmt.Errorf("sandbox bvn %s: %w", req.Number, ErrOutage)
	}
	p, ok := s.registry.LookupBVN(req.Number)
	return s.person(req, p, ok), nil
}

// CheckNIN answers from the registry's nin array. Errors: ErrOutage for an outage number.
func (s *Sandbox) CheckNIN(_ context.Context, req PersonCheck) (PersonResult, error) {
	if s.registry.IsOutage(req.Number) {
		return PersonResult{}, fmt.Errorf("sandbox nin %s: %w", req.Number, ErrOutage)
	}
	p, ok := s.registry.LookupNIN(req.Number)
	return s.person(req, p, ok), nil
}

func (s *Sandbox) person(req PersonCheck, p RegistryPerson, found bool) PersonResult {
	res := PersonResult{Found: found, Provider: SandboxName, ProviderSource: SourceEmbedded}
	if !found {
		res.Raw = mustJSON(map[string]any{"found": false})
		return res
	}
	rec := p.Record()
	res.Record = &rec
	res.Confidence, res.IsMatch = ComparePerson(req, rec, MatchThreshold)
	res.Raw = mustJSON(map[string]any{"found": true, "record": rec})
	return res
}

// LookupCAC answers from the registry's cac array. Errors: ErrOutage for an outage RC number.
func (s *Sandbox) LookupCAC(_ context.Context, req CompanyLookup) (CompanyResult, error) {
	if s.registry.IsOutage(req.RCNumber) {
		return CompanyResult{}, fmt.Errorf("sandbox cac %s: %w", req.RCNumber, ErrOutage)
	}
	res := CompanyResult{Provider: SandboxName, ProviderSource: SourceEmbedded}
	c, ok := s.registry.LookupCAC(req.RCNumber)
	if ok {
		res.Found, res.Company = true, &c
	}
	res.Raw = mustJSON(res)
	return res, nil
}

// Liveness applies the sandbox heuristic (Biometrics.Liveness). Errors: ErrUnsupported without
// biometrics.
func (s *Sandbox) Liveness(_ context.Context, req LivenessCheck) (LivenessResult, error) {
	if s.bio == nil {
		return LivenessResult{}, fmt.Errorf("sandbox liveness: %w", ErrUnsupported)
	}
	live, reason, m := s.bio.Liveness(req.Selfie)
	return LivenessResult{
		IsLive: live, Confidence: m.Confidence, ReasonCode: reason,
		Provider: SandboxName, ProviderSource: SourceEmbedded, Raw: mustJSON(m),
	}, nil
}

// FaceMatch compares the faces by pixel correlation (Biometrics.FaceSimilarity). Errors:
// ErrUnsupported without biometrics.
func (s *Sandbox) FaceMatch(_ context.Context, req FaceMatchCheck) (FaceMatchResult, error) {
	if s.bio == nil {
		return FaceMatchResult{}, fmt.Errorf("sandbox face match: %w", ErrUnsupported)
	}
	sim := s.bio.FaceSimilarity(req.Selfie, req.Reference)
	return FaceMatchResult{
		Match: sim >= FaceMatchThreshold, Confidence: sim,
		Provider: SandboxName, ProviderSource: SourceEmbedded,
		Raw: mustJSON(map[string]any{"similarity": sim, "threshold": FaceMatchThreshold}),
	}, nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain structs and maps are marshalled here
	}
	return b
}
