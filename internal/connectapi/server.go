package connectapi

import (
	"errors"
	"log/slog"
	"net/http"

	"buf.build/go/protovalidate"
	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
	"connectrpc.com/grpcreflect"

	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// Handler is one Connect service, already wrapped with authentication.
type Handler struct {
	Path    string
	Name    string
	Handler http.Handler
}

// Deps are what the Connect services need.
type Deps struct {
	Auth          *AuthHandler
	Users         *UserHandler
	Authenticator *Authenticator
	Metrics       *Metrics
	// Validator is the protovalidate validator of every service (one, shared: it caches the
	// compiled rules of each message type).
	Validator protovalidate.Validator
	Logger    *slog.Logger
	// ReadMaxBytes bounds one request message (0: connect's default, no limit).
	ReadMaxBytes int
}

// Options returns the handler options every service shares: protovalidate (v) before any unary
// handler, metrics, the error mapping, and the JSON codec of the /api/v1 facade (JSONCodec).
// The interceptors nest in that list's order: metrics and the access log outermost see the
// error as the error interceptor mapped it (once, for every handler and for validation's
// refusals, which it wraps).
// Streaming handlers validate each message with the same v themselves (the interceptor sees no
// stream messages). readMaxBytes bounds each request message (resource_exhausted beyond it); the
// HTTP body limits of restapi.LimitBodies bound the unary requests' bodies per route class before
// this.
func Options(m *Metrics, v protovalidate.Validator, log *slog.Logger, readMaxBytes int) []connect.HandlerOption {
	return []connect.HandlerOption{connect.WithInterceptors(m.interceptor(), accessLog(log), newErrorInterceptor(log), validationInterceptor(v)),
		connect.WithReadMaxBytes(readMaxBytes), connect.WithCodec(JSONCodec{})}
}

// Handlers builds every Connect service of the foundation. Later capabilities append theirs in
// internal/app with the same Options and Authenticator.
func Handlers(d Deps) ([]Handler, error) {
	if d.Validator == nil {
		return nil, errors.New("connectapi: Deps.Validator is nil")
	}
	opts := Options(d.Metrics, d.Validator, d.Logger, d.ReadMaxBytes)
	var out []Handler
	add := func(name, path string, h http.Handler) {
		out = append(out, Handler{Path: path, Name: name, Handler: d.Authenticator.Wrap(h)})
	}
	p, h := complydv1connect.NewAuthServiceHandler(d.Auth, opts...)
	add(complydv1connect.AuthServiceName, p, h)
	p, h = complydv1connect.NewUserServiceHandler(d.Users, opts...)
	add(complydv1connect.UserServiceName, p, h)
	p, h = complydv1connect.NewAuditServiceHandler(d.Users, opts...)
	add(complydv1connect.AuditServiceName, p, h)
	p, h = complydv1connect.NewTenantServiceHandler(d.Users, opts...)
	add(complydv1connect.TenantServiceName, p, h)
	return out, nil
}

// Mount registers the services, gRPC server reflection (v1 and v1alpha) and gRPC health on mux.
func Mount(mux *http.ServeMux, hs []Handler) {
	names := make([]string, 0, len(hs))
	for _, h := range hs {
		mux.Handle(h.Path, h.Handler)
		names = append(names, h.Name)
	}
	reflector := grpcreflect.NewStaticReflector(append(names, grpchealth.HealthV1ServiceName)...)
	mux.Handle(grpcreflect.NewHandlerV1(reflector))
	mux.Handle(grpcreflect.NewHandlerV1Alpha(reflector))
	checker := grpchealth.NewStaticChecker(names...)
	mux.Handle(grpchealth.NewHandler(checker))
}
