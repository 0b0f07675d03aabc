package document_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/tenancy"
)

func TestSniff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		head []byte
		want string
	}{
		{"jpeg", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F'}, document.MIMEJPEG},
		{"png", []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, document.MIMEPNG},
		{"pdf", []byte("%PDF-1.4"), document.MIMEPDF},
		{"truncated png", []byte{0x89, 'P', 'N', 'G'}, ""},
		{"gif", []byte("GIF89a.."), ""},
		{"html", []byte("<html><b"), ""},
		{"pdf after junk", []byte(" %PDF-1.4"), ""},
		{"empty", nil, ""},
	} {
		require.Equal(t, tc.want, document.Sniff(tc.head), tc.name)
	}
}

func TestKey(t *testing.T) {
	t.Parallel()
	key, err := document.Key("6f1c1d0e-2b7e-4c55-9f0a-1b2c3d4e5f60", document.OwnerKYB, "kyb_abc", "doc_123")
	require.NoError(t, err)
	require.Equal(t, "tenants/6f1c1d0e-2b7e-4c55-9f0a-1b2c3d4e5f60/kyb/kyb_abc/doc_123", key)

	for _, bad := range []struct {
		tenant, app, doc string
		owner            document.OwnerKind
	}{
		{"t", "a", "d", "kyc"},
		{"", "a", "d", document.OwnerKYC},
		{"t", "../x", "d", document.OwnerKYC},
		{"t", "a", "d/e", document.OwnerKYC},
		{"t", "a", "..", document.OwnerKYC},
		{"t", "a", "d%2F", document.OwnerKYC},
	} {
		_, err := document.Key(tenancy.TenantID(bad.tenant), bad.owner, bad.app, bad.doc)
		require.Equal(t, apperr.Validation, apperr.CodeOf(err), "%+v", bad)
	}
}

func TestNewID(t *testing.T) {
	t.Parallel()
	a, b := document.NewID(), document.NewID()
	require.True(t, strings.HasPrefix(a, "doc_"))
	require.Len(t, a, 4+32)
	require.NotEqual(t, a, b)
}

func TestDocumentTypes(t *testing.T) {
	t.Parallel()
	id := map[document.DocumentType]bool{
		document.TypePassport: true, document.TypeDriversLicense: true,
		document.TypeVotersCard: true, document.TypeNationalID: true,
	}
	poa := map[document.DocumentType]bool{document.TypeProofOfAddress: true, document.TypeUtilityBill: true}
	require.Len(t, document.Types(), 10)
	for _, dt := range document.Types() {
		got, err := document.ParseDocumentType(string(dt))
		require.NoError(t, err)
		require.Equal(t, dt, got)
		require.Equal(t, id[dt], dt.IsMeansOfIdentification(), dt)
		require.Equal(t, poa[dt], dt.IsProofOfAddress(), dt)
	}
	_, err := document.ParseDocumentType("passport")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
}

func TestCleanFileName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"passport.pdf":             "passport.pdf",
		"../../etc/passwd":         "passwd",
		`C:\Users\ada\bill.png`:    "bill.png",
		"a\"b\r\nc.pdf":            "abc.pdf",
		"":                         "document",
		"..":                       "document",
		" name with spaces .pdf. ": "name with spaces .pdf",
		"Ọláwálé.jpg":              "Ọláwálé.jpg",
		"bad\xffutf8.pdf":          "badutf8.pdf",
		strings.Repeat("é", 300):   strings.Repeat("é", 100),
	} {
		require.Equal(t, want, document.CleanFileName(in), "%q", in)
	}
}

