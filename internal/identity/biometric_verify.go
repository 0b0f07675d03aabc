package identity

import "context"

// BiometricRequest is one biometric verify: the selfie, the optional reference photo (an ID
// document image or the BVN registry photo) and the chains to ask.
type BiometricRequest struct {
	Selfie    Image
	Reference *Image
	Liveness  Chain
	FaceMatch Chain
}

// BiometricVerification is the outcome of VerifyBiometric. Liveness and FaceMatch are nil when
// that provider was not asked; the caller bills one liveness check when Liveness is not nil
// (docs/reference/specification.md 4.4) and keeps a FACE_MATCH evidence entry when FaceMatch is not nil.
type BiometricVerification struct {
	Decision       string           `json:"decision"`
	ReasonCode     string           `json:"reasonCode,omitempty"`
	SelfieFaces    int              `json:"selfieFaces"`
	ReferenceFaces int              `json:"referenceFaces,omitempty"`
	Liveness       *LivenessResult  `json:"liveness,omitempty"`
	FaceMatch      *FaceMatchResult `json:"faceMatch,omitempty"`
}

// VerifyBiometric runs biometric verify step by step as DecideBiometric directs: faces are counted
// locally first, then the liveness chain, then, only for a live selfie with a reference photo,
// the face-match chain. Errors: PROVIDER_UNAVAILABLE from a chain.
func (b *Biometrics) VerifyBiometric(ctx context.Context, req BiometricRequest) (BiometricVerification, error) {
	ev := BiometricEvidence{SelfieFaces: len(b.Faces(req.Selfie)), ReferenceGiven: req.Reference != nil}
	if req.Reference != nil {
		ev.ReferenceFaces = len(b.Faces(*req.Reference))
	}
	for {
		d := DecideBiometric(ev)
		switch d.Next {
		case StepLiveness:
			res, err := req.Liveness.Liveness(ctx, LivenessCheck{Selfie: req.Selfie})
			if err != nil {
				return BiometricVerification{}, err
			}
			ev.Liveness = &res
		case StepFaceMatch:
			res, err := req.FaceMatch.FaceMatch(ctx, FaceMatchCheck{Selfie: req.Selfie, Reference: *req.Reference})
			if err != nil {
				return BiometricVerification{}, err
			}
			ev.FaceMatch = &res
		default:
			return BiometricVerification{
				Decision: d.Decision, ReasonCode: d.ReasonCode,
				SelfieFaces: ev.SelfieFaces, ReferenceFaces: ev.ReferenceFaces,
				Liveness: ev.Liveness, FaceMatch: ev.FaceMatch,
			}, nil
		}
	}
}
