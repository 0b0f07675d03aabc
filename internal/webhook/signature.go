package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Header names sent with every delivery (docs/reference/specification.md part 6, docs/design/design-choices.md §9).
const (
	HeaderSignature    = "X-Svc-Signature"    // sha256=<hex HMAC-SHA256(secret, body)>, as the spec says
	HeaderSignatureAlt = "X-Signature"        // the same value as X-Svc-Signature
	HeaderSignatureV2  = "X-Svc-Signature-V2" // t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
	HeaderTimestamp    = "X-Svc-Timestamp"    // <unix seconds>, the t signed in X-Svc-Signature-V2
	HeaderEvent        = "X-Svc-Event"        // the event name
	HeaderDelivery     = "X-Svc-Delivery"     // the delivery id (whd_…), the same on every retry
	HeaderEventID      = "X-Svc-Event-Id"     // the payload id (evt_…), for deduplication
	HeaderContentType  = "Content-Type"
	HeaderUserAgent    = "User-Agent"
)

// ContentTypeJSON and UserAgent are the values of Content-Type and User-Agent on deliveries.
const (
	ContentTypeJSON = "application/json"
	UserAgent       = "complyd-webhooks/1"
)

// DefaultTolerance is the largest accepted distance between X-Svc-Signature-V2's t and the
// receiver's clock when the caller of Verify gives none.
const DefaultTolerance = 5 * time.Minute

const (
	signatureV1Prefix = "sha256="
	maxSignatureParts = 8
)

// Verification errors.
var (
	ErrMissingSignature = errors.New("webhook: signature header missing or malformed")
	ErrInvalidSignature = errors.New("webhook: signature does not match")
	ErrTimestampTooOld  = errors.New("webhook: timestamp outside the tolerance")
)

// Message is one HTTP request of a delivery attempt, before signing.
type Message struct {
	DeliveryID string
	EventID    string
	Event      string
	Body       []byte
}

// Sign returns the spec's signature value "sha256=<hex HMAC-SHA256(secret, body)>"
// (docs/reference/specification.md part 6 rule 4) for X-Svc-Signature and X-Signature.
func Sign(secret string, body []byte) string {
	return signatureV1Prefix + mac(secret, body)
}

// SignV2 returns the timestamped signature value "t=<ts>,v1=<hex HMAC-SHA256(secret, ts + "." + body)>"
// for X-Svc-Signature-V2; receivers reject replays by checking ts.
func SignV2(secret string, ts int64, body []byte) string {
	return "t=" + strconv.FormatInt(ts, 10) + ",v1=" + mac(secret, signedV2(ts, body))
}

func signedV2(ts int64, body []byte) []byte {
	s := strconv.AppendInt(nil, ts, 10)
	s = append(s, '.')
	return append(s, body...)
}

func mac(secret string, content []byte) string {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// Headers returns every header of a delivery attempt made at now. Without a secret the
// signature headers are left out (docs/reference/specification.md part 6: "When webhookSecret is set …").
func Headers(secret string, m Message, now time.Time) map[string]string {
	h := map[string]string{
		HeaderContentType: ContentTypeJSON,
		HeaderUserAgent:   UserAgent,
		HeaderEvent:       m.Event,
		HeaderDelivery:    m.DeliveryID,
		HeaderEventID:     m.EventID,
	}
	if secret != "" {
		ts := now.Unix()
		sig := Sign(secret, m.Body)
		h[HeaderSignature] = sig
		h[HeaderSignatureAlt] = sig
		h[HeaderTimestamp] = strconv.FormatInt(ts, 10)
		h[HeaderSignatureV2] = SignV2(secret, ts, m.Body)
	}
	return h
}

// HeaderGetter is what Verify reads headers from; http.Header satisfies it.
type HeaderGetter interface {
	Get(key string) string
}

// Verify is the receiver-side check of a delivery, using the wall clock; see VerifyAt.
func Verify(secret string, headers HeaderGetter, body []byte, tolerance time.Duration) error {
	return VerifyAt(secret, headers, body, tolerance, time.Now())
}

// VerifyAt checks X-Svc-Signature-V2 against the raw body: the v1 HMAC over "<t>.<body>" must
// match (compared in constant time) and t must be within tolerance of now (DefaultTolerance when
// tolerance ≤ 0), which rejects replays of captured requests. It returns ErrMissingSignature,
// ErrInvalidSignature or ErrTimestampTooOld.
func VerifyAt(secret string, headers HeaderGetter, body []byte, tolerance time.Duration, now time.Time) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	ts, sigs, err := parseV2(headers.Get(HeaderSignatureV2))
	if err != nil {
		return err
	}
	want := mac(secret, signedV2(ts, body))
	ok := false
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			ok = true
		}
	}
	if !ok {
		return ErrInvalidSignature
	}
	if age := now.Sub(time.Unix(ts, 0)); age > tolerance || age < -tolerance {
		return fmt.Errorf("%w: %s", ErrTimestampTooOld, age.Round(time.Second))
	}
	return nil
}

// VerifyBody checks the spec's untimestamped signature (X-Svc-Signature or X-Signature value
// "sha256=<hex>") against the raw body, for receivers that follow docs/reference/specification.md part 6 only.
// It offers no replay protection. It returns ErrMissingSignature or ErrInvalidSignature.
func VerifyBody(secret string, body []byte, signature string) error {
	hexSig, ok := strings.CutPrefix(signature, signatureV1Prefix)
	if !ok || hexSig == "" {
		return ErrMissingSignature
	}
	if !hmac.Equal([]byte(hexSig), []byte(mac(secret, body))) {
		return ErrInvalidSignature
	}
	return nil
}

// parseV2 parses "t=<ts>,v1=<hex>[,v1=<hex>…]"; several v1 values allow secret rotation later.
func parseV2(v string) (int64, []string, error) {
	if v == "" {
		return 0, nil, ErrMissingSignature
	}
	var (
		ts    int64
		haveT bool
		sigs  []string
	)
	parts := strings.Split(v, ",")
	if len(parts) > maxSignatureParts {
		return 0, nil, ErrMissingSignature
	}
	for _, part := range parts {
		k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return 0, nil, ErrMissingSignature
		}
		switch k {
		case "t":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return 0, nil, ErrMissingSignature
			}
			ts, haveT = n, true
		case "v1":
			sigs = append(sigs, val)
		}
	}
	if !haveT || len(sigs) == 0 {
		return 0, nil, ErrMissingSignature
	}
	return ts, sigs, nil
}
