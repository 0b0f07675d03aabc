package identity

// Biometric-verify decisions and reason codes (docs/reference/specification.md 4.4).
const (
	DecisionPassed         = "PASSED"
	DecisionFailedLiveness = "FAILED_LIVENESS"
	DecisionFailedMatch    = "FAILED_MATCH"

	ReasonNoFace          = "NO_FACE"
	ReasonMultipleFaces   = "MULTIPLE_FACES"
	ReasonChallengeFailed = "CHALLENGE_FAILED"
	ReasonSpoofSuspected  = "SPOOF_SUSPECTED"
	ReasonLivenessFailed  = "LIVENESS_FAILED"
	ReasonNoMatch         = "NO_MATCH"
	ReasonLivenessOnly    = "LIVENESS_ONLY"
)

// BiometricStep is what biometric verify must do next.
type BiometricStep string

// Steps of biometric verify, in order: local face counting, the liveness provider, the
// face-match provider.
const (
	StepLiveness  BiometricStep = "LIVENESS"
	StepFaceMatch BiometricStep = "FACE_MATCH"
	StepDone      BiometricStep = "DONE"
)

// BiometricEvidence is what is known so far in a biometric verify. Nil results mean the provider
// has not been asked yet.
type BiometricEvidence struct {
	SelfieFaces    int
	ReferenceGiven bool
	ReferenceFaces int
	Liveness       *LivenessResult
	FaceMatch      *FaceMatchResult
}

// BiometricDecision is DecideBiometric's answer: the next step, and once Next is StepDone the
// decision and reason code.
type BiometricDecision struct {
	Next       BiometricStep `json:"-"`
	Decision   string        `json:"decision,omitempty"`
	ReasonCode string        `json:"reasonCode,omitempty"`
}

// DecideBiometric is the biometric-verify rule (docs/reference/specification.md 4.4), a pure function:
//
//  1. The selfie must show exactly one face (NO_FACE, MULTIPLE_FACES → FAILED_LIVENESS), checked
//     locally before any provider is asked.
//  2. Liveness runs first. Not live → FAILED_LIVENESS with the provider's reason when it is
//     CHALLENGE_FAILED or SPOOF_SUSPECTED, else LIVENESS_FAILED. A failed anti-spoof therefore
//     never reaches the paid face match.
//  3. Without a reference photo: PASSED with LIVENESS_ONLY.
//  4. The reference must show exactly one face (NO_FACE, MULTIPLE_FACES → FAILED_MATCH), then the
//     face match runs: no match → FAILED_MATCH/NO_MATCH, match → PASSED.
func DecideBiometric(e BiometricEvidence) BiometricDecision {
	switch {
	case e.SelfieFaces == 0:
		return done(DecisionFailedLiveness, ReasonNoFace)
	case e.SelfieFaces > 1:
		return done(DecisionFailedLiveness, ReasonMultipleFaces)
	case e.Liveness == nil:
		return BiometricDecision{Next: StepLiveness}
	case !e.Liveness.IsLive:
		switch e.Liveness.ReasonCode {
		case ReasonChallengeFailed, ReasonSpoofSuspected, ReasonNoFace, ReasonMultipleFaces:
			return done(DecisionFailedLiveness, e.Liveness.ReasonCode)
		}
		return done(DecisionFailedLiveness, ReasonLivenessFailed)
	case !e.ReferenceGiven:
		return done(DecisionPassed, ReasonLivenessOnly)
	case e.ReferenceFaces == 0:
		return done(DecisionFailedMatch, ReasonNoFace)
	case e.ReferenceFaces > 1:
		return done(DecisionFailedMatch, ReasonMultipleFaces)
	case e.FaceMatch == nil:
		return BiometricDecision{Next: StepFaceMatch}
	case !e.FaceMatch.Match:
		return done(DecisionFailedMatch, ReasonNoMatch)
	}
	return done(DecisionPassed, "")
}

func done(decision, reason string) BiometricDecision {
	return BiometricDecision{Next: StepDone, Decision: decision, ReasonCode: reason}
}
