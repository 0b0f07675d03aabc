package identity_test

import (
	"context"
	"image"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/identity/identitytest"
)

type bioBundle struct {
	bio     *identity.Biometrics
	sandbox *identity.Sandbox
	imgs    identitytest.Images
}

func bioSetup(t *testing.T) bioBundle {
	t.Helper()
	d, err := identity.NewFaceDetector(0)
	require.NoError(t, err)
	bio := identity.NewBiometrics(d)
	return bioBundle{bio: bio, sandbox: identity.NewSandbox(identity.DefaultRegistry(), bio), imgs: identitytest.LoadImages(t)}
}

func TestFaceDetection(t *testing.T) {
	t.Parallel()
	b := bioSetup(t)
	tests := []struct {
		name  string
		img   image.Image
		faces int
	}{
		{"no face", b.imgs.NoFace, 0},
		{"one face", b.imgs.OneFace, 1},
		{"two faces", b.imgs.TwoFaces, 2},
	}
	for _, tc := range tests {
		for _, enc := range []struct {
			name   string
			encode func(testing.TB, image.Image) []byte
		}{{"jpeg", identitytest.JPEG}, {"png", identitytest.PNG}} {
			t.Run(tc.name+"/"+enc.name, func(t *testing.T) {
				t.Parallel()
				img := identitytest.Decode(t, enc.encode(t, tc.img))
				faces := b.bio.Faces(img)
				require.Len(t, faces, tc.faces)
				for _, f := range faces {
					require.GreaterOrEqual(t, f.Score, float64(identity.DefaultMinFaceScore))
					require.True(t, f.Rect.In(img.Pixels.Bounds()))
				}
			})
		}
	}
}

func TestSandboxLiveness(t *testing.T) {
	t.Parallel()
	b := bioSetup(t)
	// The face pasted small into a large plain canvas: a face in a far-away photo.
	far := image.NewRGBA(image.Rect(0, 0, 900, 900))
	for i := range far.Pix {
		far.Pix[i] = 210
	}
	fb := b.imgs.OneFace.Bounds()
	for y := range fb.Dy() {
		for x := range fb.Dx() {
			far.Set(350+x, 350+y, b.imgs.OneFace.At(fb.Min.X+x, fb.Min.Y+y))
		}
	}
	tests := []struct {
		name   string
		img    image.Image
		live   bool
		reason string
	}{
		{"clear selfie", b.imgs.OneFace, true, ""},
		{"no face", b.imgs.NoFace, false, identity.ReasonNoFace},
		{"two faces", b.imgs.TwoFaces, false, identity.ReasonMultipleFaces},
		{"blurred face", b.imgs.Blurred, false, identity.ReasonSpoofSuspected},
		{"small face", far, false, identity.ReasonLivenessFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := b.sandbox.Liveness(context.Background(), identity.LivenessCheck{Selfie: identitytest.Decode(t, identitytest.PNG(t, tc.img))})
			require.NoError(t, err)
			require.Equal(t, tc.live, res.IsLive)
			require.Equal(t, tc.reason, res.ReasonCode)
			require.Equal(t, identity.SourceEmbedded, res.ProviderSource)
			require.GreaterOrEqual(t, res.Confidence, 0.0)
			require.LessOrEqual(t, res.Confidence, 1.0)
			if tc.live {
				require.GreaterOrEqual(t, res.Confidence, 0.8)
			}
		})
	}
}

