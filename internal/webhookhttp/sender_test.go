package webhookhttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/webhook"
)

type received struct {
	header http.Header
	body   []byte
}

type testBundle struct {
	srv   *httptest.Server
	got   chan received
	hits  atomic.Int32
	reply func(w http.ResponseWriter, r *http.Request)
}

// setup starts a real receiver on 127.0.0.1 that records what it gets and answers with reply
// (204 when nil).
func setup(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) *testBundle {
	t.Helper()
	b := &testBundle{got: make(chan received, 4), reply: reply}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		b.got <- received{header: r.Header.Clone(), body: body}
		if b.reply != nil {
			b.reply(w, r)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func message(t *testing.T) webhook.Message {
	t.Helper()
	p := webhook.NewPayload("tenant-1", webhook.EventCaseResolved, map[string]any{"caseId": "case_1"}, time.Now())
	d, err := webhook.NewDelivery("ignored", p, time.Now())
	require.NoError(t, err)
	return d.Message()
}

func TestSendSigned(t *testing.T) {
	t.Parallel()
	b := setup(t, nil)
	s := NewSender(Options{AllowPrivate: true})
	m := message(t)

	code, err := s.Send(context.Background(), b.srv.URL+"/hooks", "s3cret", m)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, code)

	r := <-b.got
	require.Equal(t, m.Body, r.body)
	require.NoError(t, webhook.Verify("s3cret", r.header, r.body, time.Minute))
	require.NoError(t, webhook.VerifyBody("s3cret", r.body, r.header.Get("X-Svc-Signature")))
	require.Equal(t, r.header.Get("X-Svc-Signature"), r.header.Get("X-Signature"))
	require.ErrorIs(t, webhook.Verify("wrong", r.header, r.body, time.Minute), webhook.ErrInvalidSignature)
	require.Equal(t, "case.resolved", r.header.Get("X-Svc-Event"))
	require.Equal(t, m.DeliveryID, r.header.Get("X-Svc-Delivery"))
	require.Equal(t, m.EventID, r.header.Get("X-Svc-Event-Id"))
	require.NotEmpty(t, r.header.Get("X-Svc-Timestamp"))
	require.Equal(t, "application/json", r.header.Get("Content-Type"))
}

func TestSendUnsigned(t *testing.T) {
	t.Parallel()
	b := setup(t, nil)
	_, err := NewSender(Options{AllowPrivate: true}).Send(context.Background(), b.srv.URL, "", message(t))
	require.NoError(t, err)
	r := <-b.got
	require.Empty(t, r.header.Get("X-Svc-Signature"))
	require.ErrorIs(t, webhook.Verify("s3cret", r.header, r.body, 0), webhook.ErrMissingSignature)
}

func TestSendRefusesLoopback(t *testing.T) {
	t.Parallel()
	b := setup(t, nil)
	_, port, err := net.SplitHostPort(strings.TrimPrefix(b.srv.URL, "http://"))
	require.NoError(t, err)
	s := NewSender(Options{})

	for _, u := range []string{
		b.srv.URL,                          // 127.0.0.1 literal
		"http://localhost:" + port + "/x",  // a name resolving to loopback, refused after DNS
		"http://[::1]:" + port + "/x",      // IPv6 loopback
		"https://localhost:" + port + "/x", // TLS never starts: the dial is refused first
	} {
		code, err := s.Send(context.Background(), u, "s3cret", message(t))
		require.ErrorIs(t, err, ErrForbiddenAddress, u)
		require.Zero(t, code)
	}
	require.Zero(t, b.hits.Load(), "nothing reached the receiver")
}

func TestSendNon2xx(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusInternalServerError, http.StatusBadRequest, http.StatusGone} {
		b := setup(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) })
		code, err := NewSender(Options{AllowPrivate: true}).Send(context.Background(), b.srv.URL, "k", message(t))
		require.Equal(t, status, code)
		var se *StatusError
		require.ErrorAs(t, err, &se)
		require.Equal(t, status, se.StatusCode)
	}
}

func TestSendDoesNotFollowRedirects(t *testing.T) {
	t.Parallel()
	target := setup(t, nil)
	b := setup(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.srv.URL, http.StatusTemporaryRedirect)
	})
	code, err := NewSender(Options{AllowPrivate: true}).Send(context.Background(), b.srv.URL, "k", message(t))
	require.Equal(t, http.StatusTemporaryRedirect, code)
	var se *StatusError
	require.ErrorAs(t, err, &se)
	require.Zero(t, target.hits.Load())
}

func TestSendTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	b := setup(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	start := time.Now()
	code, err := NewSender(Options{AllowPrivate: true, Timeout: 200 * time.Millisecond}).
		Send(context.Background(), b.srv.URL, "k", message(t))
	require.Zero(t, code)
	var ne net.Error
	require.True(t, errors.As(err, &ne) && ne.Timeout(), "%v", err)
	require.Less(t, time.Since(start), 3*time.Second)

	require.Equal(t, DefaultTimeout, 10*time.Second)
}

func TestSendInvalidURL(t *testing.T) {
	t.Parallel()
	s := NewSender(Options{AllowPrivate: true})
	for _, u := range []string{"", "ftp://x/y", "http://user:pw@127.0.0.1/", "/relative"} {
		_, err := s.Send(context.Background(), u, "k", message(t))
		require.Error(t, err, u)
	}
}
