package sanctionshttp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/complyd/complyd/internal/outbound"
)

// maxRedirects bounds the redirects a guarded download follows.
const maxRedirects = 5

// NewGuardedFetcher returns a fetcher for addresses an operator configured (the FtM scheduled
// update): every connection, redirects included, goes through the outgoing-URL guard
// (outbound.DialControl judges the very IP dialled, after DNS), no proxy is used, and each
// redirect's target must itself pass outbound.ValidateURL (https, no credentials, no
// forbidden IP literal) unless allowPrivate (tests and dev: http and loopback allowed).
func NewGuardedFetcher(allowPrivate bool) *Fetcher {
	dialer := &net.Dialer{Timeout: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = outbound.DialControl
	}
	transport := &http.Transport{Proxy: nil, DialContext: dialer.DialContext, ForceAttemptHTTP2: true,
		TLSHandshakeTimeout: 30 * time.Second, ResponseHeaderTimeout: time.Minute}
	client := &http.Client{Transport: transport, Timeout: 5 * time.Minute,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			if err := outbound.ValidateURL("redirect", req.URL.String(), allowPrivate); err != nil {
				return fmt.Errorf("%w: redirect to %s: %v", outbound.ErrForbiddenAddress, req.URL.Redacted(), err)
			}
			return nil
		}}
	return &Fetcher{Client: client, MaxBytes: 1 << 30}
}

// Get downloads one address (at most MaxBytes).
func (f *Fetcher) Get(ctx context.Context, url string) ([]byte, error) {
	data, err := f.get(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	return data, nil
}

// IsForbidden says whether err is the guard's refusal of an address.
func IsForbidden(err error) bool { return errors.Is(err, outbound.ErrForbiddenAddress) }
