// Package requestid carries the request id of a call in its context and stamps it on every log
// line (docs/design/style.md: what rides in ctx).
//
// requestid is a leaf: it imports only the standard library.
package requestid

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
)

type key struct{}

// With returns ctx carrying id.
func With(ctx context.Context, id string) context.Context { return context.WithValue(ctx, key{}, id) }

// From returns the request id in ctx, or "".
func From(ctx context.Context) string {
	id, _ := ctx.Value(key{}).(string)
	return id
}

// New returns a fresh request id.
func New() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "req_" + hex.EncodeToString(b)
}

// Handler wraps a slog.Handler so that every record logged with a context carries request_id.
type Handler struct{ slog.Handler }

// Handle adds request_id when the context has one.
func (h Handler) Handle(ctx context.Context, r slog.Record) error {
	if id := From(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs keeps the wrapper.
func (h Handler) WithAttrs(as []slog.Attr) slog.Handler { return Handler{h.Handler.WithAttrs(as)} }

// WithGroup keeps the wrapper.
func (h Handler) WithGroup(name string) slog.Handler { return Handler{h.Handler.WithGroup(name)} }
