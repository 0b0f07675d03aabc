package identity

import (
	"image"
	"math"
)

// Sandbox-grade biometric thresholds. They are heuristics tuned on ordinary phone selfies, NOT a
// certified presentation-attack detector (ISO/IEC 30107-3) or a face-recognition model; see
// docs/guide/identity-providers.md. Production tenants should use a BYOL provider for LIVENESS and
// FACE_MATCH.
const (
	// LivenessMinFaceRatio: the face box must span at least this share of the image's shorter
	// side (a selfie of "the full face", docs/reference/specification.md 4.4), not a face in a far-away photo.
	LivenessMinFaceRatio = 0.2
	// LivenessMinSharpness is the minimum variance of the Laplacian of the face crop; printed or
	// re-filmed faces are typically blurred and fail it.
	LivenessMinSharpness = 100.0
	// LivenessMinContrast is the minimum standard deviation of the face crop's luma; flat,
	// washed-out screen replays fail it.
	LivenessMinContrast = 20.0
	// FaceMatchThreshold is the default similarity at or above which two faces match.
	FaceMatchThreshold = 0.8

	faceCropSide   = 96
	faceVectorSide = 32
)

// Biometrics is the embedded (sandbox) liveness and face-match engine built on FaceDetector.
type Biometrics struct {
	detector *FaceDetector
}

// NewBiometrics returns the engine using detector.
func NewBiometrics(detector *FaceDetector) *Biometrics {
	if detector == nil {
		panic("identity: NewBiometrics needs a FaceDetector")
	}
	return &Biometrics{detector: detector}
}

// Faces returns the faces detected in img (best first). It is free and local, so callers count
// faces before any paid provider is asked (NO_FACE, MULTIPLE_FACES).
func (b *Biometrics) Faces(img Image) []Face { return b.detector.Detect(img.Pixels) }

// LivenessMetrics are the measurements behind a sandbox liveness answer.
type LivenessMetrics struct {
	Faces      int     `json:"faces"`
	FaceRatio  float64 `json:"faceRatio"`
	Sharpness  float64 `json:"sharpness"`
	Contrast   float64 `json:"contrast"`
	FaceScore  float64 `json:"faceScore"`
	Confidence float64 `json:"confidence"`
}

// Liveness applies the sandbox heuristic: exactly one face (else NO_FACE or MULTIPLE_FACES), the
// face large enough (else LIVENESS_FAILED), and the face crop sharp and contrasted enough (else
// SPOOF_SUSPECTED). Confidence is the mean of the four criteria, each scaled to 0..1 against
// twice its threshold.
func (b *Biometrics) Liveness(img Image) (isLive bool, reason string, m LivenessMetrics) {
	faces := b.Faces(img)
	m.Faces = len(faces)
	switch len(faces) {
	case 0:
		return false, ReasonNoFace, m
	case 1:
	default:
		return false, ReasonMultipleFaces, m
	}
	f := faces[0]
	bounds := img.Pixels.Bounds()
	m.FaceRatio = round4(float64(f.Rect.Dx()) / float64(min(bounds.Dx(), bounds.Dy())))
	crop := faceCrop(img.Pixels, f.Rect, faceCropSide)
	m.Sharpness = round4(laplacianVariance(crop, faceCropSide))
	m.Contrast = round4(stddev(crop))
	m.FaceScore = round4(f.Score)
	m.Confidence = round4((clamp01(m.FaceRatio/(2*LivenessMinFaceRatio)) +
		clamp01(m.Sharpness/(2*LivenessMinSharpness)) +
		clamp01(m.Contrast/(2*LivenessMinContrast)) +
		clamp01(m.FaceScore/(10*DefaultMinFaceScore))) / 4)
	switch {
	case m.FaceRatio < LivenessMinFaceRatio:
		return false, ReasonLivenessFailed, m
	case m.Sharpness < LivenessMinSharpness || m.Contrast < LivenessMinContrast:
		return false, ReasonSpoofSuspected, m
	}
	return true, "", m
}

// FaceSimilarity compares the best face of each image: both crops are resampled to 32×32
// luma, normalised to zero mean and unit variance (so lighting and exposure differences cancel)
// and compared by Pearson correlation, clamped to 0..1. It returns 0 when either image has no
// face. This is pixel correlation, not a face-recognition embedding: it recognises the same photo
// or near-identical captures, and is sandbox-grade only.
func (b *Biometrics) FaceSimilarity(selfie, reference Image) float64 {
	fs, fr := b.Faces(selfie), b.Faces(reference)
	if len(fs) == 0 || len(fr) == 0 {
		return 0
	}
	return CropSimilarity(selfie.Pixels, fs[0].Rect, reference.Pixels, fr[0].Rect)
}

