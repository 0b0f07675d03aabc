package app

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
)

// TestDevBusyPort: `complyd dev` on a busy COMPLYD_ADDR stops within a second with the cause and
// the variable to set, before it starts PostgreSQL (no cluster directory is created) or
// migrates anything.
func TestDevBusyPort(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	dir := t.TempDir()
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))

	start := time.Now()
	err = runDev(context.Background(), log, devParams{Cfg: config{Addr: busy.Addr().String()}, Dir: dir, Out: &out})
	elapsed := time.Since(start)

	require.Error(t, err)
	require.Less(t, elapsed, time.Second)
	msg := err.Error()
	require.Contains(t, msg, "dev cannot listen on COMPLYD_ADDR "+busy.Addr().String())
	require.Contains(t, msg, "address already in use")
	require.Contains(t, msg, "COMPLYD_ADDR=127.0.0.1:")
	require.Contains(t, msg, "Nothing was started")
	_, statErr := os.Stat(filepath.Join(dir, "pg"))
	require.True(t, os.IsNotExist(statErr), "dev must not start PostgreSQL on a busy port")
	_, statErr = os.Stat(filepath.Join(dir, "env"))
	require.True(t, os.IsNotExist(statErr))
	require.Empty(t, out.String())
}

// TestDevWritesEnv: `complyd dev` writes DATABASE_URL and COMPLYD_URL to .complyd/env while it
// runs (the operator commands read it), prints them, and removes the file when it stops.
func TestDevWritesEnv(t *testing.T) {
	t.Parallel()
	_, url := pgtest.Fresh(t)
	dir := t.TempDir()
	out := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := config{DatabaseURL: url, Addr: "127.0.0.1:0", BlobDir: t.TempDir(), MailFrom: "x@y.z", LookupPrice: "100",
		IdentitySandbox: true, WebhookAllowPrivate: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runDev(ctx, log, devParams{Cfg: cfg, Dir: dir, Out: out, Empty: true, Ready: func(a string) { addr <- a }})
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case err := <-done:
		t.Fatalf("dev: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("dev did not start")
	}

	vars, err := readDevEnv(filepath.Join(dir, "env"))
	require.NoError(t, err)
	require.Equal(t, url, vars["DATABASE_URL"])
	require.Equal(t, base, vars["COMPLYD_URL"])
	require.Contains(t, out.String(), "DATABASE_URL="+url)

	res, err := http.Get(base + "/health")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	res, err = http.Post(base+"/api/v1/auth/login", "application/json",
		bytes.NewBufferString(`{"email":"`+demoEmail+`","password":"`+demoPassword+`"}`))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("dev did not stop")
	}
	_, statErr := os.Stat(filepath.Join(dir, "env"))
	require.True(t, os.IsNotExist(statErr), "the env file describes the running dev only")
}

// TestDevEnvRoundTrip: values with shell metacharacters survive writeDevEnv/readDevEnv.
func TestDevEnvRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "env")
	in := [][2]string{{"DATABASE_URL", "postgres://u:p'w@h:5/db?sslmode=disable&x=1"}, {"COMPLYD_URL", "http://127.0.0.1:1"}}
	require.NoError(t, writeDevEnv(path, in))
	got, err := readDevEnv(path)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"DATABASE_URL": in[0][1], "COMPLYD_URL": in[1][1]}, got)
	missing, err := readDevEnv(filepath.Join(t.TempDir(), "none"))
	require.NoError(t, err)
	require.Empty(t, missing)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }
