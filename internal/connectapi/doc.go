// Package connectapi is the primary transport: connect-go handlers (one file per proto service)
// serving gRPC, gRPC-Web and Connect on one port; authentication middleware that runs before
// unmarshalling; the per-RPC authorization table; protovalidate; metrics; and the single
// apperr→Connect error mapping (a typed complyd.v1.ErrorInfo detail carries code, details, data).
//
// Handlers only map, call the core service, and map back: no SQL and no rules here.
// connectapi imports core packages and internal/gen; it must not import other adapters.
package connectapi
