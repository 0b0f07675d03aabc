package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// headerMap is a case-sensitive HeaderGetter for tests (http.Header is the real one).
type headerMap map[string]string

func (h headerMap) Get(k string) string { return h[k] }

var now = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

func TestPayloadMarshal(t *testing.T) {
	t.Parallel()
	p := NewPayload("tenant-1", EventCaseResolved, map[string]any{"caseId": "case_1"}, now.In(time.FixedZone("WAT", 3600)))
	require.Regexp(t, `^evt_[0-9a-v]{26}$`, p.ID)
	b, err := p.Marshal()
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(b, &got))
	require.Equal(t, map[string]any{
		"id": p.ID, "event": "case.resolved", "timestamp": "2026-05-06T07:08:09Z",
		"tenantId": "tenant-1", "data": map[string]any{"caseId": "case_1"},
	}, got)

	_, err = Payload{Event: "case.deleted"}.Marshal()
	require.Error(t, err)
}

func TestHeadersAndVerify(t *testing.T) {
	t.Parallel()
	body := []byte(`{"id":"evt_1","event":"case.created"}`)
	m := Message{DeliveryID: "whd_1", EventID: "evt_1", Event: EventCaseCreated, Body: body}
	h := headerMap(Headers("s3cret", m, now))

	// The spec's signature: HMAC-SHA256 of the raw body, in two headers.
	mac := hmac.New(sha256.New, []byte("s3cret"))
	mac.Write(body)
	want := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	require.Equal(t, want, h[HeaderSignature])
	require.Equal(t, want, h[HeaderSignatureAlt])
	require.NoError(t, VerifyBody("s3cret", body, h[HeaderSignatureAlt]))

	// The timestamped signature: HMAC-SHA256 of "<ts>.<body>".
	mac = hmac.New(sha256.New, []byte("s3cret"))
	mac.Write([]byte("1778051289." + string(body)))
	require.Equal(t, "1778051289", h[HeaderTimestamp])
	require.Equal(t, "t=1778051289,v1="+hex.EncodeToString(mac.Sum(nil)), h[HeaderSignatureV2])
	require.Equal(t, "case.created", h[HeaderEvent])
	require.Equal(t, "whd_1", h[HeaderDelivery])
	require.Equal(t, "evt_1", h[HeaderEventID])
	require.Equal(t, "application/json", h[HeaderContentType])

	tests := []struct {
		name    string
		secret  string
		headers headerMap
		body    []byte
		at      time.Time
		want    error
	}{
		{"valid", "s3cret", h, body, now, nil},
		{"valid within tolerance", "s3cret", h, body, now.Add(299 * time.Second), nil},
		{"clock skew within tolerance", "s3cret", h, body, now.Add(-299 * time.Second), nil},
		{"replayed later", "s3cret", h, body, now.Add(301 * time.Second), ErrTimestampTooOld},
		{"wrong secret", "other", h, body, now, ErrInvalidSignature},
		{"tampered body", "s3cret", h, []byte(`{"id":"evt_2","event":"case.created"}`), now, ErrInvalidSignature},
		{"tampered timestamp", "s3cret", headerMap{HeaderSignatureV2: "t=1778051290" + h[HeaderSignatureV2][12:]}, body, now, ErrInvalidSignature},
		{"missing", "s3cret", headerMap{}, body, now, ErrMissingSignature},
		{"malformed", "s3cret", headerMap{HeaderSignatureV2: "v1=abc"}, body, now, ErrMissingSignature},
		{"bad t", "s3cret", headerMap{HeaderSignatureV2: "t=x,v1=abc"}, body, now, ErrMissingSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := VerifyAt(tt.secret, tt.headers, tt.body, 0, tt.at)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.want)
		})
	}

	require.ErrorIs(t, VerifyBody("s3cret", body, "sha1=abc"), ErrMissingSignature)
	require.ErrorIs(t, VerifyBody("s3cret", []byte("x"), want), ErrInvalidSignature)
}

func TestHeadersWithoutSecret(t *testing.T) {
	t.Parallel()
	h := Headers("", Message{DeliveryID: "whd_1", EventID: "evt_1", Event: EventCaseCreated, Body: []byte("{}")}, now)
	for _, k := range []string{HeaderSignature, HeaderSignatureAlt, HeaderSignatureV2, HeaderTimestamp} {
		require.NotContains(t, h, k)
	}
	require.Equal(t, "case.created", h[HeaderEvent])
}
