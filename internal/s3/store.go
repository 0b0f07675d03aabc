// Package s3 is the document.Blobs store over S3-compatible object storage (AWS S3, versitygw,
// MinIO, Ceph RGW), configured by COMPLYD_S3_ENDPOINT, COMPLYD_S3_BUCKET, COMPLYD_S3_REGION,
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (docs/design/design-choices.md §1). It uses aws-sdk-go-v2 with
// path-style addressing and static credentials; presigned URLs are SigV4 query-signed GETs.
//
// s3 is an adapter: it imports the document core, never another adapter.
package s3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/document"
)

// MinPartSize is S3's smallest multipart part (all parts but the last); Put buffers one part.
const MinPartSize = 5 << 20

// Config locates the bucket. All fields but PartSize are required.
type Config struct {
	Endpoint        string // COMPLYD_S3_ENDPOINT, e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:7070
	Bucket          string // COMPLYD_S3_BUCKET
	Region          string // COMPLYD_S3_REGION, e.g. us-east-1
	AccessKeyID     string // AWS_ACCESS_KEY_ID
	SecretAccessKey string // AWS_SECRET_ACCESS_KEY
	// PartSize is the multipart part size and so the most Put holds in memory; 0 means
	// MinPartSize. Values below MinPartSize are raised to it.
	PartSize int
}

// Store is a document.Blobs over one bucket.
type Store struct {
	client   *awss3.Client
	presign  *awss3.PresignClient
	bucket   string
	partSize int
}

// NewStore returns a Store for cfg. It makes no network call.
func NewStore(cfg Config) (*Store, error) {
	if cfg.Endpoint == "" || cfg.Bucket == "" || cfg.Region == "" || cfg.AccessKeyID == "" || cfg.SecretAccessKey == "" {
		return nil, errors.New("s3: endpoint, bucket, region, access key id and secret access key are required")
	}
	client := awss3.New(awss3.Options{
		Region:       cfg.Region,
		BaseEndpoint: aws.String(cfg.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, ""),
		// Checksums only where S3 demands them: many S3-compatible servers do not support
		// the SDK's default CRC32 trailers. Payloads are SigV4-signed over a known length anyway.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
	part := cfg.PartSize
	if part < MinPartSize {
		part = MinPartSize
	}
	return &Store{client: client, presign: awss3.NewPresignClient(client), bucket: cfg.Bucket, partSize: part}, nil
}

// Client returns the underlying SDK client (tests create buckets with it).
func (s *Store) Client() *awss3.Client { return s.client }

// Put implements document.Blobs.
//
// S3's PutObject needs the body's length up front (and a seekable body to SigV4-sign the
// payload over plain HTTP), and an upload's length is unknown until it ends. So Put reads up to
// one part (PartSize, default 5 MiB) into memory: if the body ends within it, that is a single
// PutObject with a known length; otherwise it is a multipart upload, one part at a time, with at
// most one part buffered. Nothing becomes visible until CompleteMultipartUpload; on any error
// (including a read error or ctx ending) the multipart upload is aborted, with a fresh context,
// so no object and no billed orphan parts remain.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, contentType string) (int64, error) {
	if err := checkKey(key); err != nil {
		return 0, err
	}
	buf := make([]byte, s.partSize)
	n, err := readPart(r, buf)
	if err != nil {
		return 0, fmt.Errorf("read upload: %w", err)
	}
	if n < len(buf) { // ended within the first part
		_, err := s.client.PutObject(ctx, &awss3.PutObjectInput{
			Bucket:        &s.bucket,
			Key:           &key,
			Body:          bytes.NewReader(buf[:n]),
			ContentLength: aws.Int64(int64(n)),
			ContentType:   nonEmpty(contentType),
		})
		if err != nil {
			return 0, fmt.Errorf("put object: %w", err)
		}
		return int64(n), nil
	}
	return s.putMultipart(ctx, key, r, contentType, buf)
}

func (s *Store) putMultipart(ctx context.Context, key string, r io.Reader, contentType string, buf []byte) (int64, error) {
	created, err := s.client.CreateMultipartUpload(ctx, &awss3.CreateMultipartUploadInput{
		Bucket: &s.bucket, Key: &key, ContentType: nonEmpty(contentType),
	})
	if err != nil {
		return 0, fmt.Errorf("create multipart upload: %w", err)
	}
	size, err := s.uploadParts(ctx, key, created.UploadId, r, buf)
	if err != nil {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, aerr := s.client.AbortMultipartUpload(actx, &awss3.AbortMultipartUploadInput{
			Bucket: &s.bucket, Key: &key, UploadId: created.UploadId,
		}); aerr != nil {
			err = errors.Join(err, fmt.Errorf("abort multipart upload: %w", aerr))
		}
		return 0, err
	}
	return size, nil
}

// uploadParts uploads buf (already full) and then the rest of r, part by part, and completes.
func (s *Store) uploadParts(ctx context.Context, key string, uploadID *string, r io.Reader, buf []byte) (int64, error) {
	var (
		parts []types.CompletedPart
		size  int64
		n     = len(buf)
	)
	for num := int32(1); ; num++ {
		out, err := s.client.UploadPart(ctx, &awss3.UploadPartInput{
			Bucket:        &s.bucket,
			Key:           &key,
			UploadId:      uploadID,
			PartNumber:    aws.Int32(num),
			Body:          bytes.NewReader(buf[:n]),
			ContentLength: aws.Int64(int64(n)),
		})
		if err != nil {
			return 0, fmt.Errorf("upload part %d: %w", num, err)
		}
		parts = append(parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(num)})
		size += int64(n)
		if n < len(buf) {
			break
		}
		if n, err = readPart(r, buf); err != nil {
			return 0, fmt.Errorf("read upload: %w", err)
		}
		if n == 0 {
			break
		}
	}
	_, err := s.client.CompleteMultipartUpload(ctx, &awss3.CompleteMultipartUploadInput{
		Bucket:          &s.bucket,
		Key:             &key,
		UploadId:        uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	if err != nil {
		return 0, fmt.Errorf("complete multipart upload: %w", err)
	}
	return size, nil
}

// readPart fills buf from r; n < len(buf) means r ended.
func readPart(r io.Reader, buf []byte) (int, error) {
	n, err := io.ReadFull(r, buf)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	return n, err
}

// Get implements document.Blobs.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	out, err := s.client.GetObject(ctx, &awss3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		if isNotFound(err) {
			return nil, apperr.NotFoundf("document file not found")
		}
		return nil, fmt.Errorf("get object: %w", err)
	}
	return out.Body, nil
}

