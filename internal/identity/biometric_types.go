package identity

import (
	"encoding/json"

	"github.com/complyd/complyd/internal/wallet"
)

// LivenessCheck is a liveness request: the decoded selfie.
type LivenessCheck struct {
	Selfie Image
}

// LivenessResult is a liveness answer. ReasonCode explains a false IsLive with one of the
// biometric reason codes (ReasonChallengeFailed, ReasonSpoofSuspected, ReasonLivenessFailed, or
// ReasonNoFace/ReasonMultipleFaces); it is empty when IsLive is true.
type LivenessResult struct {
	IsLive         bool            `json:"isLive"`
	Confidence     float64         `json:"confidence"`
	ReasonCode     string          `json:"reasonCode,omitempty"`
	Provider       string          `json:"provider"`
	ProviderSource ProviderSource  `json:"providerSource"`
	Raw            json.RawMessage `json:"raw,omitempty"`
	// Charge is Waived when the answering provider does not bill it (Unbilled); never serialised.
	Charge wallet.Charge `json:"-"`
}

// FaceMatchCheck is a face-match request: the selfie and the reference photo (an ID document
// image or the BVN registry photo).
type FaceMatchCheck struct {
	Selfie    Image
	Reference Image
}

// FaceMatchResult is a face-match answer; Confidence is 0..1.
type FaceMatchResult struct {
	Match          bool            `json:"match"`
	Confidence     float64         `json:"confidence"`
	Provider       string          `json:"provider"`
	ProviderSource ProviderSource  `json:"providerSource"`
	Raw            json.RawMessage `json:"raw,omitempty"`
	// Charge is Waived when the answering provider does not bill it (Unbilled); never serialised.
	Charge wallet.Charge `json:"-"`
}
