package connectapi

import (
	"context"
	"log/slog"
	"time"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/auth"
)

// accessLog writes one structured line per call (procedure, protocol, code, duration, tenant,
// user) with the request id the logger's handler adds. Payloads and credentials are never
// logged. Failures of the caller's making log at INFO, server failures at ERROR (with the cause
// already logged by ToConnect).
func accessLog(log *slog.Logger) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			start := time.Now()
			res, err := next(ctx, req)
			proto, _ := ctx.Value(transportKey{}).(string)
			if proto == "" {
				proto = req.Peer().Protocol
			}
			attrs := []slog.Attr{
				slog.String("procedure", req.Spec().Procedure),
				slog.String("protocol", proto),
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
			return res, err
		}
	}
}

func codeString(err error) string {
	if err == nil {
		return "ok"
	}
	return connect.CodeOf(err).String()
}
