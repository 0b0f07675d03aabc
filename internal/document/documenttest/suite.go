// Package documenttest is the conformance suite for document.Blobs: every object store
// (internal/fsblob, internal/s3) runs RunBlobsSuite against a real instance, and presigned URLs
// are fetched over real HTTP.
//
// It is test support: it imports testing, net/http and testify, and only _test.go files may
// import it.
package documenttest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document"
)

// Harness is one store under test.
type Harness struct {
	// Blobs is the store. Each call of the suite's newHarness may share one store: every subtest
	// uses keys of its own.
	Blobs document.Blobs
	// Client fetches presigned URLs; nil means http.DefaultClient.
	Client *http.Client
}

// RunBlobsSuite runs the Blobs conformance tests as parallel subtests of t. newHarness is called
// once per subtest.
func RunBlobsSuite(t *testing.T, newHarness func(t *testing.T) Harness) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"PutGetExactBytes", testPutGetExactBytes},
		{"PutGetLargeFile", testPutGetLargeFile},
		{"PutReplaces", testPutReplaces},
		{"GetMissingIsNotFound", testGetMissing},
		{"DeleteIdempotent", testDeleteIdempotent},
		{"PutReadErrorLeavesNothing", testPutReadError},
		{"PresignedDownload", testPresignedDownload},
		{"PresignedLinkExpires", testPresignedExpires},
		{"UnsignedOrForeignLinkRefused", testUnsignedRefused},
		{"IngestStoresAndHashes", testIngestOK},
		{"IngestOversizeLeavesNothing", testIngestOversize},
		{"IngestBadTypeLeavesNothing", testIngestBadType},
		{"IngestReadErrorLeavesNothing", testIngestReadError},
		{"IngestCancelLeavesNothing", testIngestCancel},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newHarness(t))
		})
	}
}

// pdfMagic and pngMagic start content that Ingest accepts.
var (
	pdfMagic = []byte("%PDF-1.7\n")
	pngMagic = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}
)

// newKey returns a fresh key in the document.Key layout.
func newKey(t *testing.T) string {
	t.Helper()
	key, err := document.Key("00000000-0000-4000-8000-000000000001", document.OwnerKYC, "kyc_test", document.NewID())
	require.NoError(t, err)
	return key
}

// content returns magic followed by random bytes, size bytes in all.
func content(t *testing.T, magic []byte, size int) []byte {
	t.Helper()
	b := make([]byte, size)
	_, _ = rand.Read(b)
	copy(b, magic)
	return b
}

func put(t *testing.T, h Harness, key string, data []byte, contentType string) {
	t.Helper()
	// onlyReader hides bytes.Reader's Seek/Len/WriteTo so stores must really stream.
	n, err := h.Blobs.Put(t.Context(), key, onlyReader{bytes.NewReader(data)}, contentType)
	require.NoError(t, err)
	require.Equal(t, int64(len(data)), n)
}

func requireObject(t *testing.T, h Harness, key string, want []byte) {
	t.Helper()
	rc, err := h.Blobs.Get(t.Context(), key)
	require.NoError(t, err)
	defer rc.Close()
	got, err := io.ReadAll(rc)
	require.NoError(t, err)
	require.Equal(t, len(want), len(got))
	require.Equal(t, sha256.Sum256(want), sha256.Sum256(got))
}

func requireNoObject(t *testing.T, h Harness, key string) {
	t.Helper()
	rc, err := h.Blobs.Get(t.Context(), key)
	if err == nil {
		rc.Close()
	}
	require.Error(t, err, "object %s must not exist", key)
	require.Equal(t, apperr.NotFound, apperr.CodeOf(err), "%v", err)
}

func get(t *testing.T, h Harness, u string) *http.Response {
	t.Helper()
	c := h.Client
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, u, nil)
	require.NoError(t, err)
	resp, err := c.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func requireRefused(t *testing.T, resp *http.Response, allowed ...int) {
	t.Helper()
	_, _ = io.Copy(io.Discard, resp.Body)
	require.Contains(t, allowed, resp.StatusCode, "status %s", resp.Status)
}

func testPutGetExactBytes(t *testing.T, h Harness) {
	for _, size := range []int{0, 1, 4096, 64<<10 + 3} {
		key := newKey(t)
		data := content(t, nil, size)
		put(t, h, key, data, "application/octet-stream")
		requireObject(t, h, key, data)
	}
}

func testPutGetLargeFile(t *testing.T, h Harness) {
	key := newKey(t)
	data := content(t, pdfMagic, int(document.MaxUploadBytes)-1) // 10 MiB - 1: several parts
	put(t, h, key, data, document.MIMEPDF)
	requireObject(t, h, key, data)
}

func testPutReplaces(t *testing.T, h Harness) {
	key := newKey(t)
	put(t, h, key, []byte("first version"), "text/plain")
	second := []byte("second")
	put(t, h, key, second, "text/plain")
	requireObject(t, h, key, second)
}

func testGetMissing(t *testing.T, h Harness) {
	requireNoObject(t, h, newKey(t))
}

func testDeleteIdempotent(t *testing.T, h Harness) {
	ctx := t.Context()
	key := newKey(t)
	put(t, h, key, []byte("to be deleted"), "text/plain")
	require.NoError(t, h.Blobs.Delete(ctx, key))
	requireNoObject(t, h, key)
	require.NoError(t, h.Blobs.Delete(ctx, key))
	require.NoError(t, h.Blobs.Delete(ctx, newKey(t)), "deleting a key never written succeeds")
}

