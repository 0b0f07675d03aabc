package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// restSender screens over POST /api/v1/transactions/screen with the client -rest-client names.
// It answers true for 200, false for 409 (a duplicate externalId), and a statusError for any
// other status.
func restSender(o options, c credential) (func(context.Context, *complydv1.ScreenTransactionRequest) (bool, error), error) {
	var do func(ctx context.Context, body []byte) (int, []byte, error)
	switch o.restClient {
	case "raw":
		rc, err := newRawClient(o.url, c)
		if err != nil {
			return nil, err
		}
		do = rc.do
	case "nethttp":
		do = netHTTPClient(o, c)
	default:
		return nil, fmt.Errorf("unknown -rest-client %q", o.restClient)
	}
	return func(ctx context.Context, r *complydv1.ScreenTransactionRequest) (bool, error) {
		status, b, err := do(ctx, restBody(r))
		if err != nil {
			return false, err
		}
		switch status {
		case http.StatusOK:
			return true, nil
		case http.StatusConflict:
			return false, nil
		}
		return false, &statusError{status: status, body: string(b)}
	}, nil
}

// netHTTPClient posts with net/http's client (the load generator's REST client until the
// twentieth session; -rest-client nethttp).
func netHTTPClient(o options, c credential) func(ctx context.Context, body []byte) (int, []byte, error) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.workers, MaxIdleConns: o.workers}}
	target := o.url + screenPath
	return func(ctx context.Context, body []byte) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		c.apply(req.Header)
		res, err := hc.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res.StatusCode, b, err
	}
}

const screenPath = "/api/v1/transactions/screen"

// rawClient is a minimal HTTP/1.1 client for the one request the load generator repeats: a
// pool of keep-alive connections, each used by one request at a time, the request written from
// a prepared head in one write, the response read on the caller's goroutine.
//
// Why not net/http's client: in the ramp the load generator shares the service's two cores, and
// net/http's Transport runs a reader and a writer goroutine per connection and hands every
// request and response between them and the caller; with the request built from a map that cost
// 250-270 µs of CPU per request at 1,000/s (the measurement log of docs/performance.md#history, twentieth session),
// CPU taken from the service under test that a bank core on its own machines does not take.
type rawClient struct {
	addr string
	head []byte // request line and headers, up to the Content-Length value
	mu   sync.Mutex
	idle []*rawConn
}

type rawConn struct {
	c   net.Conn
	br  *bufio.Reader
	buf []byte
}

func newRawClient(base string, c credential) (*rawClient, error) {
	return newRawClientFor(base, c, screenPath, "application/json")
}

// newRawClientFor is newRawClient for another route and content type (the ISO 20022 mode).
func newRawClientFor(base string, c credential, path, contentType string) (*rawClient, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("-rest-client raw speaks plain HTTP only, not %q", u.Scheme)
	}
	head := "POST " + u.Path + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: " + contentType + "\r\n" +
		c.header + ": " + c.value + "\r\nContent-Length: "
	return &rawClient{addr: u.Host, head: []byte(head)}, nil
}

// do posts body and returns the status and the response body. A reused connection that the
// server closed while it was idle fails before any byte of an answer: the request is then sent
// once more on a new connection (the server never read it; and a screening is idempotent by
// externalId, so even a repeat would only answer 409).
func (rc *rawClient) do(ctx context.Context, body []byte) (int, []byte, error) {
	for attempt := 0; ; attempt++ {
		conn, reused, err := rc.get(ctx)
		if err != nil {
			return 0, nil, err
		}
		status, b, keep, err := rc.roundTrip(ctx, conn, body)
		if err == nil {
			if keep {
				rc.put(conn)
			} else {
				_ = conn.c.Close()
			}
			return status, b, nil
		}
		_ = conn.c.Close()
		if reused && attempt == 0 && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) && ctx.Err() == nil {
			continue
		}
		return 0, nil, err
	}
}

func (rc *rawClient) roundTrip(ctx context.Context, conn *rawConn, body []byte) (status int, b []byte, keep bool, err error) {
	deadline, _ := ctx.Deadline() // none: the zero time, no deadline
	if err := conn.c.SetDeadline(deadline); err != nil {
		return 0, nil, false, err
	}
	conn.buf = append(strconv.AppendInt(append(conn.buf[:0], rc.head...), int64(len(body)), 10), "\r\n\r\n"...)
	conn.buf = append(conn.buf, body...)
	if _, err := conn.c.Write(conn.buf); err != nil {
		return 0, nil, false, err
	}
	res, err := http.ReadResponse(conn.br, nil)
	if err != nil {
		return 0, nil, false, err
	}
	b, err = io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return 0, nil, false, err
	}
	return res.StatusCode, b, !res.Close, nil
}

// get takes an idle connection (reused: true) or dials a new one.
func (rc *rawClient) get(ctx context.Context) (*rawConn, bool, error) {
	rc.mu.Lock()
	if n := len(rc.idle); n > 0 {
		c := rc.idle[n-1]
		rc.idle = rc.idle[:n-1]
		rc.mu.Unlock()
		return c, true, nil
	}
	rc.mu.Unlock()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", rc.addr)
	if err != nil {
		return nil, false, err
	}
	return &rawConn{c: c, br: bufio.NewReaderSize(c, 8<<10)}, false, nil
}

func (rc *rawClient) put(c *rawConn) {
	rc.mu.Lock()
	rc.idle = append(rc.idle, c)
	rc.mu.Unlock()
}

// isNetTimeout reports a connection deadline that ran out (rawClient's form of the 10 s
// timeout).
func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// restRequest is the spec's JSON body of a screening (amount as a JSON number): a struct, not a
// map, so that encoding it needs no sorting of keys or boxing of values.
type restRequest struct {
	ExternalID            string         `json:"externalId"`
	Type                  string         `json:"type"`
	Channel               string         `json:"channel"`
	Amount                float64        `json:"amount"`
	Currency              *string        `json:"currency,omitempty"`
	SenderAccountNumber   string         `json:"senderAccountNumber"`
	SenderBvn             *string        `json:"senderBvn,omitempty"`
	SenderName            string         `json:"senderName"`
	ReceiverName          *string        `json:"receiverName,omitempty"`
	ReceiverAccountNumber *string        `json:"receiverAccountNumber,omitempty"`
	ReceiverCountry       *string        `json:"receiverCountry,omitempty"`
	Narration             *string        `json:"narration,omitempty"`
	DeviceID              *string        `json:"deviceId,omitempty"`
	IPAddress             *string        `json:"ipAddress,omitempty"`
	Timestamp             string         `json:"timestamp"`
	Metadata              map[string]any `json:"metadata,omitempty"`
}

// restBody renders the request as the spec's JSON body.
func restBody(r *complydv1.ScreenTransactionRequest) []byte {
	q := restRequest{ExternalID: r.ExternalId, Type: r.Type, Channel: r.Channel, Amount: r.Amount, Currency: r.Currency,
		SenderAccountNumber: r.SenderAccountNumber, SenderBvn: r.SenderBvn, SenderName: r.SenderName,
		ReceiverName: r.ReceiverName, ReceiverAccountNumber: r.ReceiverAccountNumber, ReceiverCountry: r.ReceiverCountry,
		Narration: r.Narration, DeviceID: r.DeviceId, IPAddress: r.IpAddress, Timestamp: r.Timestamp}
	if r.Metadata != nil {
		q.Metadata = r.Metadata.AsMap()
	}
	b, _ := json.Marshal(q)
	return b
}
