// Package restapi is the documented /api/v1 JSON facade: vanguard transcodes the google.api.http
// routes onto the very same Connect handlers, and this package adds only what REST needs on top:
// the success and failure envelopes, HTTP status codes (docs/design/design-choices.md §2), 201 for creations, the
// 404 envelope for unknown routes, and the health endpoints.
//
// restapi may import connectapi (docs/design/style.md's one allowed adapter-to-adapter import).
package restapi
