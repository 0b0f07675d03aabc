package identity_test

import (
	"bytes"
	"encoding/base64"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/identity"
)

// FuzzDecodeImage is the fuzz target of the liveness, face-match and biometric image path: the
// base64 field of the request goes through DecodeImage, then the face detector and the liveness
// and similarity heuristics. Seeds (tiny JPEGs and PNGs, a highly compressible large PNG) are in
// testdata/fuzz/FuzzDecodeImage/.

// Bytes per pixel a decode may allocate: the widest Go image type (NRGBA64, 8 B/px) twice over
// for an interlaced PNG's passes, plus a progressive JPEG's coefficient blocks (4 B per sample,
// up to 4 components).
const decodeBytesPerPixel = 32

// biometrics is built once (unpacking the cascade is slow); Biometrics is safe for concurrent use.
var biometrics = sync.OnceValue(func() *identity.Biometrics {
	d, err := identity.NewFaceDetector(0)
	if err != nil {
		panic(err)
	}
	return identity.NewBiometrics(d)
})

// FuzzDecodeImage feeds data to DecodeImage, encoded as the mode byte says (standard or unpadded
// base64, a data URL, wrapped lines, or data itself taken as the base64 text), and checks:
//   - a refusal is a VALIDATION_ERROR naming the field, never a panic or another error;
//   - an accepted image is JPEG or PNG by its magic bytes, at most MaxImageBytes, at least
//     32×32 and at most MaxImagePixels, with pixels of the size its header declares;
//   - the decode allocated no more than decodeBytesPerPixel per declared pixel (bounded by
//     MaxImagePixels) plus a constant: a small file cannot make it allocate more;
//   - for images up to 4 megapixels, liveness and face similarity answer numbers in 0..1.
func FuzzDecodeImage(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		const field = "selfieImageBase64"
		var in string
		switch mode % 5 {
		case 0:
			in = base64.StdEncoding.EncodeToString(data)
		case 1:
			in = base64.RawStdEncoding.EncodeToString(data)
		case 2:
			in = "data:image/png;base64," + base64.StdEncoding.EncodeToString(data)
		case 3:
			s := base64.StdEncoding.EncodeToString(data)
			var b strings.Builder
			for len(s) > 76 {
				b.WriteString(s[:76] + "\r\n")
				s = s[76:]
			}
			b.WriteString(s)
			in = b.String()
		case 4:
			in = string(data)
		}

		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		img, err := identity.DecodeImage(field, in)
		runtime.ReadMemStats(&after)

		if err != nil {
			e, ok := apperr.As(err)
			if !ok || e.Code != apperr.Validation || len(e.Details) != 1 || e.Details[0].Field != field {
				t.Fatalf("refusal is not a VALIDATION_ERROR naming %s: %#v", field, err)
			}
			// A refused input may still have been decoded up to its fault: bound it by the
			// largest image DecodeImage lets through to the decoder.
			budget := uint64(16<<20) + 8*uint64(len(in)) + decodeBytesPerPixel*identity.MaxImagePixels
			if n := after.TotalAlloc - before.TotalAlloc; n > budget {
				t.Fatalf("refused input allocated %d bytes, budget %d", n, budget)
			}
			return
		}

		switch {
		case img.Format == identity.FormatJPEG && bytes.HasPrefix(img.Bytes, []byte{0xFF, 0xD8, 0xFF}):
		case img.Format == identity.FormatPNG && bytes.HasPrefix(img.Bytes, []byte("\x89PNG\r\n\x1a\n")):
		default:
			t.Fatalf("accepted format %q with magic %q", img.Format, img.Bytes[:min(8, len(img.Bytes))])
		}
		if len(img.Bytes) > identity.MaxImageBytes {
			t.Fatalf("accepted %d bytes", len(img.Bytes))
		}
		b := img.Pixels.Bounds()
		w, h := b.Dx(), b.Dy()
		if w < 32 || h < 32 || w*h > identity.MaxImagePixels {
			t.Fatalf("accepted a %d×%d image", w, h)
		}
		budget := uint64(16<<20) + 8*uint64(len(in)) + decodeBytesPerPixel*uint64(w*h)
		if n := after.TotalAlloc - before.TotalAlloc; n > budget {
			t.Fatalf("decoding a %d×%d image allocated %d bytes, budget %d", w, h, n, budget)
		}
		if w*h > 4_000_000 {
			return // the heuristics' cost is linear in pixels; keep the fuzzer fast
		}
		bio := biometrics()
		_, _, m := bio.Liveness(img)
		for name, v := range map[string]float64{"confidence": m.Confidence, "faceRatio": m.FaceRatio} {
			if math.IsNaN(v) || v < 0 || (name == "confidence" && v > 1) {
				t.Fatalf("liveness %s = %v", name, v)
			}
		}
		if s := bio.FaceSimilarity(img, img); math.IsNaN(s) || s < 0 || s > 1 {
			t.Fatalf("face similarity %v", s)
		}
	})
}
