package identity_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/identity/identitytest"
)

func TestDecodeImage(t *testing.T) {
	t.Parallel()
	imgs := identitytest.LoadImages(t)
	jpg, png := identitytest.JPEG(t, imgs.OneFace), identitytest.PNG(t, imgs.OneFace)
	b64 := base64.StdEncoding.EncodeToString
	tiny := identitytest.PNG(t, image.NewGray(image.Rect(0, 0, 8, 8)))
	tests := []struct {
		name       string
		in         string
		wantFormat string
		wantMsg    string
	}{
		{"jpeg", b64(jpg), identity.FormatJPEG, ""},
		{"png", b64(png), identity.FormatPNG, ""},
		{"data url", "data:image/png;base64," + b64(png), identity.FormatPNG, ""},
		{"unpadded", strings.TrimRight(base64.RawStdEncoding.EncodeToString(png), "="), identity.FormatPNG, ""},
		{"empty", "", "", "is required"},
		{"not base64", "!!!not base64!!!", "", "is not valid base64"},
		{"pdf", b64([]byte("%PDF-1.7 hello")), "", "must be a JPEG or PNG image"},
		{"jpeg magic, garbage body", b64(append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, bytes.Repeat([]byte{1}, 64)...)), "", "is not a decodable JPEG image"},
		{"truncated png", b64(png[:len(png)/2]), "", "is not a decodable PNG image"},
		{"too small", b64(tiny), "", "image is too small (at least 32×32 pixels)"},
		{"too large", b64(append(jpg, make([]byte, identity.MaxImageBytes)...)), "", "image is larger than 5 MiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			img, err := identity.DecodeImage("selfieImageBase64", tc.in)
			if tc.wantMsg != "" {
				e, ok := apperr.As(err)
				require.True(t, ok, "got %v", err)
				require.Equal(t, apperr.Validation, e.Code)
				require.Equal(t, []apperr.FieldError{{Field: "selfieImageBase64", Message: tc.wantMsg}}, e.Details)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.wantFormat, img.Format)
			require.Equal(t, "image/"+tc.wantFormat, img.MIMEType())
			require.Equal(t, imgs.OneFace.Bounds().Size(), img.Pixels.Bounds().Size())
			require.Equal(t, tc.wantFormat == identity.FormatJPEG, bytes.Equal(img.Bytes, jpg))
		})
	}
}
