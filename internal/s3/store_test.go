package s3_test

import (
	"context"
	"errors"
	"fmt"
	"go/build"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document/documenttest"
	"github.com/complyd/complyd/internal/s3"
)

const (
	testAccessKey = "complydtest"
	testSecretKey = "complydtestsecret123"
)

func TestStoreConformance(t *testing.T) {
	t.Parallel()
	endpoint := startVersityGW(t)
	store, err := s3.NewStore(s3.Config{
		Endpoint: endpoint, Bucket: "documents", Region: "us-east-1",
		AccessKeyID: testAccessKey, SecretAccessKey: testSecretKey,
	})
	require.NoError(t, err)
	_, err = store.Client().CreateBucket(t.Context(), &awss3.CreateBucketInput{Bucket: aws.String("documents")})
	require.NoError(t, err)

	documenttest.RunBlobsSuite(t, func(t *testing.T) documenttest.Harness {
		return documenttest.Harness{Blobs: store, Client: http.DefaultClient}
	})
	t.Cleanup(func() {
		// Failed multipart uploads were aborted, not left as billed orphan parts.
		out, err := store.Client().ListMultipartUploads(context.Background(),
			&awss3.ListMultipartUploadsInput{Bucket: aws.String("documents")})
		require.NoError(t, err)
		require.Empty(t, out.Uploads)
	})
}

func TestNewStoreRequiresConfig(t *testing.T) {
	t.Parallel()
	_, err := s3.NewStore(s3.Config{Endpoint: "http://127.0.0.1:1", Bucket: "b", Region: "us-east-1"})
	require.Error(t, err)
}

func TestPresignGetValidates(t *testing.T) {
	t.Parallel()
	store, err := s3.NewStore(s3.Config{
		Endpoint: "http://127.0.0.1:1", Bucket: "b", Region: "us-east-1",
		AccessKeyID: "a", SecretAccessKey: "s",
	})
	require.NoError(t, err)
	_, err = store.PresignGet(t.Context(), "k", 8*24*time.Hour, "x.pdf")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	_, err = store.PresignGet(t.Context(), "", time.Minute, "x.pdf")
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	u, err := store.PresignGet(t.Context(), "tenants/t/kyc/a/doc_1", 15*time.Minute, "id.pdf")
	require.NoError(t, err)
	require.Contains(t, u, "/b/tenants/t/kyc/a/doc_1?")
	require.Contains(t, u, "X-Amz-Expires=900")
	require.Contains(t, u, "response-content-disposition=attachment")
}

// startVersityGW runs versitygw (pinned v1.8.0, see scripts/install-test-tools.sh) on a free
// loopback port over a temp posix directory and returns its endpoint. Without the binary the
// test fails when CI=true and is skipped otherwise.
func startVersityGW(t *testing.T) string {
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
	cmd := exec.CommandContext(ctx, bin, "--access", testAccessKey, "--secret", testSecretKey,
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
