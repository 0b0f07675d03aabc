package document

import (
	"context"
	"io"
	"time"
)

// DownloadTTL is the lifetime of a presigned download URL (docs/design/design-choices.md §7).
const DownloadTTL = 15 * time.Minute

// Blobs is the object store documents live in. internal/fsblob (embedded, on local disk) and
// internal/s3 (S3-compatible) implement it; documenttest.RunBlobsSuite is its conformance suite.
//
// Keys are produced by Key. Implementations may refuse other keys with VALIDATION_ERROR.
type Blobs interface {
	// Put stores the bytes of r under key, replacing any object there, and returns how many bytes
	// it stored. It streams: it never holds the whole of r in memory (an implementation may hold
	// a bounded buffer, such as one multipart part). It reads r until io.EOF; if reading r fails,
	// it returns that error (wrapped) and leaves no object under key that was not there before.
	// contentType is recorded where the store can keep it. Errors: VALIDATION_ERROR for a bad
	// key; anything else is INTERNAL.
	Put(ctx context.Context, key string, r io.Reader, contentType string) (size int64, err error)

	// Get opens the object under key; the caller closes it. Errors: NOT_FOUND when there is no
	// such object, VALIDATION_ERROR for a bad key, otherwise INTERNAL.
	Get(ctx context.Context, key string) (io.ReadCloser, error)

	// Delete removes the object under key. It is idempotent: deleting a missing object succeeds.
	// Errors: VALIDATION_ERROR for a bad key, otherwise INTERNAL.
	Delete(ctx context.Context, key string) error

	// PresignGet returns a URL anyone may GET, without other credentials, for ttl, that
	// downloads the object under key as an attachment named fileName (cleaned by
	// CleanFileName). After ttl the URL is refused. It does not check that the object exists.
	// Errors: VALIDATION_ERROR for a bad key or a ttl below one second, otherwise INTERNAL.
	PresignGet(ctx context.Context, key string, ttl time.Duration, fileName string) (url string, err error)
}
