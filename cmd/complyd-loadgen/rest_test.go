package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/structpb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// restTestServer is a real HTTP server on loopback that answers the screening path by the
// request's externalId: "dup" 409, "shed" 503, "slow" after 300 ms, "close" with Connection:
// close, "chunked" with a flushed (chunked) body, anything else 200; it records the bodies and
// headers it got and counts the connections it accepted.
type restTestServer struct {
	*httptest.Server
	mu      sync.Mutex
	bodies  []map[string]any
	keys    []string
	ctypes  []string
	paths   []string
	newConn int
}

func newRESTTestServer(t *testing.T) *restTestServer {
	s := &restTestServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.bodies, s.keys = append(s.bodies, body), append(s.keys, r.Header.Get("X-API-Key"))
		s.ctypes, s.paths = append(s.ctypes, r.Header.Get("Content-Type")), append(s.paths, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch body["externalId"] {
		case "dup":
			w.WriteHeader(http.StatusConflict)
		case "shed":
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"success":false,"error":{"code":"SERVICE_UNAVAILABLE"}}`))
			return
		case "slow":
			time.Sleep(300 * time.Millisecond)
		case "close":
			w.Header().Set("Connection", "close")
		case "chunked":
			_, _ = w.Write([]byte(`{"success":true,`))
			w.(http.Flusher).Flush()
			_, _ = w.Write([]byte(`"data":{}}`))
			return
		}
		_, _ = w.Write([]byte(`{"success":true,"data":{}}`))
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.mu.Lock()
			s.newConn++
			s.mu.Unlock()
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *restTestServer) conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newConn
}

func TestRESTSender(t *testing.T) {
	for _, client := range []string{"raw", "nethttp"} {
		t.Run(client, func(t *testing.T) {
			srv := newRESTTestServer(t)
			send, err := restSender(options{url: srv.URL, restClient: client, workers: 4}, apiKeyCred("ck_test"))
			require.NoError(t, err)
			req := func(ext string) *complydv1.ScreenTransactionRequest {
				return &complydv1.ScreenTransactionRequest{ExternalId: ext, Type: "TRANSFER", Channel: "MOBILE_APP", Amount: 1234.5,
					SenderAccountNumber: "1000000001", SenderName: "Customer 1 Adeyemi", SenderBvn: str("20000000001"),
					ReceiverName: str("Ngozi Okafor"), Timestamp: "2026-11-28T20:00:00.123Z"}
			}
			ctx := context.Background()

			for range 5 {
				ok, err := send(ctx, req("ok"))
				require.NoError(t, err)
				require.True(t, ok)
			}
			require.Equal(t, 1, srv.conns(), "sequential requests share one keep-alive connection")

			ok, err := send(ctx, req("dup"))
			require.NoError(t, err)
			require.False(t, ok, "409 is a duplicate, not an error")

			_, err = send(ctx, req("shed"))
			require.Error(t, err)
			require.Equal(t, "shed", errorKind(err))
			require.Contains(t, err.Error(), "SERVICE_UNAVAILABLE")

			ok, err = send(ctx, req("chunked"))
			require.NoError(t, err)
			require.True(t, ok, "a chunked answer is read whole")

			ok, err = send(ctx, req("close"))
			require.NoError(t, err)
			require.True(t, ok)
			ok, err = send(ctx, req("ok"))
			require.NoError(t, err, "the connection the server closed is not reused")
			require.True(t, ok)
			require.Equal(t, 2, srv.conns())

			if client == "raw" {
				// A connection the server closed while it was idle is replaced and the request sent
				// again. (net/http's client does not resend a POST whose connection it had not yet
				// seen closed: it answers EOF.)
				srv.CloseClientConnections()
				ok, err = send(ctx, req("ok"))
				require.NoError(t, err)
				require.True(t, ok)
			}

			tctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			_, err = send(tctx, req("slow"))
			cancel()
			require.Error(t, err)
			require.Equal(t, "timeout", errorKind(err))

			meta, err := structpb.NewStruct(map[string]any{"entityType": "BUSINESS"})
			require.NoError(t, err)
			r := req("meta")
			r.Metadata, r.Currency, r.DeviceId = meta, str("USD"), str("dev-1")
			_, err = send(ctx, r)
			require.NoError(t, err)

			srv.mu.Lock()
			defer srv.mu.Unlock()
			for i := range srv.paths {
				require.Equal(t, "POST /api/v1/transactions/screen", srv.paths[i])
				require.Equal(t, "ck_test", srv.keys[i])
				require.Equal(t, "application/json", srv.ctypes[i])
			}
			require.Equal(t, map[string]any{"externalId": "ok", "type": "TRANSFER", "channel": "MOBILE_APP", "amount": 1234.5,
				"senderAccountNumber": "1000000001", "senderName": "Customer 1 Adeyemi", "senderBvn": "20000000001",
				"receiverName": "Ngozi Okafor", "timestamp": "2026-11-28T20:00:00.123Z"}, srv.bodies[0])
			last := srv.bodies[len(srv.bodies)-1]
			require.Equal(t, map[string]any{"entityType": "BUSINESS"}, last["metadata"])
			require.Equal(t, "USD", last["currency"])
			require.Equal(t, "dev-1", last["deviceId"])
		})
	}
}

func TestRESTSenderUnknownClient(t *testing.T) {
	_, err := restSender(options{url: "http://127.0.0.1:1", restClient: "curl"}, apiKeyCred("k"))
	require.ErrorContains(t, err, `unknown -rest-client "curl"`)
}
