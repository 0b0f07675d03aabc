package identity

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/jpeg"
	"image/png"
	"strings"

	"github.com/complyd/complyd/internal/apperr"
)

// Image limits. MaxImageBytes bounds the decoded bytes; MaxImagePixels bounds width×height so a
// small file cannot decompress into a huge bitmap.
const (
	MaxImageBytes  = 5 << 20
	MaxImagePixels = 24_000_000
	minImageSide   = 32
)

// Image formats, sniffed from content (magic bytes), never from a name or a data-URL prefix.
const (
	FormatJPEG = "jpeg"
	FormatPNG  = "png"
)

// Image is a decoded, validated JPEG or PNG: its original bytes (sent on to providers), its
// format and its pixels.
type Image struct {
	Format string
	Bytes  []byte
	Pixels image.Image
}

// Base64 returns the original bytes in standard base64, as providers expect them.
func (im Image) Base64() string { return base64.StdEncoding.EncodeToString(im.Bytes) }

// MIMEType returns image/jpeg or image/png.
func (im Image) MIMEType() string { return "image/" + im.Format }

// DecodeImage validates and decodes the base64 image of the request field named field (for
// example "selfieImageBase64"): standard or unpadded base64, optionally as a data URL; at most
// MaxImageBytes decoded; JPEG or PNG by magic bytes; decodable and within MaxImagePixels. Every
// failure is a VALIDATION_ERROR naming field.
func DecodeImage(field, b64 string) (Image, error) {
	data, format, _, err := prepareImage(field, b64)
	if err != nil {
		return Image{}, err
	}
	px, err := decode(format, data)
	if err != nil {
		return Image{}, apperr.Invalid(field, "is not a decodable "+strings.ToUpper(format)+" image")
	}
	return Image{Format: format, Bytes: data, Pixels: px}, nil
}

// prepareImage does every check of DecodeImage that needs no decoding: base64, size, format, and
// the dimensions read from the header.
func prepareImage(field, b64 string) ([]byte, string, image.Config, error) {
	var none image.Config
	s := strings.TrimSpace(b64)
	if s == "" {
		return nil, "", none, apperr.Invalid(field, "is required")
	}
	if strings.HasPrefix(s, "data:") {
		_, after, ok := strings.Cut(s, ",")
		if !ok {
			return nil, "", none, apperr.Invalid(field, "is not valid base64")
		}
		s = after
	}
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	if base64.StdEncoding.DecodedLen(len(s)) > MaxImageBytes+3 {
		return nil, "", none, apperr.Invalid(field, "image is larger than 5 MiB")
	}
	enc := base64.StdEncoding
	if !strings.HasSuffix(s, "=") && len(s)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	data, err := enc.DecodeString(s)
	if err != nil {
		return nil, "", none, apperr.Invalid(field, "is not valid base64")
	}
	if len(data) > MaxImageBytes {
		return nil, "", none, apperr.Invalid(field, "image is larger than 5 MiB")
	}
	format := SniffImageFormat(data)
	if format == "" {
		return nil, "", none, apperr.Invalid(field, "must be a JPEG or PNG image")
	}
	cfg, err := decodeConfig(format, data)
	if err != nil {
		return nil, "", none, apperr.Invalid(field, "is not a decodable "+strings.ToUpper(format)+" image")
	}
	if cfg.Width < minImageSide || cfg.Height < minImageSide {
		return nil, "", none, apperr.Invalid(field, "image is too small (at least 32×32 pixels)")
	}
	if cfg.Width*cfg.Height > MaxImagePixels {
		return nil, "", none, apperr.Invalid(field, "image has too many pixels (at most 24 megapixels)")
	}
	return data, format, cfg, nil
}

// SniffImageFormat returns FormatJPEG or FormatPNG from the magic bytes, or "".
func SniffImageFormat(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return FormatJPEG
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return FormatPNG
	}
	return ""
}

func decodeConfig(format string, data []byte) (image.Config, error) {
	if format == FormatPNG {
		return png.DecodeConfig(bytes.NewReader(data))
	}
	return jpeg.DecodeConfig(bytes.NewReader(data))
}

func decode(format string, data []byte) (image.Image, error) {
	if format == FormatPNG {
		return png.Decode(bytes.NewReader(data))
	}
	return jpeg.Decode(bytes.NewReader(data))
}
