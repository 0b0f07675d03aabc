package idhttp

import (
	"github.com/complyd/complyd/internal/outbound"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/identity"
)

const (
	defaultTimeout = 10 * time.Second
	maxReplyBytes  = 8 << 20
)

// Config configures one tenant's BYOL provider.
type Config struct {
	identity.BYOLConfig
	// AllowPrivate lets the provider's address be loopback, private or link-local (tests, dev).
	AllowPrivate bool
}

// Provider is the BYOL identity.Provider over HTTP.
type Provider struct {
	cfg       Config
	base      *url.URL
	client    *http.Client
	threshold float64
	notFound  []int
}

var _ identity.Provider = (*Provider)(nil)

// New validates cfg and returns the provider. Without AllowPrivate the base URL must be https.
// Errors: VALIDATION_ERROR.
func New(cfg Config) (*Provider, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	// The one outgoing-URL guard (the webhooks' too): https, no userinfo, no private, loopback
	// or metadata address, checked when the configuration is saved and again on every dial.
	if err := outbound.ValidateURL("byol.baseUrl", cfg.BaseURL, cfg.AllowPrivate); err != nil {
		return nil, err
	}
	base, _ := url.Parse(cfg.BaseURL) // validated above
	timeout := defaultTimeout
	if cfg.TimeoutMs > 0 {
		timeout = time.Duration(cfg.TimeoutMs) * time.Millisecond
	}
	dialer := &net.Dialer{Timeout: timeout}
	if !cfg.AllowPrivate {
		dialer.Control = outbound.DialControl
	}
	transport := &http.Transport{
		Proxy:                 nil, // never via a proxy: the guard must see the real peer
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	p := &Provider{
		cfg:  cfg,
		base: base,
		client: &http.Client{
			Transport: transport,
			Timeout:   timeout,
			// A redirect may stay on the provider's host; one to another host is refused, never
			// followed, so that the vendor's API key (a custom header, which net/http forwards)
			// cannot leave for it.
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) >= 3 {
					return errors.New("too many redirects")
				}
				if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme {
					return fmt.Errorf("%w: redirect to another host (%s)", outbound.ErrForbiddenAddress, req.URL.Host)
				}
				return nil
			},
		},
		threshold: cfg.MatchThreshold,
		notFound:  cfg.NotFoundStatuses,
	}
	if p.threshold == 0 {
		p.threshold = identity.MatchThreshold
	}
	if len(p.notFound) == 0 {
		p.notFound = []int{http.StatusNotFound}
	}
	return p, nil
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.cfg.ProviderName }

// Source returns BYOL.
func (p *Provider) Source() identity.ProviderSource { return identity.SourceBYOL }

// Supports reports whether v is in supportedVerifications and has an endpoint.
func (p *Provider) Supports(v identity.VerificationType) bool {
	return slices.Contains(p.cfg.SupportedVerifications, v) && p.cfg.Endpoints.Path(v) != ""
}

// reply is a decoded 2xx reply, or found=false for a not-found status.
type reply struct {
	notFound bool
	body     any
}

// call POSTs the mapped request to v's endpoint and classifies the outcome.
func (p *Provider) call(ctx context.Context, v identity.VerificationType, fields map[string]any) (reply, error) {
	if !p.Supports(v) {
		return reply{}, fmt.Errorf("%s %s: %w", p.Name(), v, identity.ErrUnsupported)
	}
	body := make(map[string]any, len(fields))
	for k, val := range fields {
		if theirs := p.cfg.RequestFields[k]; theirs != "" {
			k = theirs
		}
		body[k] = val
	}
	buf, err := json.Marshal(body)
	if err != nil {
		return reply{}, fmt.Errorf("encode %s request: %w", v, err)
	}
	target := p.base.JoinPath(p.cfg.Endpoints.Path(v))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.String(), bytes.NewReader(buf))
	if err != nil {
		return reply{}, fmt.Errorf("build %s request: %w", v, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if p.cfg.APIKey != "" {
		req.Header.Set(cmpOr(p.cfg.APIKeyHeader, "Authorization"), p.cfg.APIKeyPrefix+p.cfg.APIKey)
	}
	if p.cfg.AppID != "" {
		req.Header.Set(cmpOr(p.cfg.AppIDHeader, "AppId"), p.cfg.AppID)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		// Timeouts, refused or reset connections, DNS failures and blocked addresses: no answer.
		return reply{}, fmt.Errorf("%s %s: %w: %w", p.Name(), v, identity.ErrOutage, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes))
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: read reply: %w: %w", p.Name(), v, identity.ErrOutage, err)
	}
	switch {
	case slices.Contains(p.notFound, resp.StatusCode):
		return reply{notFound: true}, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return reply{}, fmt.Errorf("%s %s: status %d: %w", p.Name(), v, resp.StatusCode, identity.ErrOutage)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var decoded any
	if err := dec.Decode(&decoded); err != nil {
		return reply{}, fmt.Errorf("%s %s: undecodable reply: %w: %w", p.Name(), v, identity.ErrOutage, err)
	}
	return reply{body: decoded}, nil
}

// field reads our field from the reply at its mapped path (default: the top-level key of our name).
func (p *Provider) field(body any, ours string) (any, bool) {
	return lookup(body, cmpOr(p.cfg.ResponseFields[ours], ours))
}

func (p *Provider) str(body any, ours string) string {
	v, _ := p.field(body, ours)
	return strings.TrimSpace(asString(v))
}

// found is the mapped "found" flag when the reply has one, else whether key fields are present.
func (p *Provider) found(body any, keys ...string) bool {
	if v, ok := p.field(body, "found"); ok {
		if b, ok := asBool(v); ok {
			return b
		}
	}
	for _, k := range keys {
		if p.str(body, k) != "" {
			return true
		}
	}
	return false
}

// raw re-encodes the reply without the photo, which must never be stored (docs/reference/specification.md 4.4).
func (p *Provider) raw(body any) json.RawMessage {
	remove(body, cmpOr(p.cfg.ResponseFields["photo"], "photo"))
	b, err := json.Marshal(body)
	if err != nil {
		return nil
	}
	return b
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