func testPutReadError(t *testing.T, h Harness) {
	key := newKey(t)
	boom := errors.New("client went away")
	r := &failingReader{r: bytes.NewReader(content(t, pdfMagic, 6<<20)), failAfter: 6<<20 - 1000, err: boom}
	_, err := h.Blobs.Put(t.Context(), key, r, document.MIMEPDF)
	require.ErrorIs(t, err, boom)
	requireNoObject(t, h, key)
}

func testPresignedDownload(t *testing.T, h Harness) {
	key := newKey(t)
	data := content(t, pdfMagic, 300<<10)
	put(t, h, key, data, document.MIMEPDF)

	u, err := h.Blobs.PresignGet(t.Context(), key, document.DownloadTTL, "Passport scan (front).pdf")
	require.NoError(t, err)
	resp := get(t, h, u)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, sha256.Sum256(data), sha256.Sum256(got))
	require.Equal(t, document.MIMEPDF, resp.Header.Get("Content-Type"))
	require.Equal(t, int64(len(data)), resp.ContentLength)
	cd := resp.Header.Get("Content-Disposition")
	require.True(t, strings.HasPrefix(cd, "attachment"), cd)
	require.Contains(t, cd, "Passport scan (front).pdf")
}

func testPresignedExpires(t *testing.T, h Harness) {
	key := newKey(t)
	put(t, h, key, content(t, pngMagic, 1000), document.MIMEPNG)

	_, err := h.Blobs.PresignGet(t.Context(), key, 500*time.Millisecond, "x.png")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err), "a ttl below one second is refused")

	u, err := h.Blobs.PresignGet(t.Context(), key, 2*time.Second, "x.png")
	require.NoError(t, err)
	resp := get(t, h, u)
	require.Equal(t, http.StatusOK, resp.StatusCode, "fresh link works")
	_, _ = io.Copy(io.Discard, resp.Body)

	time.Sleep(4 * time.Second)
	requireRefused(t, get(t, h, u), http.StatusForbidden, http.StatusGone)
}

func testUnsignedRefused(t *testing.T, h Harness) {
	ctx := t.Context()
	key, other := newKey(t), newKey(t)
	put(t, h, key, content(t, pdfMagic, 1000), document.MIMEPDF)
	put(t, h, other, content(t, pdfMagic, 1000), document.MIMEPDF)

	u, err := h.Blobs.PresignGet(ctx, key, time.Minute, "a.pdf")
	require.NoError(t, err)
	parsed, err := url.Parse(u)
	require.NoError(t, err)

	unsigned := *parsed
	unsigned.RawQuery = ""
	requireRefused(t, get(t, h, unsigned.String()), http.StatusForbidden, http.StatusUnauthorized)

	// The same signature does not open another object.
	foreign := *parsed
	foreign.Path = strings.Replace(parsed.Path, key, other, 1)
	foreign.RawPath = ""
	require.NotEqual(t, parsed.Path, foreign.Path)
	requireRefused(t, get(t, h, foreign.String()), http.StatusForbidden)
}

func testIngestOK(t *testing.T, h Harness) {
	key := newKey(t)
	data := content(t, pdfMagic, int(document.MaxUploadBytes)) // exactly at the limit
	st, err := document.Ingest(t.Context(), h.Blobs, key, onlyReader{bytes.NewReader(data)}, 0)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	require.Equal(t, document.Stored{Size: int64(len(data)), MimeType: document.MIMEPDF, SHA256: hex.EncodeToString(sum[:])}, st)
	requireObject(t, h, key, data)
}

func testIngestOversize(t *testing.T, h Harness) {
	key := newKey(t)
	data := content(t, pngMagic, int(document.MaxUploadBytes)+1)
	_, err := document.Ingest(t.Context(), h.Blobs, key, onlyReader{bytes.NewReader(data)}, 0)
	require.Equal(t, apperr.PayloadTooLarge, apperr.CodeOf(err), "%v", err)
	requireNoObject(t, h, key)
}

func testIngestBadType(t *testing.T, h Harness) {
	key := newKey(t)
	data := content(t, []byte("GIF89a"), 2000)
	_, err := document.Ingest(t.Context(), h.Blobs, key, bytes.NewReader(data), 0)
	require.Equal(t, apperr.UnsupportedMediaType, apperr.CodeOf(err), "%v", err)
	requireNoObject(t, h, key)
}

func testIngestReadError(t *testing.T, h Harness) {
	key := newKey(t)
	boom := errors.New("connection reset")
	r := &failingReader{r: bytes.NewReader(content(t, pdfMagic, 7<<20)), failAfter: 6 << 20, err: boom}
	_, err := document.Ingest(t.Context(), h.Blobs, key, r, 0)
	require.ErrorIs(t, err, boom)
	requireNoObject(t, h, key)
}

func testIngestCancel(t *testing.T, h Harness) {
	key := newKey(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r := &failingReader{r: bytes.NewReader(content(t, pdfMagic, 8<<20)), failAfter: 6 << 20, onFail: cancel}
	_, err := document.Ingest(ctx, h.Blobs, key, r, 0)
	require.ErrorIs(t, err, context.Canceled)
	requireNoObject(t, h, key)
}

// onlyReader exposes nothing but Read.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// failingReader yields failAfter bytes of r, then calls onFail (if set) and returns err
// (context.Canceled when err is nil).
type failingReader struct {
	r         io.Reader
	failAfter int
	err       error
	onFail    func()
	n         int
}

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n >= f.failAfter {
		if f.onFail != nil {
			f.onFail()
		}
		if f.err != nil {
			return 0, f.err
		}
		return 0, context.Canceled
	}
	if rest := f.failAfter - f.n; len(p) > rest {
		p = p[:rest]
	}
	n, err := f.r.Read(p)
	f.n += n
	return n, err
}
