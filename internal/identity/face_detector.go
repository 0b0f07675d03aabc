package identity

import (
	_ "embed"
	"fmt"
	"image"
	"slices"

	pigo "github.com/esimov/pigo/core"
)

// facefinderCascade is pigo's pico face cascade, copied from github.com/esimov/pigo v1.4.6
// (MIT, Copyright (c) 2018 Endre Simo; see cascade/LICENSE).
//
//go:embed cascade/facefinder
var facefinderCascade []byte

// Face detection tuning. Detection runs on a grayscale copy whose longer side is at most
// detectMaxSide pixels, which keeps a 12-megapixel selfie to a few milliseconds.
const (
	detectMaxSide = 640
	// DefaultMinFaceScore is the pigo cluster score below which a detection is noise. A clear,
	// frontal face scores in the hundreds; textures and backgrounds rarely pass 20.
	DefaultMinFaceScore = 20
	clusterIoU          = 0.2
	dedupeIoU           = 0.3
)

// Face is one detected face: its square box in the image's coordinates and its detection score.
type Face struct {
	Rect  image.Rectangle
	Score float64
}

// FaceDetector finds frontal faces with pigo. It is safe for concurrent use: the unpacked cascade
// is read-only.
type FaceDetector struct {
	classifier *pigo.Pigo
	minScore   float64
}

// NewFaceDetector unpacks the embedded cascade. minScore ≤ 0 means DefaultMinFaceScore.
func NewFaceDetector(minScore float64) (*FaceDetector, error) {
	c, err := pigo.NewPigo().Unpack(facefinderCascade)
	if err != nil {
		return nil, fmt.Errorf("unpack face cascade: %w", err)
	}
	if minScore <= 0 {
		minScore = DefaultMinFaceScore
	}
	return &FaceDetector{classifier: c, minScore: minScore}, nil
}

// Detect returns the faces in img, best first. pigo's own clustering merges overlapping
// detections at IoU 0.2; a second pass drops any remaining box that overlaps a better one at
// IoU 0.3 or has its centre inside it (a face inside a face is the same face at another scale),
// and boxes scoring below the quality threshold are dropped.
func (d *FaceDetector) Detect(img image.Image) []Face {
	gray, w, h, scale := grayDownscaled(img, detectMaxSide)
	if w < minImageSide || h < minImageSide {
		return nil
	}
	minSide := min(w, h)
	params := pigo.CascadeParams{
		MinSize:     max(20, minSide/10),
		MaxSize:     max(w, h),
		ShiftFactor: 0.1,
		ScaleFactor: 1.1,
		ImageParams: pigo.ImageParams{Pixels: gray, Rows: h, Cols: w, Dim: w},
	}
	dets := d.classifier.ClusterDetections(d.classifier.RunCascade(params, 0), clusterIoU)
	var faces []Face
	for _, det := range dets {
		if float64(det.Q) < d.minScore {
			continue
		}
		half := det.Scale / 2
		r := image.Rect(det.Col-half, det.Row-half, det.Col+half, det.Row+half)
		r = image.Rect(int(float64(r.Min.X)*scale), int(float64(r.Min.Y)*scale),
			int(float64(r.Max.X)*scale), int(float64(r.Max.Y)*scale)).Add(img.Bounds().Min)
		faces = append(faces, Face{Rect: r.Intersect(img.Bounds()), Score: float64(det.Q)})
	}
	slices.SortFunc(faces, func(a, b Face) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	kept := faces[:0]
	for _, f := range faces {
		dup := false
		for _, k := range kept {
			c := image.Pt((f.Rect.Min.X+f.Rect.Max.X)/2, (f.Rect.Min.Y+f.Rect.Max.Y)/2)
			if iou(f.Rect, k.Rect) > dedupeIoU || c.In(k.Rect) {
				dup = true
				break
			}
		}
		if !dup {
			kept = append(kept, f)
		}
	}
	return kept
}

func iou(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	if in.Empty() {
		return 0
	}
	ia := float64(in.Dx() * in.Dy())
	return ia / (float64(a.Dx()*a.Dy()+b.Dx()*b.Dy()) - ia)
}

// grayDownscaled converts img to 8-bit luma, box-averaging it down so the longer side is at most
// maxSide. It returns the pixels, their width and height, and the factor from the small
// coordinates back to img's.
func grayDownscaled(img image.Image, maxSide int) ([]uint8, int, int, float64) {
	b := img.Bounds()
	step := 1
	for max(b.Dx(), b.Dy())/step > maxSide {
		step++
	}
	w, h := b.Dx()/step, b.Dy()/step
	out := make([]uint8, w*h)
	for y := range h {
		for x := range w {
			var sum, n uint32
			for dy := range step {
				for dx := range step {
					sum += luma(img, b.Min.X+x*step+dx, b.Min.Y+y*step+dy)
					n++
				}
			}
			out[y*w+x] = uint8(sum / n)
		}
	}
	return out, w, h, float64(step)
}

// luma is the Rec. 601 luma of one pixel in 0..255.
func luma(img image.Image, x, y int) uint32 {
	r, g, bl, _ := img.At(x, y).RGBA()
	return (299*r + 587*g + 114*bl) / 1000 >> 8
}
