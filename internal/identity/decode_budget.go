package identity

import (
	"context"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/complyd/complyd/internal/apperr"
)

// DecodeBudget bounds the memory that image decodes in flight may hold at once. A small file can
// decode into a large bitmap (a 116 KB PNG of 40 megapixels takes 160 to 320 MB decoded), and the
// liveness and face-match calls that decode them are free until a provider answers, so without a
// bound a handful of concurrent requests could exhaust the process's memory. Each decode reserves
// its estimated size before it starts and keeps it until the caller has finished with the pixels.
type DecodeBudget struct {
	sem   *semaphore.Weighted
	total int64
	wait  time.Duration
}

// DefaultDecodeBudget is the default memory for decoded images in flight: 512 MiB, room for a few
// full-size selfies at once and for one image at the pixel limit.
const DefaultDecodeBudget = 512 << 20

// NewDecodeBudget returns a budget of total bytes; a decode that cannot get its share within wait
// is refused with 503 SERVICE_UNAVAILABLE and a Retry-After.
func NewDecodeBudget(total int64, wait time.Duration) *DecodeBudget {
	if total <= 0 {
		total = DefaultDecodeBudget
	}
	return &DecodeBudget{sem: semaphore.NewWeighted(total), total: total, wait: wait}
}

// decodedBytes estimates the memory of decoding w×h pixels: up to 8 bytes a pixel (16-bit RGBA
// PNG), plus the face detector's 1-byte grayscale copy.
func decodedBytes(w, h int) int64 { return int64(w) * int64(h) * 9 }

// Decode is DecodeImage under the budget. The returned release must be called once the image's
// pixels are no longer used; it is a no-op after an error.
func (b *DecodeBudget) Decode(ctx context.Context, field, b64 string) (Image, func(), error) {
	data, format, cfg, err := prepareImage(field, b64)
	if err != nil {
		return Image{}, func() {}, err
	}
	need := min(decodedBytes(cfg.Width, cfg.Height), b.total)
	wctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	if err := b.sem.Acquire(wctx, need); err != nil {
		e := apperr.New(apperr.Unavailable, "image decoding is at capacity; retry shortly")
		e.RetryAfter = time.Second
		return Image{}, func() {}, e
	}
	release := func() { b.sem.Release(need) }
	px, err := decode(format, data)
	if err != nil {
		release()
		return Image{}, func() {}, apperr.Invalid(field, "is not a decodable "+format+" image")
	}
	return Image{Format: format, Bytes: data, Pixels: px}, release, nil
}
