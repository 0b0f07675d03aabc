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

func (m *Metrics) interceptor() connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			start := time.Now()
			res, err := next(ctx, req)
			proto, _ := ctx.Value(transportKey{}).(string)
			if proto == "" {
				proto = req.Peer().Protocol
			}
			code := "ok"
			if err != nil {
				var ce *connect.Error
				if errors.As(err, &ce) {
					code = ce.Code().String()
				} else {
					code = connect.CodeOf(err).String()
				}
			}
			proc := req.Spec().Procedure
			m.requests.WithLabelValues(proc, proto, code).Inc()
			m.latency.WithLabelValues(proc, proto, code).Observe(time.Since(start).Seconds())
			return res, err
		}
	}
}
