package app

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/restapi"
)

// startServe runs `complyd serve` in-process with cfg (its database and address filled in) and
// returns the bound address; the server stops at the test's end.
func startServe(t *testing.T, cfg config) string {
	t.Helper()
	if cfg.DatabaseURL == "" {
		_, cfg.DatabaseURL = pgtest.Fresh(t)
	}
	cfg.Addr = "127.0.0.1:0"
	cfg.JWTSecret = "limits-secret-limits-secret-limits-secret"
	cfg.MailFrom, cfg.BlobDir, cfg.LookupPrice = "x@y.z", t.TempDir(), "100"
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelError}))
	go func() { done <- serve(ctx, cfg, log, func(a string) { addr <- a }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop")
		}
	})
	select {
	case a := <-addr:
		return a
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not start")
	}
	return ""
}

// rawRequest writes head (request line and headers, without the blank line) and body on a new
// connection and returns the status line and body of the answer, or the read error.
func rawRequest(t *testing.T, addr, head string, body []byte, deadline time.Duration) (string, string, error) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(deadline))
	if _, err := io.WriteString(c, head+"\r\n\r\n"); err != nil {
		return "", "", err
	}
	_, _ = c.Write(body) // the server may close before taking it all
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "", "", err
	}
	b, _ := io.ReadAll(res.Body)
	return res.Status, string(b), nil
}

// TestLimitsDeclaredLengthRefusedAtOnce is issue 12's first finding: a login with a huge declared
// Content-Length used to make the transcoder allocate that many bytes before reading; it must be
// refused at once with PAYLOAD_TOO_LARGE, without the heap growing.
func TestLimitsDeclaredLengthRefusedAtOnce(t *testing.T) {
	t.Parallel()
	addr := startServe(t, config{})
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, path := range []string{"/api/v1/auth/login", "/complyd.v1.AuthService/Login"} {
		start := time.Now()
		head := "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3000000000"
		status, body, err := rawRequest(t, addr, head, []byte(`{"email":`), 5*time.Second)
		require.NoError(t, err, path)
		require.Equal(t, "413 Request Entity Too Large", status, path)
		require.Less(t, time.Since(start), 2*time.Second, path)
		if strings.HasPrefix(path, "/api/") {
			require.JSONEq(t, `{"success":false,"error":{"code":"PAYLOAD_TOO_LARGE","message":"request body exceeds the 1048576-byte limit"}}`, body)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	require.Less(t, after.HeapAlloc, before.HeapAlloc+64<<20, "the heap grew by the declared length")
}

// TestLimitsStreamedBodyCut: a body sent without a length is cut at the route class's limit
// (JSON here), answered PAYLOAD_TOO_LARGE over /api/v1 and resource_exhausted over Connect, and
// a file route takes its larger limit.
func TestLimitsStreamedBodyCut(t *testing.T) {
	t.Parallel()
	cfg := config{HTTP: httpLimits{Bodies: restapi.Limits{JSONBodyBytes: 64 << 10, FileBodyBytes: 256 << 10}}}
	addr := startServe(t, cfg)
	big := `{"email":"` + strings.Repeat("a", 200<<10) + `@x.ng","password":"longenough"}`

	res, err := http.Post("http://"+addr+"/api/v1/auth/login", "application/json", io.MultiReader(strings.NewReader(big)))
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, string(b))
	require.Contains(t, string(b), `"code":"PAYLOAD_TOO_LARGE"`)

	res, err = http.Post("http://"+addr+"/complyd.v1.AuthService/Login", "application/json", io.MultiReader(strings.NewReader(big)))
	require.NoError(t, err)
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	require.NotEqual(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(b), `"code":"resource_exhausted"`)

	// The same 200 KiB to a file route passes the size limit and reaches the handler, which
	// refuses it for want of a session (not for its size).
	res, err = http.Post("http://"+addr+"/api/v1/kyc/applications/00000000-0000-0000-0000-000000000001/face-match",
		"application/json", io.MultiReader(strings.NewReader(`{"selfieImage":"`+strings.Repeat("A", 200<<10)+`"}`)))
	require.NoError(t, err)
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, string(b))
}

// TestLimitsTrickledBodiesClosed: clients that send their body a byte at a time are cut off
// after the body read timeout, many at once, and a normal request is served meanwhile.
func TestLimitsTrickledBodiesClosed(t *testing.T) {
	t.Parallel()
	cfg := config{HTTP: httpLimits{Bodies: restapi.Limits{BodyReadTimeout: time.Second}}}
	addr := startServe(t, cfg)
	const clients = 100
	var wg sync.WaitGroup
	closedAfter := make(chan time.Duration, clients)
	for range clients {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				closedAfter <- time.Hour
				return
			}
			defer c.Close()
			start := time.Now()
			_, _ = io.WriteString(c, "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
			for i := 0; i < 100; i++ {
				if _, err := c.Write([]byte{' '}); err != nil {
					break
				}
				_ = c.SetReadDeadline(time.Now().Add(400 * time.Millisecond))
				if _, err := c.Read(make([]byte, 512)); err == nil || !isTimeout(err) {
					break // an answer, or the connection closed
				}
			}
			closedAfter <- time.Since(start)
		})
	}
	res, err := http.Get("http://" + addr + "/health")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	wg.Wait()
	close(closedAfter)
	for d := range closedAfter {
		require.Less(t, d, 5*time.Second, "a trickling client was kept")
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestLimitsHeaders: headers over the limit are refused with 431.
func TestLimitsHeaders(t *testing.T) {
	t.Parallel()
	addr := startServe(t, config{HTTP: httpLimits{MaxHeaderBytes: 8 << 10}})
	head := fmt.Sprintf("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: %s", bytes.Repeat([]byte("a"), 64<<10))
	status, _, err := rawRequest(t, addr, head, nil, 5*time.Second)
	require.NoError(t, err)
	require.Equal(t, "431 Request Header Fields Too Large", status)
}
