package fsblob_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/document/documenttest"
	"github.com/complyd/complyd/internal/fsblob"
)

var secret = bytes.Repeat([]byte("k"), fsblob.MinSecretLen)

type testBundle struct {
	store *fsblob.Store
	dir   string
	srv   *httptest.Server
	now   atomic.Int64 // unix seconds; 0 means the real clock
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	b := &testBundle{dir: t.TempDir()}
	var h http.Handler
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(b.srv.Close)
	clock := func() time.Time {
		if n := b.now.Load(); n != 0 {
			return time.Unix(n, 0)
		}
		return time.Now()
	}
	s, err := fsblob.NewStore(b.dir, b.srv.URL, secret, fsblob.WithClock(clock))
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("GET /blobs/", fsblob.Handler(s))
	mux.Handle("HEAD /blobs/", fsblob.Handler(s))
	h = mux
	b.store = s
	return b
}

func TestStoreConformance(t *testing.T) {
	t.Parallel()
	b := setup(t) // one store shared by all subtests, as in production
	documenttest.RunBlobsSuite(t, func(t *testing.T) documenttest.Harness {
		return documenttest.Harness{Blobs: b.store, Client: b.srv.Client()}
	})
	t.Cleanup(func() {
		// No staged temp files survive, whatever failed half way.
		entries, err := os.ReadDir(filepath.Join(b.dir, "tmp"))
		require.NoError(t, err)
		require.Empty(t, entries)
	})
}

func TestNewStoreRejectsShortSecret(t *testing.T) {
	t.Parallel()
	_, err := fsblob.NewStore(t.TempDir(), "http://x", []byte("short"))
	require.Error(t, err)
}

func TestKeysCannotEscape(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	for _, key := range []string{
		"", "/abs", "../outside", "a/../../outside", "a//b", "a/./b", `a\..\b`, "a/b/", "a|b", "a b", "a%2F..",
	} {
		_, err := b.store.Put(ctx, key, strings.NewReader("x"), "text/plain")
		require.Equal(t, apperr.Validation, apperr.CodeOf(err), "put %q", key)
		_, err = b.store.Get(ctx, key)
		require.Equal(t, apperr.Validation, apperr.CodeOf(err), "get %q", key)
		require.Equal(t, apperr.Validation, apperr.CodeOf(b.store.Delete(ctx, key)), "delete %q", key)
		_, err = b.store.PresignGet(ctx, key, time.Minute, "x")
		require.Equal(t, apperr.Validation, apperr.CodeOf(err), "presign %q", key)
	}
	_, err := os.Stat(filepath.Join(filepath.Dir(b.dir), "outside"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestHandler(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	const key = "tenants/t1/kyc/kyc_1/doc_1"
	png := append([]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, bytes.Repeat([]byte{7}, 100)...)
	_, err := b.store.Put(ctx, key, bytes.NewReader(png), document.MIMEPNG)
	require.NoError(t, err)

	b.now.Store(1_900_000_000)
	link, err := b.store.PresignGet(ctx, key, document.DownloadTTL, `Selfie "front".png`)
	require.NoError(t, err)
	u, err := url.Parse(link)
	require.NoError(t, err)
	require.Equal(t, "/blobs/"+key, u.Path)
	require.Equal(t, "1900000900", u.Query().Get("exp"))
	require.Equal(t, "Selfie front.png", u.Query().Get("name"))

	do := func(method, link string) *http.Response {
		req, err := http.NewRequestWithContext(ctx, method, link, nil)
		require.NoError(t, err)
		resp, err := b.srv.Client().Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	with := func(k, v string) string {
		c := *u
		q := c.Query()
		q.Set(k, v)
		c.RawQuery = q.Encode()
		return c.String()
	}

	resp := do(http.MethodGet, link)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, png, body)
	require.Equal(t, "image/png", resp.Header.Get("Content-Type"))
	require.Equal(t, "108", resp.Header.Get("Content-Length"))
	require.Equal(t, `attachment; filename="Selfie front.png"`, resp.Header.Get("Content-Disposition"))
	require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))

	require.Equal(t, http.StatusOK, do(http.MethodHead, link).StatusCode)

	// Tampering with anything signed is 403.
	sig := u.Query().Get("sig")
	flipped := string(sig[0]^1) + sig[1:]
	for _, bad := range []string{
		with("sig", flipped), with("sig", ""), with("sig", "zz"), with("exp", "1900009999"),
		with("name", "other.png"), with("exp", "soon"),
	} {
		require.Equal(t, http.StatusForbidden, do(http.MethodGet, bad).StatusCode, bad)
	}

	// Expiry: valid through exp, 410 after.
	b.now.Store(1_900_000_900)
	require.Equal(t, http.StatusOK, do(http.MethodGet, link).StatusCode)
	b.now.Store(1_900_000_901)
	require.Equal(t, http.StatusGone, do(http.MethodGet, link).StatusCode)

	// A valid link to a deleted object is 404.
	b.now.Store(1_900_000_000)
	require.NoError(t, b.store.Delete(ctx, key))
	require.Equal(t, http.StatusNotFound, do(http.MethodGet, link).StatusCode)
}

func TestHandlerMethods(t *testing.T) {
	t.Parallel()
	b := setup(t)
	h := fsblob.Handler(b.store)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/blobs/a", nil))
	require.Equal(t, http.StatusMethodNotAllowed, rec.Code)
}

func TestNonASCIIFileName(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	const key = "k/doc"
	_, err := b.store.Put(ctx, key, strings.NewReader("%PDF-1.4 x"), document.MIMEPDF)
	require.NoError(t, err)
	link, err := b.store.PresignGet(ctx, key, time.Minute, "Ọláwálé bill.pdf")
	require.NoError(t, err)
	resp, err := b.srv.Client().Get(link)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "attachment; filename*=utf-8''%E1%BB%8Cl%C3%A1w%C3%A1l%C3%A9%20bill.pdf",
		resp.Header.Get("Content-Disposition"))
}
