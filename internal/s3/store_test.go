package s3_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document/documenttest"
	"github.com/complyd/complyd/internal/s3"
	"github.com/complyd/complyd/internal/s3/s3test"
)

func TestStoreConformance(t *testing.T) {
	t.Parallel()
	endpoint := s3test.StartVersityGW(t)
	store, err := s3.NewStore(s3.Config{
		Endpoint: endpoint, Bucket: "documents", Region: "us-east-1",
		AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey,
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
