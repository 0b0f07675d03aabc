package app

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity/identitytest"
)

type bioOut struct {
	Decision            string
	ReasonCode          *string
	IsLive              bool
	FaceMatch           *bool
	FaceMatchConfidence *float64
	ProviderSource      string
	NewStatus, Tier     string
	Reference, Charged  string
}

func TestKYCBiometrics(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	s.credit(f, "1000", "PAY")
	img := identitytest.LoadImages(t)
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	oneJPEG, onePNG := b64(identitytest.JPEG(t, img.OneFace)), b64(identitytest.PNG(t, img.OneFace))
	twoJPEG, nonePNG := b64(identitytest.JPEG(t, img.TwoFaces)), b64(identitytest.PNG(t, img.NoFace))
	balance := func() string {
		var w struct{ Balance string }
		s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil).decode(t, &w)
		return w.Balance
	}

	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Adebayo", "lastName": "Ogunleye", "dateOfBirth": "1985-03-14"})
	path := "/api/v1/kyc/applications/" + a.ID + "/"

	// Invalid images are 400 before anything else.
	for _, bad := range []string{"not base64!!", b64([]byte("GIF89a-not-an-image")), b64([]byte{0xff, 0xd8, 0xff, 0xe0, 1, 2, 3})} {
		requireRESTError(t, s.rest("POST", path+"liveness-check", cred{Bearer: admin}, map[string]any{"selfieImageBase64": bad}), 400, "VALIDATION_ERROR")
	}

	// No face, two faces: answered locally, free, no status change.
	var o bioOut
	s.rest("POST", path+"biometric-verify", cred{Bearer: admin}, map[string]any{"selfieImageBase64": nonePNG}).decode(t, &o)
	require.Equal(t, "FAILED_LIVENESS", o.Decision)
	require.Equal(t, "NO_FACE", *o.ReasonCode)
	require.Equal(t, "LOCAL", o.ProviderSource)
	require.Equal(t, "0.00", o.Charged)
	s.rest("POST", path+"liveness-check", cred{Bearer: admin}, map[string]any{"selfieImageBase64": twoJPEG}).decode(t, &o)
	require.False(t, o.IsLive)
	require.Equal(t, "MULTIPLE_FACES", *o.ReasonCode)
	require.Equal(t, "PENDING", o.NewStatus)
	require.Equal(t, "1000.00", balance())

	// One face, JPEG and PNG: live, charged once, LIVENESS_PASSED.
	s.rest("POST", path+"liveness-check", cred{Bearer: admin}, map[string]any{"selfieImageBase64": onePNG}).decode(t, &o)
	require.True(t, o.IsLive, "%+v", o)
	require.Nil(t, o.FaceMatch)
	require.Equal(t, "LIVENESS_PASSED", o.NewStatus)
	require.Equal(t, "900.00", balance())

	// Biometric verify with the document image: liveness then face match, billed once.
	s.rest("POST", path+"biometric-verify", cred{Bearer: admin}, map[string]any{"selfieImageBase64": oneJPEG,
		"documentImageBase64": onePNG}).decode(t, &o)
	require.Equal(t, "PASSED", o.Decision, "%+v", o)
	require.Nil(t, o.ReasonCode)
	require.True(t, *o.FaceMatch)
	require.Equal(t, "DOCUMENT", o.Reference)
	require.Equal(t, "800.00", balance(), "one liveness check billed, not the face match")
	// A document with no face fails the match after liveness.
	s.rest("POST", path+"biometric-verify", cred{Bearer: admin}, map[string]any{"selfieImageBase64": oneJPEG,
		"documentImageBase64": nonePNG}).decode(t, &o)
	require.Equal(t, "FAILED_MATCH", o.Decision)
	require.Equal(t, "NO_FACE", *o.ReasonCode)

	// Face match needs a verified BVN (409, free); then matches the registry photo, per call.
	requireRESTError(t, s.rest("POST", path+"face-match", cred{Bearer: admin}, map[string]any{"selfieImageBase64": oneJPEG}), 409, "CONFLICT")
	var v verifyOut
	s.verify(admin, a.ID, "bvn", bvnBody(adebayo)).decode(t, &v)
	require.True(t, v.IsMatch)
	before := balance()
	var fm struct {
		IsMatch                  bool
		Confidence               float64
		ReasonCode               *string
		Charged, NewStatus       string
		ResultID, ProviderSource string
	}
	s.rest("POST", path+"face-match", cred{Bearer: admin}, map[string]any{"selfieImageBase64": oneJPEG}).decode(t, &fm)
	require.True(t, fm.IsMatch, "%+v", fm)
	require.Equal(t, "100.00", fm.Charged)
	require.Equal(t, "LIVENESS_PASSED", fm.NewStatus, "a face match never changes the status")
	require.NotEqual(t, before, balance())
	s.rest("POST", path+"face-match", cred{Bearer: admin}, map[string]any{"selfieImageBase64": twoJPEG}).decode(t, &fm)
	require.Equal(t, "MULTIPLE_FACES", *fm.ReasonCode)
	require.Equal(t, "0.00", fm.Charged)

	// Biometric verify without a document uses the registry photo of the verified BVN.
	s.rest("POST", path+"biometric-verify", cred{Bearer: admin}, map[string]any{"selfieImageBase64": oneJPEG}).decode(t, &o)
	require.Equal(t, "PASSED", o.Decision, "%+v", o)
	require.Equal(t, "BVN_REGISTRY_PHOTO", o.Reference)

	// The evidence trail keeps FACE_MATCH entries and never the registry photo.
	env := s.rest("GET", "/api/v1/kyc/applications/"+a.ID, cred{Bearer: admin}, nil)
	require.NotContains(t, string(env.Raw), "photoBase64")
	var d kycApp
	env.decode(t, &d)
	kinds := map[string]int{}
	for _, r := range d.VerificationResults {
		kinds[r.IdentityType]++
	}
	require.GreaterOrEqual(t, kinds["FACE_MATCH"], 3)
	require.GreaterOrEqual(t, kinds["LIVENESS"], 4)
}
