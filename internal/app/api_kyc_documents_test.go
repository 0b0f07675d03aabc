package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/s3"
	"github.com/complyd/complyd/internal/s3/s3test"
)

// upload posts a multipart document to a KYC application (uploadTo).
func (s *testServer) upload(tok, appID, docType, name string, content []byte) envelope {
	s.t.Helper()
	return s.uploadTo("/api/v1/kyc/applications/"+appID+"/documents", tok, docType, name, content)
}

var (
	pdfBytes = []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")
	pngBytes = append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 100)...)
)

func (s *testServer) fetch(url string) (int, []byte) {
	s.t.Helper()
	if strings.HasPrefix(url, "/") {
		url = s.URL + url
	}
	res, err := http.Get(url)
	require.NoError(s.t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// runDocumentAPITests is the API-level document suite, run against both stores.
func runDocumentAPITests(t *testing.T, s *testServer) {
	f, admin := s.tenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)
	a := s.createKYC(admin, map[string]any{"entityType": "INDIVIDUAL", "firstName": "Ada", "lastName": "Obi"})

	var doc struct {
		ID, DocumentType, FileName, FileURL, MimeType string
		FileSizeBytes                                 int
	}
	env := s.upload(analyst, a.ID, "PASSPORT", "passport.pdf", pdfBytes)
	require.Equal(t, 200, env.Status, "%s", env.Raw)
	env.decode(t, &doc)
	require.Equal(t, "application/pdf", doc.MimeType)
	require.Equal(t, len(pdfBytes), doc.FileSizeBytes)
	require.Equal(t, "passport.pdf", doc.FileName)
	st, body := s.fetch(doc.FileURL)
	require.Equal(t, 200, st)
	require.Equal(t, pdfBytes, body)

	d := s.getKYC(admin, a.ID)
	require.Equal(t, "DOCUMENT_UPLOADED", d.Status, "the first upload moves PENDING on")
	require.Len(t, d.Documents, 1)

	// 415 by content (a PNG named .pdf is fine, text is not), 413 over 10 MiB, 400 bad type.
	requireRESTError(t, s.upload(analyst, a.ID, "PASSPORT", "x.pdf", []byte("hello, not a document")), 415, "UNSUPPORTED_MEDIA_TYPE")
	big := append(append([]byte{}, pdfBytes...), bytes.Repeat([]byte{'x'}, 10<<20)...)
	requireRESTError(t, s.upload(analyst, a.ID, "PASSPORT", "big.pdf", big), 413, "PAYLOAD_TOO_LARGE")
	requireRESTError(t, s.upload(analyst, a.ID, "SELFIE", "x.pdf", pdfBytes), 400, "VALIDATION_ERROR")
	requireRESTError(t, s.upload(analyst, a.ID, "", "x.pdf", pdfBytes), 400, "VALIDATION_ERROR")
	requireRESTError(t, s.upload(auditor, a.ID, "PASSPORT", "x.pdf", pdfBytes), 403, "FORBIDDEN")
	requireRESTError(t, s.upload("", a.ID, "PASSPORT", "x.pdf", pdfBytes), 401, "UNAUTHENTICATED")
	requireRESTError(t, s.upload(admin, "kyc_nope", "PASSPORT", "x.pdf", pdfBytes), 404, "NOT_FOUND")
	var list struct {
		Items []struct{ ID, FileURL string }
	}
	s.rest("GET", "/api/v1/kyc/applications/"+a.ID+"/documents", cred{Bearer: auditor}, nil).decode(t, &list)
	require.Len(t, list.Items, 1, "failed uploads left no record")

	// gRPC/Connect upload with bytes in the message.
	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: analyst})
		c := complydv1connect.NewKycServiceClient(hc, s.URL, opts...)
		res, err := c.UploadDocument(context.Background(), connect.NewRequest(&complydv1.UploadDocumentRequest{Id: a.ID,
			DocumentType: "UTILITY_BILL", FileName: "bill.png", Content: pngBytes}))
		require.NoError(t, err)
		require.Equal(t, "image/png", res.Msg.MimeType)
		_, err = c.UploadDocument(context.Background(), connect.NewRequest(&complydv1.UploadDocumentRequest{Id: a.ID,
			DocumentType: "UTILITY_BILL", FileName: "bill.txt", Content: []byte("text")}))
		code, info := errorInfo(t, err)
		require.Equal(t, "UNSUPPORTED_MEDIA_TYPE", info.Code, "code %v", code)
	}

	var dl struct{ URL, ExpiresAt, FileName string }
	s.rest("GET", fmt.Sprintf("/api/v1/kyc/applications/%s/documents/%s/download", a.ID, doc.ID), cred{Bearer: auditor}, nil).decode(t, &dl)
	st, body = s.fetch(dl.URL)
	require.Equal(t, 200, st)
	require.Equal(t, pdfBytes, body)
	st, _ = s.fetch(dl.URL + "0")
	require.NotEqual(t, 200, st, "a tampered link is refused")

	// Delete: officers only; removes record and object.
	requireRESTError(t, s.rest("DELETE", "/api/v1/kyc/applications/"+a.ID+"/documents/"+doc.ID, cred{Bearer: analyst}, nil), 403, "FORBIDDEN")
	var del struct {
		ID      string
		Deleted bool
	}
	s.rest("DELETE", "/api/v1/kyc/applications/"+a.ID+"/documents/"+doc.ID, cred{Bearer: admin}, nil).decode(t, &del)
	require.True(t, del.Deleted)
	st, _ = s.fetch(dl.URL)
	require.NotEqual(t, 200, st, "the object is gone")
	requireRESTError(t, s.rest("GET", fmt.Sprintf("/api/v1/kyc/applications/%s/documents/%s/download", a.ID, doc.ID), cred{Bearer: admin}, nil), 404, "NOT_FOUND")
	requireRESTError(t, s.rest("DELETE", "/api/v1/kyc/applications/"+a.ID+"/documents/"+doc.ID, cred{Bearer: admin}, nil), 404, "NOT_FOUND")
	require.Equal(t, "DOCUMENT_UPLOADED", s.getKYC(admin, a.ID).Status, "never lowered")

	// Another tenant cannot see the documents.
	_, other := s.tenant()
	requireRESTError(t, s.rest("GET", "/api/v1/kyc/applications/"+a.ID+"/documents", cred{Bearer: other}, nil), 404, "NOT_FOUND")
	requireRESTError(t, s.upload(other, a.ID, "PASSPORT", "x.pdf", pdfBytes), 404, "NOT_FOUND")
}

