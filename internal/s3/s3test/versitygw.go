// Package s3test starts a real S3-compatible server (versitygw) for tests: the s3 adapter's
// conformance suite and the API-level document tests run against it.
package s3test

import (
	"context"
	"errors"
	"fmt"
	"go/build"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Credentials versitygw is started with.
const (
	AccessKey = "complydtest"
	SecretKey = "complydtestsecret123"
)

// StartVersityGW runs versitygw (pinned v1.8.0, see scripts/install-test-tools.sh) on a free
// loopback port over a temp posix directory and returns its endpoint. Without the binary the
// test fails when CI=true and is skipped otherwise.
func StartVersityGW(t *testing.T) string {
	t.Helper()
	bin, err := findVersityGW()
	if err != nil {
		msg := err.Error() + " (set COMPLYD_TEST_VERSITYGW, put versitygw on PATH, or run scripts/install-test-tools.sh)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	require.NoError(t, os.Mkdir(data, 0o700))
	addr := freeAddr(t)

	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--access", AccessKey, "--secret", SecretKey,
		"--port", addr, "posix", data)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	logf, err := os.Create(filepath.Join(dir, "versitygw.log"))
	require.NoError(t, err)
	cmd.Stdout, cmd.Stderr = logf, logf
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cancel()
		<-exited
		logf.Close()
	})

	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case err := <-exited:
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("versitygw exited: %v\n%s", err, log)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatal("versitygw did not start listening within 20s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// findVersityGW looks at COMPLYD_TEST_VERSITYGW, then PATH, then each GOPATH's bin.
func findVersityGW() (string, error) {
	if p := os.Getenv("COMPLYD_TEST_VERSITYGW"); p != "" {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			return "", fmt.Errorf("COMPLYD_TEST_VERSITYGW=%s is not a file", p)
		}
		return p, nil
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	for _, d := range filepath.SplitList(gopath) {
		p := filepath.Join(d, "bin", "versitygw")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", errors.New("versitygw not found")
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}
