package identity_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/identity"
)

// bigPNG is a uniform grey PNG of w×h pixels: a few kilobytes that decode into w×h bytes or more.
func bigPNG(t *testing.T, w, h int) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))))
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestDecodeImagePixelBomb: a small file of 39.9 megapixels is refused from its header, before
// anything is decoded (issue 12 finding 6: eight of them at once took 3.8 GB).
func TestDecodeImagePixelBomb(t *testing.T) {
	t.Parallel()
	b64 := bigPNG(t, 7000, 5700) // 39.9 MP
	require.Less(t, len(b64), 200<<10)
	start := time.Now()
	_, err := identity.DecodeImage("selfieImageBase64", b64)
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	require.Less(t, time.Since(start), time.Second)
}

// TestDecodeBudget: decodes in flight hold their estimated memory until released; one that
// cannot get room within the wait is refused with SERVICE_UNAVAILABLE and a Retry-After.
func TestDecodeBudget(t *testing.T) {
	t.Parallel()
	b64 := bigPNG(t, 4000, 5000) // 20 MP: an estimated 180 MB decoded
	budget := identity.NewDecodeBudget(200<<20, 100*time.Millisecond)
	img, release, err := budget.Decode(context.Background(), "selfieImageBase64", b64)
	require.NoError(t, err)
	require.Equal(t, 4000, img.Pixels.Bounds().Dx())

	_, _, err = budget.Decode(context.Background(), "selfieImageBase64", b64)
	require.Equal(t, apperr.Unavailable, apperr.CodeOf(err))
	e, _ := apperr.As(err)
	require.Equal(t, time.Second, e.RetryAfter)

	release()
	_, release2, err := budget.Decode(context.Background(), "selfieImageBase64", b64)
	require.NoError(t, err)
	release2()
}
