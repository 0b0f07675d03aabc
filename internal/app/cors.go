package app

import (
	"net/http"
	"net/url"
	"strings"
)

// CORS for the dashboard served from another origin (a Vite dev server, or a portal on its own
// host): browsers speak Connect and gRPC-Web to complyd cross-origin only when the origin is on
// the allow-list COMPLYD_CORS_ORIGINS (comma-separated exact origins, e.g.
// "https://dash.bank.example,http://localhost:5173"). Empty, no cross-origin access at all: the
// dashboard embedded in the binary is same-origin and needs none. "*" is refused: credentials
// (the session cookie) are never shared with any origin.

// corsAllowHeaders are the request headers Connect and gRPC-Web clients send
// (connectrpc.com/cors AllowedHeaders) plus the API-key header.
var corsAllowHeaders = strings.Join([]string{"Content-Type", "Connect-Protocol-Version", "Connect-Timeout-Ms",
	"Connect-Accept-Encoding", "Connect-Content-Encoding", "Grpc-Timeout", "X-Grpc-Web", "X-User-Agent",
	"Authorization", "X-Api-Key", "X-Request-Id", "Accept-Encoding", "Content-Encoding"}, ", ")

// corsExposeHeaders are the response headers Connect and gRPC-Web clients read
// (connectrpc.com/cors ExposedHeaders).
var corsExposeHeaders = strings.Join([]string{"Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin",
	"Connect-Content-Encoding", "Content-Encoding", "X-Request-Id", "Retry-After"}, ", ")

// parseOrigins splits COMPLYD_CORS_ORIGINS into exact origins (trailing slashes dropped).
func parseOrigins(v string) map[string]bool {
	out := map[string]bool{}
	for _, o := range strings.Split(v, ",") {
		o = strings.TrimRight(strings.TrimSpace(o), "/")
		if o != "" && o != "*" {
			out[o] = true
		}
	}
	return out
}

// withCORS answers preflights and adds the CORS headers for allowed origins. A request from an
// origin not on the list gets no CORS headers, so the browser refuses to let the page read the
// answer (and a preflight is refused with 403, so a state-changing call is never sent).
//
// It is also the cookie session's CSRF guard, beside the SameSite=Strict cookies: a request that
// carries cookies and an Origin that is neither this host nor on the list is refused with 403
// before any handler runs, whatever its method or content type.
func withCORS(origins map[string]bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || sameOrigin(origin, r) {
			next.ServeHTTP(w, r)
			return
		}
		if !origins[origin] && r.Header.Get("Cookie") != "" {
			http.Error(w, "cross-origin request refused: origin not in COMPLYD_CORS_ORIGINS", http.StatusForbidden)
			return
		}
		h := w.Header()
		h.Add("Vary", "Origin")
		preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
		if !origins[origin] {
			if preflight {
				w.WriteHeader(http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		if preflight {
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
			h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
			h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			h.Set("Access-Control-Max-Age", "7200")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports an Origin naming the host the request was sent to (the embedded dashboard).
func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && u.Host == r.Host
}