// Delete implements document.Blobs. S3's DeleteObject already succeeds for a missing key.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if _, err := s.client.DeleteObject(ctx, &awss3.DeleteObjectInput{Bucket: &s.bucket, Key: &key}); err != nil && !isNotFound(err) {
		return fmt.Errorf("delete object: %w", err)
	}
	return nil
}

// PresignGet implements document.Blobs: a SigV4 query-signed GetObject URL (X-Amz-Expires =
// ttl, at least 1 s and at most 7 days) whose response-content-disposition makes the download
// an attachment named CleanFileName(fileName). The server, not complyd, enforces it: an
// expired or tampered URL gets 403 AccessDenied from S3.
func (s *Store) PresignGet(ctx context.Context, key string, ttl time.Duration, fileName string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	if ttl < time.Second || ttl > 7*24*time.Hour {
		return "", apperr.Invalid("ttl", "must be between one second and seven days")
	}
	req, err := s.presign.PresignGetObject(ctx, &awss3.GetObjectInput{
		Bucket:                     &s.bucket,
		Key:                        &key,
		ResponseContentDisposition: aws.String(contentDisposition(document.CleanFileName(fileName))),
	}, awss3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("presign get object: %w", err)
	}
	return req.URL, nil
}

func checkKey(key string) error {
	if key == "" || len(key) > 1024 || key[0] == '/' {
		return apperr.Invalid("key", "invalid object key")
	}
	return nil
}

func isNotFound(err error) bool {
	var nsk *types.NoSuchKey
	if errors.As(err, &nsk) {
		return true
	}
	var nf *types.NotFound
	if errors.As(err, &nf) {
		return true
	}
	var api smithy.APIError
	return errors.As(err, &api) && (api.ErrorCode() == "NoSuchKey" || api.ErrorCode() == "NotFound")
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

var _ document.Blobs = (*Store)(nil)
