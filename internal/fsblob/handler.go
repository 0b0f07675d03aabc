package fsblob

import (
	"crypto/hmac"
	"encoding/hex"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document"
)

// Handler serves the presigned links of s. Mount it at PathPrefix without stripping the prefix:
//
//	mux.Handle("GET /blobs/", fsblob.Handler(store))
//
// For GET and HEAD it checks the signature first, in constant time (hmac.Equal), then expiry:
//
//   - 403 Forbidden: missing, malformed or wrong signature (also a bad key or exp);
//   - 410 Gone: a correctly signed link whose exp has passed;
//   - 404 Not Found: a valid link to an object that no longer exists;
//   - 405 Method Not Allowed: any method but GET and HEAD;
//   - 200 OK: the file, streamed, with Content-Type (sniffed: JPEG, PNG, PDF, else
//     application/octet-stream), Content-Length, Content-Disposition: attachment with the
//     signed name, X-Content-Type-Options: nosniff and Cache-Control: private, no-store.
//     Range requests are honoured.
//
// Error bodies are short plain text; these links are for browsers and curl, not API clients.
func Handler(s *Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		key, ok := strings.CutPrefix(r.URL.Path, PathPrefix)
		q := r.URL.Query()
		exp, err := strconv.ParseInt(q.Get("exp"), 10, 64)
		sig, serr := hex.DecodeString(q.Get("sig"))
		name := q.Get("name")
		if !ok || !validKey(key) || err != nil || serr != nil || len(sig) == 0 ||
			!hmac.Equal(sig, s.sign(key, exp, name)) {
			http.Error(w, "invalid link signature", http.StatusForbidden)
			return
		}
		if s.now().Unix() > exp {
			http.Error(w, "link expired", http.StatusGone)
			return
		}
		f, err := s.open(key)
		if err != nil {
			if apperr.CodeOf(err) == apperr.NotFound {
				http.Error(w, "not found", http.StatusNotFound)
				return
			}
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		defer f.Close()
		head := make([]byte, document.SniffLen)
		n, _ := f.ReadAt(head, 0)
		ctype := document.Sniff(head[:n])
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		h := w.Header()
		h.Set("Content-Type", ctype)
		h.Set("Content-Disposition", contentDisposition(name))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "private, no-store")
		// ServeContent sets Content-Length and handles Range and HEAD; a zero modtime
		// keeps it from adding Last-Modified and conditional handling.
		http.ServeContent(w, r, "", time.Time{}, f)
	})
}

// contentDisposition formats an attachment header; mime.FormatMediaType quotes the name and
// switches to RFC 2231 filename* for non-ASCII names.
func contentDisposition(name string) string {
	if v := mime.FormatMediaType("attachment", map[string]string{"filename": name}); v != "" {
		return v
	}
	return "attachment"
}