func TestKYCDocumentsEmbeddedStore(t *testing.T) {
	t.Parallel()
	runDocumentAPITests(t, newTestServer(t, nil))
}

func TestKYCDocumentsS3(t *testing.T) {
	t.Parallel()
	endpoint := s3test.StartVersityGW(t)
	st, err := s3.NewStore(s3.Config{Endpoint: endpoint, Bucket: "kyc-docs", Region: "us-east-1",
		AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey})
	require.NoError(t, err)
	_, err = st.Client().CreateBucket(t.Context(), &awss3.CreateBucketInput{Bucket: aws.String("kyc-docs")})
	require.NoError(t, err)
	s := newTestServer(t, &serverOpts{Config: func(c *config) {
		c.S3Endpoint, c.S3Bucket, c.S3Region = endpoint, "kyc-docs", "us-east-1"
		c.S3AccessKeyID, c.S3SecretAccessKey = s3test.AccessKey, s3test.SecretKey
	}})
	runDocumentAPITests(t, s)
	out, err := st.Client().ListObjectsV2(context.Background(), &awss3.ListObjectsV2Input{Bucket: aws.String("kyc-docs")})
	require.NoError(t, err)
	// Only the two PNGs uploaded over Connect and gRPC remain: no orphan from a failed upload.
	require.Len(t, out.Contents, 2)
}
