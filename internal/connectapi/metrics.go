package connectapi

import (
	"context"
	"errors"
	"time"

	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"
)

type transportKey struct{}

// WithTransport marks ctx as arriving through another transport (the REST facade sets "rest"),
// so metrics tell /api/v1 traffic from native Connect and gRPC.
func WithTransport(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, transportKey{}, name)
}

// Metrics are the RPC metrics exported on /metrics.
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// NewMetrics registers the RPC metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "complyd_rpc_requests_total", Help: "RPCs handled, by procedure, protocol and code.",
		}, []string{"procedure", "protocol", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "complyd_rpc_duration_seconds", Help: "RPC latency, by procedure, protocol and code.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"procedure", "protocol", "code"}),
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}

func (m *Metrics) interceptor() connect.Interceptor {
	return observer(func(ctx context.Context, spec connect.Spec, peer connect.Peer, start time.Time, err error) {
		proto := transportOf(ctx, peer)
		code := "ok"
		if err != nil {
			var ce *connect.Error
			if errors.As(err, &ce) {
				code = ce.Code().String()
			} else {
				code = connect.CodeOf(err).String()
			}
		}
		m.requests.WithLabelValues(spec.Procedure, proto, code).Inc()
		m.latency.WithLabelValues(spec.Procedure, proto, code).Observe(time.Since(start).Seconds())
	})
}

// transportOf names the call's transport: "rest" through the facade, else the peer's protocol.
func transportOf(ctx context.Context, peer connect.Peer) string {
	if proto, _ := ctx.Value(transportKey{}).(string); proto != "" {
		return proto
	}
	return peer.Protocol
}

// observer is a handler interceptor that calls itself once at the end of every call, unary or
// streaming (a stream is one call, observed when it ends; its messages are not).
type observer func(ctx context.Context, spec connect.Spec, peer connect.Peer, start time.Time, err error)

func (o observer) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		start := time.Now()
		res, err := next(ctx, req)
		o(ctx, req.Spec(), req.Peer(), start, err)
		return res, err
	}
}

func (o observer) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (o observer) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		start := time.Now()
		err := next(ctx, conn)
		o(ctx, conn.Spec(), conn.Peer(), start, err)
		return err
	}
}
