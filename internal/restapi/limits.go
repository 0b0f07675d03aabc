package restapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
)

// Limits bounds what one request may send, so that no single client can exhaust the process's
// memory or hold connections open by trickling bytes (docs/guide/operations.md "Limits"). Every value
// is configuration with a safe default (internal/app config).
type Limits struct {
	// JSONBodyBytes bounds the body of every request that carries no file: /api/v1 JSON, and
	// each Connect and gRPC message.
	JSONBodyBytes int64
	// FileBodyBytes bounds requests that carry files: the multipart document uploads, and the
	// JSON or protobuf bodies of the RPCs whose messages hold a document or images in base64
	// (IsFileRoute).
	FileBodyBytes int64
	// BodyReadTimeout is the time a client has to send a whole request body once its headers
	// have arrived; FileReadTimeout the same for file routes. A client that trickles slower is
	// cut off and its connection closed.
	BodyReadTimeout time.Duration
	FileReadTimeout time.Duration
}

// DefaultLimits are the limits when nothing is configured: 1 MiB of JSON (a screening request is
// about 1 KiB; a page of batch screening well under 1 MiB), 16 MiB for files (a 10 MiB document,
// or two 5 MiB images, in base64), 15 s to send a body and 120 s to send a file.
var DefaultLimits = Limits{JSONBodyBytes: 1 << 20, FileBodyBytes: 16 << 20, BodyReadTimeout: 15 * time.Second, FileReadTimeout: 120 * time.Second}

// fileRoutes are the path suffixes (REST) and procedure names (Connect, gRPC) whose requests carry
// files: document uploads, liveness, biometric verification and face match, and watchlist
// imports (a CSV or JSON Lines document of up to 10 MiB in a JSON string, escaping included:
// docs/guide/watchlists.md "Limits").
var fileRoutes = []string{
	"/documents", "/liveness-check", "/biometric-verify", "/face-match", "/entries:import",
	"/UploadDocument", "/UploadKybDocument", "/LivenessCheck", "/BiometricVerify", "/FaceMatch",
	"/ImportWatchlistEntries",
}

// IsFileRoute says whether r carries a file (the FileBodyBytes class).
func IsFileRoute(r *http.Request) bool {
	for _, s := range fileRoutes {
		if strings.HasSuffix(r.URL.Path, s) {
			return true
		}
	}
	return false
}

// isStream says whether r is a streaming RPC: its body lives as long as the stream, so neither
// a total size nor a read deadline applies to it (each message is bounded by the Connect
// handler's read limit, and an idle stream by the server's idle timeout).
func isStream(r *http.Request) bool {
	return strings.HasSuffix(r.URL.Path, "Stream") && !strings.HasPrefix(r.URL.Path, "/api/")
}

func (l Limits) forRequest(r *http.Request) (int64, time.Duration) {
	if IsFileRoute(r) {
		return l.FileBodyBytes, l.FileReadTimeout
	}
	return l.JSONBodyBytes, l.BodyReadTimeout
}

// LimitBodies enforces l on every request with a body before any handler reads it: a declared
// Content-Length over the limit is refused at once with PAYLOAD_TOO_LARGE (nothing is
// allocated for it), a body that turns out longer is cut at the limit, and a body that is not
// complete within the read timeout fails the read, which closes the connection.
func LimitBodies(next http.Handler, l Limits) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 || isStream(r) {
			next.ServeHTTP(w, r)
			return
		}
		max, timeout := l.forRequest(r)
		if r.ContentLength > max {
			tooLarge(w, r, max)
			return
		}
		rc := http.NewResponseController(w)
		if timeout > 0 {
			// The deadline covers the body only: it is lifted once the body has been read, so a
			// slow handler (or a slow client reading the answer) is not cut off by it.
			_ = rc.SetReadDeadline(time.Now().Add(timeout))
		}
		r.Body = &limitedBody{ReadCloser: http.MaxBytesReader(w, r.Body, max), rc: rc, timed: timeout > 0}
		next.ServeHTTP(w, r)
	})
}

// limitedBody lifts the body's read deadline at its end, and remembers why a read failed so
// that the /api/v1 facade can name the cause (the transcoder reports any read error alike).
type limitedBody struct {
	io.ReadCloser
	rc       *http.ResponseController
	timed    bool
	tooLarge bool
	timedOut bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		if b.timed {
			b.timed = false
			_ = b.rc.SetReadDeadline(time.Time{})
		}
	case bodyTooLarge(err):
		b.tooLarge = true
	case errors.Is(err, os.ErrDeadlineExceeded):
		b.timedOut = true
	}
	return n, err
}

// failure is the answer to a request whose body could not be read whole, or nil.
func (b *limitedBody) failure(max int64, timeout time.Duration) *apperr.Error {
	switch {
	case b.tooLarge:
		return apperr.Newf(apperr.PayloadTooLarge, "request body exceeds the %d-byte limit", max)
	case b.timedOut:
		return apperr.Invalid("body", fmt.Sprintf("the request body was not received within %s", timeout))
	}
	return nil
}

// tooLarge answers a request refused for its declared size: the envelope on /api/v1, a Connect
// error (resource_exhausted, HTTP 413) elsewhere; gRPC clients see the HTTP status as an error.
// The connection is closed: the unread body is not drained.
func tooLarge(w http.ResponseWriter, r *http.Request, max int64) {
	w.Header().Set("Connection", "close")
	e := apperr.Newf(apperr.PayloadTooLarge, "request body exceeds the %d-byte limit", max)
	if strings.HasPrefix(r.URL.Path, "/api/") {
		WriteFailure(w, e)
		return
	}
	if ct := r.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/grpc") {
		// gRPC (and gRPC-Web) clients read the status from grpc-status, not the HTTP status: a
		// trailers-only answer RESOURCE_EXHAUSTED (8), as a gRPC server refuses a message over its
		// receive limit.
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Grpc-Status", "8")
		w.Header().Set("Grpc-Message", e.Message)
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusRequestEntityTooLarge)
	_, _ = io.WriteString(w, `{"code":"resource_exhausted","message":"`+e.Message+`"}`)
}

// bodyTooLarge says whether err is the cut of a body at its limit.
func bodyTooLarge(err error) bool {
	var mb *http.MaxBytesError
	return errors.As(err, &mb)
}

// CanonicalPaths answers an /api/v1 path with empty, `.` or `..` segments with the failure
// envelope (404 NOT_FOUND) instead of letting net/http's ServeMux redirect it to its cleaned form
// with an HTML page: API clients get JSON, and no path is silently rewritten into another route.
func CanonicalPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; strings.HasPrefix(p, "/api/") && unclean(p) {
			WriteFailure(w, apperr.Newf(apperr.NotFound, "no route %s %s: the path has empty, '.' or '..' segments", r.Method, p))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func unclean(p string) bool {
	return strings.Contains(p, "//") || strings.Contains(p, "/./") || strings.Contains(p, "/../") ||
		strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..")
}
