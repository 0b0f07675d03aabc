package identitytest

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/identity"
)

// Images are real test images: OneFace is the registry photo of BVN 22234567801 (a small JPEG
// derived from pigo's testdata/sample.jpg), TwoFaces is two copies side by side, NoFace a smooth
// colour gradient, and Blurred the face box-blurred, as a re-filmed or printed face would be.
type Images struct {
	OneFace  image.Image
	TwoFaces image.Image
	NoFace   image.Image
	Blurred  image.Image
}

// LoadImages builds Images from the default sandbox registry.
func LoadImages(t testing.TB) Images {
	t.Helper()
	p, ok := identity.DefaultRegistry().LookupBVN("22234567801")
	require.True(t, ok)
	data, err := base64.StdEncoding.DecodeString(p.PhotoBase64)
	require.NoError(t, err)
	face, err := jpeg.Decode(bytes.NewReader(data))
	require.NoError(t, err)

	b := face.Bounds()
	two := image.NewRGBA(image.Rect(0, 0, 2*b.Dx(), b.Dy()))
	draw.Draw(two, b.Sub(b.Min), face, b.Min, draw.Src)
	draw.Draw(two, b.Sub(b.Min).Add(image.Pt(b.Dx(), 0)), face, b.Min, draw.Src)

	grad := image.NewRGBA(image.Rect(0, 0, 240, 300))
	for y := range 300 {
		for x := range 240 {
			grad.Set(x, y, color.RGBA{uint8(x * 255 / 240), uint8(y * 255 / 300), 140, 255})
		}
	}
	return Images{OneFace: face, TwoFaces: two, NoFace: grad, Blurred: boxBlur(face, 4)}
}

func boxBlur(src image.Image, radius int) image.Image {
	b := src.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var r, g, bl, n uint32
			for dy := -radius; dy <= radius; dy++ {
				for dx := -radius; dx <= radius; dx++ {
					if !image.Pt(x+dx, y+dy).In(b) {
						continue
					}
					cr, cg, cb, _ := src.At(x+dx, y+dy).RGBA()
					r, g, bl, n = r+cr>>8, g+cg>>8, bl+cb>>8, n+1
				}
			}
			out.Set(x, y, color.RGBA{uint8(r / n), uint8(g / n), uint8(bl / n), 255})
		}
	}
	return out
}

// JPEG encodes img as JPEG (quality 90).
func JPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}))
	return buf.Bytes()
}

// PNG encodes img as PNG.
func PNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// Decode runs identity.DecodeImage over the base64 of data, failing the test on error.
func Decode(t testing.TB, data []byte) identity.Image {
	t.Helper()
	img, err := identity.DecodeImage("image", base64.StdEncoding.EncodeToString(data))
	require.NoError(t, err)
	return img
}
