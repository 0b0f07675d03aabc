package identity_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
)

func TestDecideBiometric(t *testing.T) {
	t.Parallel()
	live := &identity.LivenessResult{IsLive: true, Confidence: 0.9}
	notLive := func(reason string) *identity.LivenessResult { return &identity.LivenessResult{ReasonCode: reason} }
	match := &identity.FaceMatchResult{Match: true, Confidence: 0.9}
	noMatch := &identity.FaceMatchResult{Confidence: 0.3}
	tests := []struct {
		name     string
		e        identity.BiometricEvidence
		next     identity.BiometricStep
		decision string
		reason   string
	}{
		{"no face in selfie", identity.BiometricEvidence{SelfieFaces: 0}, identity.StepDone, identity.DecisionFailedLiveness, identity.ReasonNoFace},
		{"two faces in selfie", identity.BiometricEvidence{SelfieFaces: 2, ReferenceGiven: true, ReferenceFaces: 1}, identity.StepDone, identity.DecisionFailedLiveness, identity.ReasonMultipleFaces},
		{"one face asks liveness", identity.BiometricEvidence{SelfieFaces: 1, ReferenceGiven: true, ReferenceFaces: 1}, identity.StepLiveness, "", ""},
		{"spoof stops before face match", identity.BiometricEvidence{SelfieFaces: 1, ReferenceGiven: true, ReferenceFaces: 1, Liveness: notLive(identity.ReasonSpoofSuspected)}, identity.StepDone, identity.DecisionFailedLiveness, identity.ReasonSpoofSuspected},
		{"challenge failed", identity.BiometricEvidence{SelfieFaces: 1, Liveness: notLive(identity.ReasonChallengeFailed)}, identity.StepDone, identity.DecisionFailedLiveness, identity.ReasonChallengeFailed},
		{"provider saw no face", identity.BiometricEvidence{SelfieFaces: 1, Liveness: notLive(identity.ReasonNoFace)}, identity.StepDone, identity.DecisionFailedLiveness, identity.ReasonNoFace},
		{"not live without reason", identity.BiometricEvidence{SelfieFaces: 1, Liveness: notLive("")}, identity.StepDone, identity.DecisionFailedLiveness, identity.ReasonLivenessFailed},
		{"not live with unknown reason", identity.BiometricEvidence{SelfieFaces: 1, Liveness: notLive("EYES_CLOSED")}, identity.StepDone, identity.DecisionFailedLiveness, identity.ReasonLivenessFailed},
		{"live without reference", identity.BiometricEvidence{SelfieFaces: 1, Liveness: live}, identity.StepDone, identity.DecisionPassed, identity.ReasonLivenessOnly},
		{"live, reference without face", identity.BiometricEvidence{SelfieFaces: 1, ReferenceGiven: true, ReferenceFaces: 0, Liveness: live}, identity.StepDone, identity.DecisionFailedMatch, identity.ReasonNoFace},
		{"live, reference with two faces", identity.BiometricEvidence{SelfieFaces: 1, ReferenceGiven: true, ReferenceFaces: 2, Liveness: live}, identity.StepDone, identity.DecisionFailedMatch, identity.ReasonMultipleFaces},
		{"live asks face match", identity.BiometricEvidence{SelfieFaces: 1, ReferenceGiven: true, ReferenceFaces: 1, Liveness: live}, identity.StepFaceMatch, "", ""},
		{"no match", identity.BiometricEvidence{SelfieFaces: 1, ReferenceGiven: true, ReferenceFaces: 1, Liveness: live, FaceMatch: noMatch}, identity.StepDone, identity.DecisionFailedMatch, identity.ReasonNoMatch},
		{"match", identity.BiometricEvidence{SelfieFaces: 1, ReferenceGiven: true, ReferenceFaces: 1, Liveness: live, FaceMatch: match}, identity.StepDone, identity.DecisionPassed, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := identity.DecideBiometric(tc.e)
			require.Equal(t, tc.next, d.Next)
			require.Equal(t, tc.decision, d.Decision)
			require.Equal(t, tc.reason, d.ReasonCode)
		})
	}
}
