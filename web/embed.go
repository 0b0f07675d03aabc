// Package web holds the browser dashboard served at `/`: a React single-page application built by
// Vite from web/src into web/dist (committed, checked fresh by CI) and embedded in the binary, so
// the service serves the whole dashboard without Node. It talks to the service over Connect with
// the cookie session; see docs/guide/dashboard.md.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// dist is the Vite build output (npm run build in web/).
//
//go:embed dist
var dist embed.FS

// Dist is the built dashboard, rooted at its index.html.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the directory is embedded at compile time
	}
	return sub
}

// Handler serves the dashboard from assets. A path that names a file serves it; any other path
// that is not an API path (so a client-side route such as /cases/case_1 reloaded in the browser)
// serves index.html, and the application's router shows the screen or its own "not found".
// API-looking paths (/api/, Connect and gRPC procedures) that reach it are 404: no route claimed
// them, and HTML would only confuse their clients.
func Handler(assets fs.FS) http.Handler {
	files := http.FileServerFS(assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if isAPIPath(r.URL.Path) {
			http.NotFound(w, r)
			return
		}
		if p == "" || p == "." || p == "index.html" {
			serveIndex(w, r, assets)
			return
		}
		if st, err := fs.Stat(assets, p); err == nil && !st.IsDir() {
			if strings.HasPrefix(p, "assets/") {
				// Vite names these files by content hash: they never change under one name.
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			}
			files.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(p, "assets/") || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			http.NotFound(w, r)
			return
		}
		serveIndex(w, r, assets)
	})
}

// isAPIPath reports paths that belong to the API, never to the dashboard's routes.
func isAPIPath(p string) bool {
	// "/api" alone is not an API path: it is the dashboard's API reference screen.
	if strings.HasPrefix(p, "/api/") || p == "/metrics" || p == "/health" {
		return true
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	// Connect and gRPC procedures are /<package>.<Service>/<Method>.
	return strings.Contains(first, ".") && strings.Contains(strings.TrimPrefix(p, "/"), "/")
}

// serveIndex writes index.html uncached, so a new build's asset names are picked up at once.
func serveIndex(w http.ResponseWriter, r *http.Request, assets fs.FS) {
	b, err := fs.ReadFile(assets, "index.html")
	if err != nil {
		http.Error(w, "dashboard not built", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(b)
}
