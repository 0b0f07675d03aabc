package connectapi

import (
	"context"
	"log/slog"
	"time"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/auth"
)

// accessLog writes one structured line per call (procedure, protocol, code, duration, tenant,
// user) with the request id the logger's handler adds; a stream is one call, logged when it
// ends. Payloads and credentials are never logged. Failures of the caller's making log at
// INFO, server failures at ERROR (with the cause already logged by ToConnect).
func accessLog(log *slog.Logger) connect.Interceptor {
	return observer(func(ctx context.Context, spec connect.Spec, peer connect.Peer, start time.Time, err error) {
		attrs := []slog.Attr{
			slog.String("procedure", spec.Procedure),
			slog.String("protocol", transportOf(ctx, peer)),
			slog.String("code", codeString(err)),
			slog.Duration("duration", time.Since(start)),
		}
		if p, ok := auth.FromContext(ctx); ok {
			attrs = append(attrs, slog.String("tenant_id", string(p.TenantID)), slog.String("user_id", p.UserID),
				slog.String("auth", p.Method))
		}
		level := slog.LevelInfo
		if c := connect.CodeOf(err); err != nil && (c == connect.CodeInternal || c == connect.CodeUnknown) {
			level = slog.LevelError
		}
		log.LogAttrs(ctx, level, "rpc", attrs...)
	})
}

func codeString(err error) string {
	if err == nil {
		return "ok"
	}
	return connect.CodeOf(err).String()
}
