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
// X-Report-Id, Idempotency-Key) and returns the answer whatever its status, with the reference
// read from the body: a JSON object's "reference" (or "fiuRefNumber"), else the body's text.
// Judging the answer is the service's (reports.File). The error is for no answer at all.
func (f *Filer) File(ctx context.Context, fr reports.FilingRequest) (reports.FilingResponse, error) {
	if err := outbound.ValidateURL("filingUrl", fr.URL, f.allowPrivate); err != nil {
		return reports.FilingResponse{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fr.URL, bytes.NewReader(fr.XML))
	if err != nil {
		return reports.FilingResponse{}, err
	}
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("X-Report-Id", fr.ReportID)
	req.Header.Set("Idempotency-Key", fr.IdempotencyKey)
	if fr.Token != "" {
		req.Header.Set("Authorization", "Bearer "+fr.Token)
	}
	res, err := f.client.Do(req)
	if err != nil {
		return reports.FilingResponse{}, fmt.Errorf("post report: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	out := reports.FilingResponse{StatusCode: res.StatusCode, Body: string(body)}
	if len(out.Body) > reports.MaxAnswerExcerpt {
		out.Body = out.Body[:reports.MaxAnswerExcerpt]
	}
	if err != nil {
		return out, fmt.Errorf("read answer: %w", err)
	}
	var ans struct {
		Reference    string `json:"reference"`
		FIURefNumber string `json:"fiuRefNumber"`
	}
	if json.Unmarshal(body, &ans) == nil {
		out.Reference = strings.TrimSpace(ans.Reference + ans.FIURefNumber)
	} else {
		out.Reference = strings.TrimSpace(string(body))
	}
	return out, nil
}
