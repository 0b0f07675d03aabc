// Package fsblob is the embedded document.Blobs store: objects are files under a directory on
// local disk (COMPLYD_BLOB_DIR, default ./.complyd/blobs; docs/design/design-choices.md §1), written atomically
// (temp file, fsync, rename). Its presigned URLs are HMAC-signed, expiring links that complyd
// serves itself through Handler.
//
// fsblob is an adapter: it imports the document core, never another adapter.
package fsblob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document"
)

// DefaultDir is the store's directory when COMPLYD_BLOB_DIR is unset (docs/design/design-choices.md §1).
const DefaultDir = "./.complyd/blobs"

// MinSecretLen is the shortest HMAC secret NewStore accepts, in bytes.
const MinSecretLen = 32

// Store keeps objects as files: <dir>/objects/<key>, with writes staged in <dir>/tmp.
type Store struct {
	objects string
	tmp     string
	baseURL string
	secret  []byte
	now     func() time.Time
}

// Option configures a Store.
type Option func(*Store)

// WithClock sets the clock used for link expiry (tests); the default is time.Now.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// NewStore opens (creating if needed, mode 0700) the store in dir. baseURL is the public origin
// complyd is reached at (for example https://complyd.bank.example); presigned URLs are
// <baseURL>/blobs/<key>?…, served by Handler. secret is the HMAC key for those URLs, at least
// MinSecretLen bytes; keep it stable across restarts so issued links stay valid.
func NewStore(dir, baseURL string, secret []byte, opts ...Option) (*Store, error) {
	if len(secret) < MinSecretLen {
		return nil, fmt.Errorf("fsblob: secret must be at least %d bytes", MinSecretLen)
	}
	if dir == "" {
		dir = DefaultDir
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve blob dir: %w", err)
	}
	s := &Store{
		objects: filepath.Join(abs, "objects"),
		tmp:     filepath.Join(abs, "tmp"),
		baseURL: strings.TrimRight(baseURL, "/"),
		secret:  append([]byte(nil), secret...),
		now:     time.Now,
	}
	for _, o := range opts {
		o(s)
	}
	for _, d := range []string{s.objects, s.tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("create blob dir: %w", err)
		}
	}
	return s, nil
}

// path maps a key to its file. Keys are '/'-separated segments of ASCII letters, digits, '-',
// '_' and '.', none empty, "." or "..": so no key can leave the objects directory, and no key
// needs escaping in a URL.
func (s *Store) path(key string) (string, error) {
	if !validKey(key) {
		return "", apperr.Invalid("key", "invalid object key")
	}
	p := filepath.Join(s.objects, filepath.FromSlash(key))
	if !strings.HasPrefix(p, s.objects+string(filepath.Separator)) {
		return "", apperr.Invalid("key", "invalid object key")
	}
	return p, nil
}

func validKey(key string) bool {
	if key == "" || len(key) > 1024 {
		return false
	}
	for seg := range strings.SplitSeq(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
		for _, c := range []byte(seg) {
			switch {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			default:
				return false
			}
		}
	}
	return true
}

// Put implements document.Blobs. It streams r into a temp file in <dir>/tmp, fsyncs it, and
// renames it over <dir>/objects/<key>, then fsyncs the directory: readers see the old object or
// the whole new one, never a partial file. On any error the temp file is removed. fsblob does
// not keep contentType: Handler serves the type sniffed from the content (which for documents
// stored by document.Ingest is the same decision).
func (s *Store) Put(ctx context.Context, key string, r io.Reader, _ string) (int64, error) {
	dst, err := s.path(key)
	if err != nil {
		return 0, err
	}
	f, err := os.CreateTemp(s.tmp, "put-*")
	if err != nil {
		return 0, fmt.Errorf("create temp file: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	n, err := io.Copy(f, ctxReader{ctx: ctx, r: r})
	if err != nil {
		return 0, fmt.Errorf("write object: %w", err)
	}
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("sync object: %w", err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("close object: %w", err)
	}
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, fmt.Errorf("create object dir: %w", err)
	}
	if err := os.Rename(f.Name(), dst); err != nil {
		return 0, fmt.Errorf("rename object: %w", err)
	}
	committed = true
	if err := syncDir(dir); err != nil {
		return 0, err
	}
	return n, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open object dir: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync object dir: %w", err)
	}
	return nil
}

// Get implements document.Blobs.
func (s *Store) Get(_ context.Context, key string) (io.ReadCloser, error) {
	f, err := s.open(key)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (s *Store) open(key string) (*os.File, error) {
	p, err := s.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, apperr.NotFoundf("document file not found")
	}
	if err != nil {
		return nil, fmt.Errorf("open object: %w", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, apperr.NotFoundf("document file not found")
	}
	return f, nil
}

// Delete implements document.Blobs; a missing object is not an error.
func (s *Store) Delete(_ context.Context, key string) error {
	p, err := s.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete object: %w", err)
	}
	return nil
}

// ctxReader stops a copy when ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

var _ document.Blobs = (*Store)(nil)