func TestIngest(t *testing.T) {
	t.Parallel()

	type testBundle struct {
		blobs   *memBlobs
		deleted []string
	}
	setup := func(t *testing.T) *testBundle {
		t.Helper()
		b := &testBundle{blobs: &memBlobs{objects: map[string][]byte{}}}
		b.blobs.deleteFunc = func(key string) { b.deleted = append(b.deleted, key) }
		return b
	}
	pdf := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("x"), 1000)...)

	t.Run("Stored", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		st, err := document.Ingest(t.Context(), b.blobs, "k", bytes.NewReader(pdf), 0)
		require.NoError(t, err)
		require.Equal(t, int64(len(pdf)), st.Size)
		require.Equal(t, document.MIMEPDF, st.MimeType)
		require.Len(t, st.SHA256, 64)
		require.Equal(t, pdf, b.blobs.objects["k"])
	})
	t.Run("ExactlyAtLimit", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		_, err := document.Ingest(t.Context(), b.blobs, "k", bytes.NewReader(pdf), int64(len(pdf)))
		require.NoError(t, err)
	})
	t.Run("OverLimitDeletes", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		_, err := document.Ingest(t.Context(), b.blobs, "k", bytes.NewReader(pdf), int64(len(pdf)-1))
		e, ok := apperr.As(err)
		require.True(t, ok, "%v", err)
		require.Equal(t, apperr.PayloadTooLarge, e.Code)
		require.Equal(t, int64(len(pdf)-1), e.Data["limitBytes"])
		require.Equal(t, []string{"k"}, b.deleted)
		require.Empty(t, b.blobs.objects)
	})
	t.Run("LimitBelowSniffLength", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		_, err := document.Ingest(t.Context(), b.blobs, "k", bytes.NewReader(pdf), 4)
		require.Equal(t, apperr.PayloadTooLarge, apperr.CodeOf(err))
		require.Empty(t, b.blobs.objects)
	})
	t.Run("UnsupportedNeverPuts", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		_, err := document.Ingest(t.Context(), b.blobs, "k", strings.NewReader("just text, named passport.pdf"), 0)
		require.Equal(t, apperr.UnsupportedMediaType, apperr.CodeOf(err))
		_, err = document.Ingest(t.Context(), b.blobs, "k", strings.NewReader(""), 0)
		require.Equal(t, apperr.UnsupportedMediaType, apperr.CodeOf(err))
		require.Zero(t, b.blobs.puts)
	})
	t.Run("StoreErrorDeletes", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		boom := errors.New("disk full")
		b.blobs.putFunc = func(r io.Reader) (int64, error) {
			_, _ = io.CopyN(io.Discard, r, 100)
			return 0, boom
		}
		_, err := document.Ingest(t.Context(), b.blobs, "k", bytes.NewReader(pdf), 0)
		require.ErrorIs(t, err, boom)
		require.Equal(t, []string{"k"}, b.deleted)
	})
	t.Run("ShortReadingStoreIsAnError", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.blobs.putFunc = func(r io.Reader) (int64, error) { return io.CopyN(io.Discard, r, 100) }
		_, err := document.Ingest(t.Context(), b.blobs, "k", bytes.NewReader(pdf), 0)
		require.Error(t, err)
		require.Equal(t, []string{"k"}, b.deleted)
	})
	t.Run("CancelledContextStillCleansUp", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		ctx, cancel := context.WithCancel(t.Context())
		b.blobs.putFunc = func(r io.Reader) (int64, error) {
			cancel()
			return io.Copy(io.Discard, r)
		}
		var deleteCtxErr error
		b.blobs.deleteCtxFunc = func(ctx context.Context) { deleteCtxErr = ctx.Err() }
		_, err := document.Ingest(ctx, b.blobs, "k", bytes.NewReader(pdf), 0)
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, []string{"k"}, b.deleted)
		require.NoError(t, deleteCtxErr, "cleanup runs with a live context")
	})
}

// memBlobs is an in-memory document.Blobs for the core's tests.
type memBlobs struct {
	objects       map[string][]byte
	puts          int
	putFunc       func(r io.Reader) (int64, error)
	deleteFunc    func(key string)
	deleteCtxFunc func(ctx context.Context)
}

func (m *memBlobs) Put(_ context.Context, key string, r io.Reader, _ string) (int64, error) {
	m.puts++
	if m.putFunc != nil {
		return m.putFunc(r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return 0, err
	}
	m.objects[key] = b
	return int64(len(b)), nil
}

func (m *memBlobs) Get(_ context.Context, key string) (io.ReadCloser, error) {
	b, ok := m.objects[key]
	if !ok {
		return nil, apperr.NotFoundf("no object %s", key)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

func (m *memBlobs) Delete(ctx context.Context, key string) error {
	if m.deleteFunc != nil {
		m.deleteFunc(key)
	}
	if m.deleteCtxFunc != nil {
		m.deleteCtxFunc(ctx)
	}
	delete(m.objects, key)
	return nil
}

func (m *memBlobs) PresignGet(context.Context, string, time.Duration, string) (string, error) {
	return "", errors.New("not supported")
}
