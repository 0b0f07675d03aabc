package app

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/restapi"
)

// httpLimits bounds what outsiders can send (docs/guide/operations.md "Limits"). A zero field takes its
// default, so that a config built in code (tests) is as safe as one read from the environment.
type httpLimits struct {
	Bodies            restapi.Limits
	MaxHeaderBytes    int
	ReadHeaderTimeout time.Duration
	IdleTimeout       time.Duration
	// ImageDecodeBytes bounds the memory of the images being decoded at once (liveness,
	// biometric verify, face match); 0: identity.DefaultDecodeBudget.
	ImageDecodeBytes int64
}

// Defaults: 64 KiB of headers (a bearer token and session cookie are well under 4 KiB; net/http's
// own default is 1 MiB), 10 s to send them, and 120 s before an idle keep-alive connection or
// HTTP/2 stream-less connection is closed.
const (
	defaultMaxHeaderBytes    = 64 << 10
	defaultReadHeaderTimeout = 10 * time.Second
	defaultIdleTimeout       = 120 * time.Second
)

func (l httpLimits) withDefaults() httpLimits {
	d := restapi.DefaultLimits
	b := &l.Bodies
	b.JSONBodyBytes = or(b.JSONBodyBytes, d.JSONBodyBytes)
	b.FileBodyBytes = or(b.FileBodyBytes, d.FileBodyBytes)
	b.BodyReadTimeout = or(b.BodyReadTimeout, d.BodyReadTimeout)
	b.FileReadTimeout = or(b.FileReadTimeout, d.FileReadTimeout)
	l.MaxHeaderBytes = or(l.MaxHeaderBytes, defaultMaxHeaderBytes)
	l.ReadHeaderTimeout = or(l.ReadHeaderTimeout, defaultReadHeaderTimeout)
	l.IdleTimeout = or(l.IdleTimeout, defaultIdleTimeout)
	return l
}

func or[T int | int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// loadHTTPLimits reads the COMPLYD_HTTP_* variables; unset ones keep their defaults.
func loadHTTPLimits() (httpLimits, error) {
	var l httpLimits
	var err error
	ints := []struct {
		name string
		dst  *int64
	}{{"COMPLYD_HTTP_MAX_JSON_BYTES", &l.Bodies.JSONBodyBytes}, {"COMPLYD_HTTP_MAX_FILE_BYTES", &l.Bodies.FileBodyBytes},
		{"COMPLYD_IMAGE_DECODE_BUDGET_BYTES", &l.ImageDecodeBytes}}
	for _, v := range ints {
		n, e := envInt(v.name, 0)
		if e != nil {
			return l, e
		}
		*v.dst = int64(n)
	}
	if l.MaxHeaderBytes, err = envInt("COMPLYD_HTTP_MAX_HEADER_BYTES", 0); err != nil {
		return l, err
	}
	durations := []struct {
		name string
		dst  *time.Duration
	}{
		{"COMPLYD_HTTP_BODY_READ_TIMEOUT", &l.Bodies.BodyReadTimeout},
		{"COMPLYD_HTTP_FILE_READ_TIMEOUT", &l.Bodies.FileReadTimeout},
		{"COMPLYD_HTTP_READ_HEADER_TIMEOUT", &l.ReadHeaderTimeout},
		{"COMPLYD_HTTP_IDLE_TIMEOUT", &l.IdleTimeout},
	}
	for _, v := range durations {
		s := strings.TrimSpace(os.Getenv(v.name))
		if s == "" {
			continue
		}
		d, e := time.ParseDuration(s)
		if e != nil || d <= 0 {
			return l, fmt.Errorf("%s must be a positive duration such as 15s", v.name)
		}
		*v.dst = d
	}
	return l.withDefaults(), nil
}

// newHTTPServer is the one server of every protocol, with l's header and connection limits;
// the body limits are applied by the handler (restapi.LimitBodies), per route class.
func newHTTPServer(h http.Handler, l httpLimits) *http.Server {
	l = l.withDefaults()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: l.ReadHeaderTimeout, IdleTimeout: l.IdleTimeout,
		MaxHeaderBytes: l.MaxHeaderBytes, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true) // h2c: gRPC without TLS on one port
	return srv
}
