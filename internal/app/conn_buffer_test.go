package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// countingListener counts the reads made on the connections it accepts.
type countingListener struct {
	net.Listener
	reads *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{Conn: c, reads: l.reads}, nil
}

type countingConn struct {
	net.Conn
	reads *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	c.reads.Add(1)
	return c.Conn.Read(p)
}

// TestServeReadsHTTP2FramesBuffered: the server reads a unary h2c call (HEADERS and DATA, as
// gRPC sends it) from its connection in about one read, not two reads per frame, and answers
// HTTP/1 and h2c alike. It failed before the server's listener buffered its connections: 4 or
// more reads per call.
func TestServeReadsHTTP2FramesBuffered(t *testing.T) {
	var reads atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = w.Write(b)
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveListener(ctx, countingListener{ln, &reads}, newHTTPServer(echo, httpLimits{}), slog.New(slog.DiscardHandler), nil)
	}()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	url := "http://" + ln.Addr().String() + "/echo"
	body := strings.Repeat("x", 600) // a screening's size

	h2c := h2cClient()
	post := func(c *http.Client) {
		res, err := c.Post(url, "application/grpc", bytes.NewReader([]byte(body)))
		require.NoError(t, err)
		defer res.Body.Close()
		got, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Equal(t, body, string(got))
	}
	post(h2c) // the connection's preface and settings are not part of the count
	const calls = 50
	before := reads.Load()
	for range calls {
		post(h2c)
	}
	perCall := float64(reads.Load()-before) / calls
	t.Logf("reads per h2c call: %.2f", perCall)
	require.LessOrEqualf(t, perCall, 2.5, "reads per h2c call: %.2f (two per frame when unbuffered)", perCall)

	// HTTP/1 through the same listener: answered, body intact, keep-alive.
	h1 := &http.Client{Transport: &http.Transport{}}
	for range 3 {
		post(h1)
	}
}
