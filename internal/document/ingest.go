package document

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// MaxUploadBytes is the largest document accepted: 10 MiB (docs/design/design-choices.md §7).
const MaxUploadBytes int64 = 10 << 20

// cleanupTimeout bounds the delete of a partial object, which runs even when ctx is done.
const cleanupTimeout = 30 * time.Second

// Stored describes the bytes Ingest stored.
type Stored struct {
	Size     int64
	MimeType string // MIMEJPEG, MIMEPNG or MIMEPDF
	SHA256   string // lowercase hex
}

// errTooLarge is what limitReader returns to the store once the limit is passed; Ingest turns
// it into PAYLOAD_TOO_LARGE.
var errTooLarge = errors.New("upload exceeds size limit")

// Ingest stores an upload read from r under key in blobs. It sniffs the first bytes (JPEG, PNG
// or PDF, by content only), then streams everything through a SHA-256 hashing reader that
// refuses to yield more than limit bytes (limit <= 0 means MaxUploadBytes). Nothing is buffered
// beyond the SniffLen-byte head.
//
// Errors: UNSUPPORTED_MEDIA_TYPE (415) when the content is not JPEG, PNG or PDF (nothing is
// written); PAYLOAD_TOO_LARGE (413, data {limitBytes}) when r holds more than limit bytes; ctx's
// error when ctx ends; the wrapped read or store error otherwise (INTERNAL). On every failure
// after Put started, Ingest deletes key (with a fresh, bounded context when ctx is done), so
// no partial or orphaned object stays behind.
func Ingest(ctx context.Context, blobs Blobs, key string, r io.Reader, limit int64) (Stored, error) {
	if limit <= 0 {
		limit = MaxUploadBytes
	}
	head := make([]byte, SniffLen)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return Stored{}, fmt.Errorf("read upload: %w", err)
	}
	head = head[:n]
	mime := Sniff(head)
	if mime == "" {
		return Stored{}, apperr.New(apperr.UnsupportedMediaType, "only JPEG, PNG and PDF documents are accepted")
	}
	if int64(n) > limit {
		return Stored{}, tooLarge(limit)
	}

	lr := &limitReader{ctx: ctx, r: io.MultiReader(bytes.NewReader(head), r), limit: limit, h: sha256.New()}
	size, err := blobs.Put(ctx, key, lr, mime)
	switch {
	case err == nil && !lr.eof:
		// A store that returns before EOF would have stored a truncated file.
		err = fmt.Errorf("store stopped after %d of the upload's bytes", lr.n)
	case err == nil && size != lr.n:
		err = fmt.Errorf("store reported %d bytes, %d were read", size, lr.n)
	}
	if err != nil {
		if derr := deletePartial(ctx, blobs, key); derr != nil {
			err = errors.Join(err, derr)
		}
		switch {
		case lr.tooLarge:
			return Stored{}, tooLarge(limit)
		case ctx.Err() != nil:
			return Stored{}, fmt.Errorf("store upload: %w", ctx.Err())
		}
		return Stored{}, fmt.Errorf("store upload: %w", err)
	}
	return Stored{Size: size, MimeType: mime, SHA256: hex.EncodeToString(lr.h.Sum(nil))}, nil
}

func tooLarge(limit int64) error {
	return apperr.Newf(apperr.PayloadTooLarge, "document exceeds the %d-byte limit", limit).
		WithData(map[string]any{"limitBytes": limit})
}

func deletePartial(ctx context.Context, blobs Blobs, key string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if err := blobs.Delete(ctx, key); err != nil {
		return fmt.Errorf("delete partial object: %w", err)
	}
	return nil
}

// limitReader hashes and counts what it yields, fails once more than limit bytes arrive, and
// stops as soon as ctx ends, so a store that ignores ctx still stops reading.
type limitReader struct {
	ctx      context.Context
	r        io.Reader
	limit    int64
	h        hash.Hash
	n        int64
	eof      bool
	tooLarge bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if err := l.ctx.Err(); err != nil {
		return 0, err
	}
	if l.tooLarge {
		return 0, errTooLarge
	}
	// Read at most one byte past the limit: enough to know it was passed.
	if rest := l.limit + 1 - l.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := l.r.Read(p)
	if l.n+int64(n) > l.limit {
		n = int(l.limit - l.n)
		l.tooLarge = true
		err = errTooLarge
	}
	l.n += int64(n)
	l.h.Write(p[:n])
	if errors.Is(err, io.EOF) {
		l.eof = true
	}
	return n, err
}
