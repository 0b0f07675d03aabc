// Package webhookhttp is the HTTP adapter of webhooks: it sends one signed delivery attempt to
// a tenant's URL, with a per-attempt timeout and an SSRF guard on the addresses actually
// dialed. Delivery bookkeeping (states, retries) is in internal/webhook; the River worker in
// internal/jobs calls Send. It imports net/http and internal/webhook, and no other adapter.
package webhookhttp

import (
	"github.com/complyd/complyd/internal/outbound"

	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/complyd/complyd/internal/webhook"
)

// DefaultTimeout is the limit of one attempt, connection to response headers and body.
const DefaultTimeout = 10 * time.Second

// maxResponseBody is how much of a receiver's answer is read (and discarded) so that the
// connection can be reused; the rest is dropped.
const maxResponseBody = 64 << 10

// drainGrace is how long the body of an answer is read after its status line arrived. The
// status decides the attempt; the body only matters for reusing the connection. Reading it
// under the attempt's whole timeout kept a delivery the receiver had answered 2xx PENDING for
// up to 10 s when the receiver held its body open, and a crash in that window sent it again
// (issue 12 finding 2).
const drainGrace = 250 * time.Millisecond

// ErrForbiddenAddress is returned (wrapped) when the URL's host resolves to an address that
// outbound.ForbiddenAddr refuses and private addresses are not allowed.
var ErrForbiddenAddress = outbound.ErrForbiddenAddress

// StatusError is the error of an attempt that got a non-2xx answer; 3xx included, since
// redirects are never followed.
type StatusError struct {
	StatusCode int
}

// Error implements error.
func (e *StatusError) Error() string {
	return fmt.Sprintf("webhook receiver answered %d %s", e.StatusCode, http.StatusText(e.StatusCode))
}

// Options configure a Sender.
type Options struct {
	// AllowPrivate lets deliveries reach loopback and private addresses
	// (COMPLYD_WEBHOOK_ALLOW_PRIVATE; tests and `complyd dev`).
	AllowPrivate bool
	// Timeout limits one attempt; DefaultTimeout when zero.
	Timeout time.Duration
	// Now is the clock used for X-Svc-Timestamp; time.Now when nil.
	Now func() time.Time
}

// Sender sends webhook attempts over HTTP.
type Sender struct {
	client *http.Client
	now    func() time.Time
}

// NewSender returns a Sender. Its transport ignores proxy environment variables (a proxy would
// dial on our behalf and escape the address check), refuses forbidden addresses in the dialer's
// Control hook — after DNS resolution, on the very IP being connected — and never follows
// redirects, so no hop can lead to an unchecked host.
func NewSender(o Options) *Sender {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	dialer := &net.Dialer{Timeout: o.Timeout}
	if !o.AllowPrivate {
		dialer.Control = outbound.DialControl
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   o.Timeout,
		ResponseHeaderTimeout: o.Timeout,
	}
	return &Sender{
		client: &http.Client{
			Transport: transport,
			Timeout:   o.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
		now: o.Now,
	}
}

// Send makes one attempt: it POSTs m.Body to rawURL with the headers of webhook.Headers (signed
// with secret when it is set) and returns the answer's status code (0 when none arrived). Any
// status other than 2xx is a *StatusError; a refused address wraps ErrForbiddenAddress; a
// timeout wraps context.DeadlineExceeded or is a net.Error with Timeout() true.
func (s *Sender) Send(ctx context.Context, rawURL, secret string, m webhook.Message) (int, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return 0, fmt.Errorf("send webhook: invalid url")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(m.Body))
	if err != nil {
		return 0, fmt.Errorf("send webhook: %w", err)
	}
	for k, v := range webhook.Headers(secret, m, s.now()) {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("send webhook: %w", err)
	}
	defer resp.Body.Close()
	// The answer is in: drain what the receiver sends promptly, and give up on the rest (the
	// connection is then closed instead of reused).
	stop := time.AfterFunc(drainGrace, cancel)
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseBody))
	stop.Stop()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, &StatusError{StatusCode: resp.StatusCode}
	}
	return resp.StatusCode, nil
}
