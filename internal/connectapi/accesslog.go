package connectapi

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/auth"
)

// okLinesPerSecond is how many successful calls of one procedure are logged each second. At
// bank volume (thousands of screenings a second) one line per call costs a measurable share of
// the server's CPU and buries the lines that matter; the counts and latencies of every call are
// on /metrics (complyd_rpc_*), so the log keeps a sample of successes and every failure.
const okLinesPerSecond = 10

// accessLog writes one structured line per call (procedure, protocol, code, duration, tenant,
// user) with the request id the logger's handler adds; a stream is one call, logged when it
// ends. Every failure is logged; successes up to okLinesPerSecond a second per procedure, the
// next logged line of the procedure saying how many were left out (unlogged_ok). Payloads and
// credentials are never logged. Failures of the caller's making log at INFO, server failures
// at ERROR. The error it sees is already a *connect.Error: the error interceptor, installed
// inside this one (Options), maps every handler's error once, and logs the cause of an
// internal one with the request id, so this line names the code only.
func accessLog(log *slog.Logger) connect.Interceptor {
	s := &okSampler{perSecond: okLinesPerSecond, now: time.Now}
	return observer(func(ctx context.Context, spec connect.Spec, peer connect.Peer, start time.Time, err error) {
		var skipped int
		if err == nil {
			var ok bool
			if ok, skipped = s.admit(spec.Procedure); !ok {
				return
			}
		}
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
		if skipped > 0 {
			attrs = append(attrs, slog.Int("unlogged_ok", skipped))
		}
		level := slog.LevelInfo
		if c := connect.CodeOf(err); err != nil && (c == connect.CodeInternal || c == connect.CodeUnknown) {
			level = slog.LevelError
		}
		log.LogAttrs(ctx, level, "rpc", attrs...)
	})
}

// okSampler admits perSecond successful calls of each procedure per wall-clock second and
// counts the others, so that the next admitted line can report them.
type okSampler struct {
	perSecond int
	now       func() time.Time
	procs     sync.Map // procedure → *procSample
}

type procSample struct {
	mu      sync.Mutex
	second  int64
	logged  int
	skipped int
}

// admit reports whether this success is logged and, if it is, how many successes of the
// procedure were left out since the last logged one.
func (s *okSampler) admit(procedure string) (bool, int) {
	v, ok := s.procs.Load(procedure)
	if !ok {
		v, _ = s.procs.LoadOrStore(procedure, &procSample{})
	}
	p := v.(*procSample)
	sec := s.now().Unix()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.second != sec {
		p.second, p.logged = sec, 0
	}
	if p.logged >= s.perSecond {
		p.skipped++
		return false, 0
	}
	p.logged++
	skipped := p.skipped
	p.skipped = 0
	return true, skipped
}

func codeString(err error) string {
	if err == nil {
		return "ok"
	}
	return connect.CodeOf(err).String()
}
