package reporthttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/outbound"
	"github.com/complyd/complyd/internal/reports"
)

// Filer submits reports to a tenant's filing endpoint.
type Filer struct {
	client       *http.Client
	allowPrivate bool
}

var _ reports.Filer = (*Filer)(nil)

// NewFiler returns a Filer whose transport refuses forbidden addresses after DNS resolution
// (outbound.DialControl) unless allowPrivate, ignores proxies and never follows redirects,
// like the webhook sender.
func NewFiler(allowPrivate bool, timeout time.Duration) *Filer {
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	dialer := &net.Dialer{Timeout: timeout}
	if !allowPrivate {
		dialer.Control = outbound.DialControl
	}
	return &Filer{allowPrivate: allowPrivate, client: &http.Client{
		Transport: &http.Transport{Proxy: nil, DialContext: dialer.DialContext, TLSHandshakeTimeout: timeout, ResponseHeaderTimeout: timeout},
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

// CheckURL vets a filing URL at configuration time (outbound.ValidateURL).
func (f *Filer) CheckURL(raw string) error {
	return outbound.ValidateURL("filingUrl", raw, f.allowPrivate)
}

// File POSTs the XML (Content-Type application/xml, Authorization: Bearer token when set,
// X-Report-Id) and reads the reference from the answer: a JSON object's "reference" (or
// "fiuRefNumber"), else the body's text. Any status other than 2xx, or an answer without a
// reference, is an error.
func (f *Filer) File(ctx context.Context, rawURL, token, reportID string, xml []byte) (string, error) {
	if err := outbound.ValidateURL("filingUrl", rawURL, f.allowPrivate); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(xml))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("X-Report-Id", reportID)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := f.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("post report: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return "", fmt.Errorf("read answer: %w", err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return "", fmt.Errorf("status %d: %s", res.StatusCode, strings.TrimSpace(string(body)))
	}
	var ans struct {
		Reference    string `json:"reference"`
		FIURefNumber string `json:"fiuRefNumber"`
	}
	ref := ""
	if json.Unmarshal(body, &ans) == nil {
		ref = strings.TrimSpace(ans.Reference + ans.FIURefNumber)
	} else {
		ref = strings.TrimSpace(string(body))
	}
	if ref == "" || len(ref) > 255 {
		return "", fmt.Errorf("the endpoint answered without a reference")
	}
	return ref, nil
}