// CropSimilarity is FaceSimilarity's comparison of two given regions, in 0..1. Face boxes from
// two photos never frame a face identically, so the reference crop is searched over small scale
// (±16%) and shift (±8% of the box) changes and the best correlation wins.
func CropSimilarity(a image.Image, ra image.Rectangle, b image.Image, rb image.Rectangle) float64 {
	ga, gb := newFaceGrid(a, ra), newFaceGrid(b, rb)
	va := normalise(ga.sample(0, 0, 1))
	best := 0.0
	for _, scale := range []float64{0.84, 0.92, 1, 1.08, 1.16} {
		for _, dy := range []float64{-0.08, 0, 0.08} {
			for _, dx := range []float64{-0.08, 0, 0.08} {
				vb := normalise(gb.sample(dx, dy, scale))
				var dot float64
				for i := range va {
					dot += va[i] * vb[i]
				}
				best = math.Max(best, dot/float64(len(va)))
			}
		}
	}
	return round4(clamp01(best))
}

// faceGrid is the luma of a face box padded by half its size on each side, resampled once to a
// fixed grid, so the alignment search samples a small array instead of the image.
type faceGrid struct {
	px []float64
}

const (
	gridSide = 128
	gridPad  = 0.5 // padding on each side, in face-box sizes
)

func newFaceGrid(img image.Image, r image.Rectangle) faceGrid {
	pw, ph := int(float64(r.Dx())*gridPad), int(float64(r.Dy())*gridPad)
	return faceGrid{px: faceCrop(img, image.Rect(r.Min.X-pw, r.Min.Y-ph, r.Max.X+pw, r.Max.Y+ph), gridSide)}
}

// sample returns a faceVectorSide² bilinear sampling of the face box shifted by (dx, dy) box
// sizes and scaled by scale around its centre.
func (g faceGrid) sample(dx, dy, scale float64) []float64 {
	box := float64(gridSide) / (1 + 2*gridPad) * scale
	cx := float64(gridSide)/2 + dx*box
	cy := float64(gridSide)/2 + dy*box
	out := make([]float64, faceVectorSide*faceVectorSide)
	for y := range faceVectorSide {
		for x := range faceVectorSide {
			fx := cx - box/2 + (float64(x)+0.5)*box/faceVectorSide - 0.5
			fy := cy - box/2 + (float64(y)+0.5)*box/faceVectorSide - 0.5
			out[y*faceVectorSide+x] = g.at(fx, fy)
		}
	}
	return out
}

func (g faceGrid) at(fx, fy float64) float64 {
	fx = math.Max(0, math.Min(gridSide-1.001, fx))
	fy = math.Max(0, math.Min(gridSide-1.001, fy))
	x0, y0 := int(fx), int(fy)
	tx, ty := fx-float64(x0), fy-float64(y0)
	p := func(x, y int) float64 { return g.px[y*gridSide+x] }
	top := p(x0, y0)*(1-tx) + p(x0+1, y0)*tx
	bot := p(x0, y0+1)*(1-tx) + p(x0+1, y0+1)*tx
	return top*(1-ty) + bot*ty
}

// faceCrop box-resamples rectangle r of img to a side×side luma grid; pixels outside img repeat
// its edge.
func faceCrop(img image.Image, r image.Rectangle, side int) []float64 {
	out := make([]float64, side*side)
	b := img.Bounds()
	for y := range side {
		y0 := r.Min.Y + y*r.Dy()/side
		y1 := max(r.Min.Y+(y+1)*r.Dy()/side, y0+1)
		for x := range side {
			x0 := r.Min.X + x*r.Dx()/side
			x1 := max(r.Min.X+(x+1)*r.Dx()/side, x0+1)
			var sum float64
			var n int
			for yy := y0; yy < y1; yy++ {
				for xx := x0; xx < x1; xx++ {
					sum += float64(luma(img, clampInt(xx, b.Min.X, b.Max.X-1), clampInt(yy, b.Min.Y, b.Max.Y-1)))
					n++
				}
			}
			out[y*side+x] = sum / float64(n)
		}
	}
	return out
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func stddev(v []float64) float64 {
	m := mean(v)
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)))
}

func normalise(v []float64) []float64 {
	m, sd := mean(v), stddev(v)
	out := make([]float64, len(v))
	if sd == 0 {
		return out
	}
	for i, x := range v {
		out[i] = (x - m) / sd
	}
	return out
}

// laplacianVariance is the variance of the 4-neighbour Laplacian over the interior of a side×side
// grid, the usual focus measure.
func laplacianVariance(v []float64, side int) float64 {
	var lap []float64
	for y := 1; y < side-1; y++ {
		for x := 1; x < side-1; x++ {
			i := y*side + x
			lap = append(lap, v[i-1]+v[i+1]+v[i-side]+v[i+side]-4*v[i])
		}
	}
	sd := stddev(lap)
	return sd * sd
}

func clampInt(v, lo, hi int) int { return max(lo, min(hi, v)) }

func clamp01(f float64) float64 { return math.Max(0, math.Min(1, f)) }