func TestSandboxFaceMatch(t *testing.T) {
	t.Parallel()
	b := bioSetup(t)
	selfie := identitytest.Decode(t, identitytest.JPEG(t, b.imgs.OneFace))

	t.Run("same face, other encoding", func(t *testing.T) {
		t.Parallel()
		res, err := b.sandbox.FaceMatch(context.Background(), identity.FaceMatchCheck{Selfie: selfie, Reference: identitytest.Decode(t, identitytest.PNG(t, b.imgs.OneFace))})
		require.NoError(t, err)
		require.True(t, res.Match)
		require.GreaterOrEqual(t, res.Confidence, 0.9)
	})
	t.Run("same face inside a two-face document", func(t *testing.T) {
		t.Parallel()
		res, err := b.sandbox.FaceMatch(context.Background(), identity.FaceMatchCheck{Selfie: selfie, Reference: identitytest.Decode(t, identitytest.JPEG(t, b.imgs.TwoFaces))})
		require.NoError(t, err)
		require.True(t, res.Match)
	})
	t.Run("reference without a face", func(t *testing.T) {
		t.Parallel()
		res, err := b.sandbox.FaceMatch(context.Background(), identity.FaceMatchCheck{Selfie: selfie, Reference: identitytest.Decode(t, identitytest.PNG(t, b.imgs.NoFace))})
		require.NoError(t, err)
		require.False(t, res.Match)
		require.Zero(t, res.Confidence)
	})
	t.Run("face against a non-face region", func(t *testing.T) {
		t.Parallel()
		faces := b.bio.Faces(selfie)
		require.Len(t, faces, 1)
		sim := identity.CropSimilarity(selfie.Pixels, faces[0].Rect, b.imgs.NoFace, image.Rect(40, 40, 140, 140))
		require.Less(t, sim, identity.FaceMatchThreshold)
	})
}

func TestVerifyBiometric(t *testing.T) {
	t.Parallel()
	b := bioSetup(t)
	one := identitytest.Decode(t, identitytest.JPEG(t, b.imgs.OneFace))
	two := identitytest.Decode(t, identitytest.JPEG(t, b.imgs.TwoFaces))
	blurred := identitytest.Decode(t, identitytest.JPEG(t, b.imgs.Blurred))
	noFace := identitytest.Decode(t, identitytest.PNG(t, b.imgs.NoFace))

	type calls struct{ liveness, match int }
	chains := func(c *calls, matchErr error) (identity.Chain, identity.Chain) {
		live := &identitytest.Provider{LivenessFunc: func(ctx context.Context, req identity.LivenessCheck) (identity.LivenessResult, error) {
			c.liveness++
			return b.sandbox.Liveness(ctx, req)
		}}
		match := &identitytest.Provider{FaceMatchFunc: func(ctx context.Context, req identity.FaceMatchCheck) (identity.FaceMatchResult, error) {
			c.match++
			if matchErr != nil {
				return identity.FaceMatchResult{}, matchErr
			}
			return b.sandbox.FaceMatch(ctx, req)
		}}
		return identity.Chain{Verification: identity.VerifyLiveness, Providers: []identity.Provider{live}},
			identity.Chain{Verification: identity.VerifyFaceMatch, Providers: []identity.Provider{match}}
	}
	tests := []struct {
		name      string
		selfie    identity.Image
		reference *identity.Image
		decision  string
		reason    string
		calls     calls
	}{
		{"passed", one, &one, identity.DecisionPassed, "", calls{1, 1}},
		{"liveness only", one, nil, identity.DecisionPassed, identity.ReasonLivenessOnly, calls{1, 0}},
		{"no face: nobody asked", noFace, &one, identity.DecisionFailedLiveness, identity.ReasonNoFace, calls{0, 0}},
		{"two faces: nobody asked", two, &one, identity.DecisionFailedLiveness, identity.ReasonMultipleFaces, calls{0, 0}},
		{"spoof: no face-match call", blurred, &one, identity.DecisionFailedLiveness, identity.ReasonSpoofSuspected, calls{1, 0}},
		{"reference without face", one, &noFace, identity.DecisionFailedMatch, identity.ReasonNoFace, calls{1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var c calls
			lc, mc := chains(&c, nil)
			res, err := b.bio.VerifyBiometric(context.Background(), identity.BiometricRequest{Selfie: tc.selfie, Reference: tc.reference, Liveness: lc, FaceMatch: mc})
			require.NoError(t, err)
			require.Equal(t, tc.decision, res.Decision)
			require.Equal(t, tc.reason, res.ReasonCode)
			require.Equal(t, tc.calls, c)
			require.Equal(t, tc.calls.liveness == 1, res.Liveness != nil)
			require.Equal(t, tc.calls.match == 1, res.FaceMatch != nil)
		})
	}
	t.Run("face-match outage", func(t *testing.T) {
		t.Parallel()
		var c calls
		lc, mc := chains(&c, identity.ErrOutage)
		_, err := b.bio.VerifyBiometric(context.Background(), identity.BiometricRequest{Selfie: one, Reference: &one, Liveness: lc, FaceMatch: mc})
		require.Equal(t, apperr.ProviderUnavailable, apperr.CodeOf(err))
	})
}
