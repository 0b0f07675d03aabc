package restapi

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/kyc"
)

// KYCUploadPattern is the route of the multipart upload; it is registered on the mux before
// the /api/ facade pattern, and being more specific it wins.
const KYCUploadPattern = "POST /api/v1/kyc/applications/{id}/documents"

// maxMultipartOverhead bounds what a request may carry besides the file (boundaries, headers,
// the documentType field).
const maxMultipartOverhead = 1 << 20

// KYCUpload serves the multipart document upload (docs/reference/specification.md 4.4, docs/guide/documents.md):
// form fields `documentType` and `file`, in that order (or ?documentType= in the query), because
// the record is written as soon as the streamed bytes are stored. The file part is streamed straight into the blob store
// (mime/multipart reader, never ParseMultipartForm). Success is 200 with the document in the
// envelope; failures use the failure envelope (413, 415, 400, 401, 403, 404, 409).
func KYCUpload(authn *connectapi.Authenticator, svc *kyc.Service, log *slog.Logger) http.Handler {
	return multipartUpload(authn, log, func(ctx context.Context, p auth.Principal, r *http.Request, part io.Reader, docType, fileName string) (proto.Message, error) {
		v, err := svc.UploadDocument(ctx, p.TenantID, connectapi.CallActor(r, p), r.PathValue("id"),
			kyc.Upload{DocumentType: docType, FileName: fileName, Body: part})
		if err != nil {
			return nil, err
		}
		return connectapi.DocumentProto(v), nil
	})
}

// KYBUploadPattern is the route of the KYB multipart upload (docs/guide/kyb.md), same rules as KYC.
const KYBUploadPattern = "POST /api/v1/kyc/kyb/applications/{id}/documents"

// KYBUpload serves the KYB multipart document upload exactly like KYCUpload.
func KYBUpload(authn *connectapi.Authenticator, svc *kyb.Service, log *slog.Logger) http.Handler {
	return multipartUpload(authn, log, func(ctx context.Context, p auth.Principal, r *http.Request, part io.Reader, docType, fileName string) (proto.Message, error) {
		v, err := svc.UploadDocument(ctx, p.TenantID, connectapi.CallActor(r, p), r.PathValue("id"),
			kyb.Upload{DocumentType: docType, FileName: fileName, Body: part})
		if err != nil {
			return nil, err
		}
		return connectapi.DocumentProto(v), nil
	})
}

// uploadFunc stores one streamed file part and returns the document to answer with.
type uploadFunc func(ctx context.Context, p auth.Principal, r *http.Request, part io.Reader, docType, fileName string) (proto.Message, error)

func multipartUpload(authn *connectapi.Authenticator, log *slog.Logger, store uploadFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := connectapi.WithTransport(r.Context(), "rest")
		p, err := authn.Authenticate(r, auth.Writers)
		if err != nil {
			writeErr(ctx, w, log, err)
			return
		}
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
			writeErr(ctx, w, log, apperr.New(apperr.UnsupportedMediaType, "the upload must be multipart/form-data with fields file and documentType"))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, document.MaxUploadBytes+maxMultipartOverhead)
		mr, err := r.MultipartReader()
		if err != nil {
			writeErr(ctx, w, log, apperr.Invalid("body", "malformed multipart body"))
			return
		}
		docType := r.URL.Query().Get("documentType")
		var doc proto.Message
		for {
			part, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				writeErr(ctx, w, log, bodyErr(err))
				return
			}
			switch part.FormName() {
			case "documentType":
				b, err := io.ReadAll(io.LimitReader(part, 64))
				if err != nil {
					writeErr(ctx, w, log, bodyErr(err))
					return
				}
				docType = strings.TrimSpace(string(b))
			case "file":
				if doc != nil {
					writeErr(ctx, w, log, apperr.Invalid("file", "send exactly one file"))
					return
				}
				// The documentType must come before the file part (or in the query), because the
				// record is written right after the bytes: a missing type is 400, nothing stored.
				if docType == "" {
					writeErr(ctx, w, log, apperr.Invalid("documentType", "is required, before the file part (or as ?documentType=)"))
					return
				}
				d, err := store(ctx, p, r, part, docType, part.FileName())
				if err != nil {
					writeErr(ctx, w, log, err)
					return
				}
				doc = d
			default:
				_, _ = io.Copy(io.Discard, part)
			}
			_ = part.Close()
		}
		if doc == nil {
			writeErr(ctx, w, log, apperr.Invalid("file", "is required"))
			return
		}
		b, err := protojson.MarshalOptions{EmitUnpopulated: true}.Marshal(doc)
		if err != nil {
			writeErr(ctx, w, log, err)
			return
		}
		WriteSuccess(w, http.StatusOK, rawJSON(b))
	})
}

func bodyErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return apperr.Newf(apperr.PayloadTooLarge, "document exceeds the %d-byte limit", document.MaxUploadBytes).
			WithData(map[string]any{"limitBytes": document.MaxUploadBytes})
	}
	return apperr.Invalid("body", "malformed multipart body")
}

type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// writeErr writes err in the failure envelope; a non-apperr error is INTERNAL with the cause
// logged, never shown.
func writeErr(ctx context.Context, w http.ResponseWriter, log *slog.Logger, err error) {
	e, ok := apperr.As(err)
	if !ok {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			e = bodyErr(err).(*apperr.Error)
		} else {
			log.ErrorContext(ctx, "upload failed", "err", err)
			e = apperr.New(apperr.Internal, "internal error")
		}
	}
	WriteFailure(w, e)
}
