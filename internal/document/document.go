package document

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// IDPrefix starts every document id (docs/reference/specification.md Conventions 6: prefixed opaque ids).
const IDPrefix = "doc_"

// Document is one uploaded file attached to a KYC or KYB application. The bytes live in a Blobs
// store under StorageKey; this record is what the store of records keeps.
type Document struct {
	ID            string
	TenantID      tenancy.TenantID
	OwnerKind     OwnerKind
	ApplicationID string
	DocumentType  DocumentType
	// FileName is the client's file name, cleaned by CleanFileName. It is shown to people and
	// used in Content-Disposition; it never decides the type.
	FileName   string
	StorageKey string
	SizeBytes  int64
	// MimeType is the sniffed type: one of MIMEJPEG, MIMEPNG, MIMEPDF.
	MimeType   string
	SHA256     string // lowercase hex of the stored bytes
	UploadedAt time.Time
	// UploadedBy is the uploading user's id ("" when unknown).
	UploadedBy string
	// VerificationStatus is one of the Status… constants (review.go); a new document is
	// StatusPendingReview.
	VerificationStatus string
	// FirstReviewedBy and FirstReviewedAt record the first officer of a four-eyes review.
	FirstReviewedBy string
	FirstReviewedAt *time.Time
	// ReviewedBy and ReviewedAt record the officer whose decision made the document VERIFIED or
	// REJECTED.
	ReviewedBy string
	ReviewedAt *time.Time
	// RejectionReason is the officer's reason for a rejection.
	RejectionReason string
}

// NewID returns a fresh document id: IDPrefix followed by 32 lowercase hex digits (128 random bits).
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return IDPrefix + hex.EncodeToString(b[:])
}

// OwnerKind says which kind of application a document belongs to.
type OwnerKind string

// The owner kinds. Object keys spell them in lower case (see Key).
const (
	OwnerKYC OwnerKind = "KYC"
	OwnerKYB OwnerKind = "KYB"
)

// Valid reports whether k is a known owner kind.
func (k OwnerKind) Valid() bool { return k == OwnerKYC || k == OwnerKYB }

// Key returns the object key of a document:
//
//	tenants/<tenantId>/<kyc|kyb>/<applicationId>/<docId>
//
// Every segment must be non-empty and made only of ASCII letters, digits, '-' and '_', so a key
// can never climb out of its tenant's prefix. It returns VALIDATION_ERROR otherwise.
func Key(tenantID tenancy.TenantID, owner OwnerKind, applicationID, docID string) (string, error) {
	if !owner.Valid() {
		return "", apperr.Invalid("ownerKind", "must be KYC or KYB")
	}
	for _, p := range []struct{ field, v string }{
		{"tenantId", string(tenantID)}, {"applicationId", applicationID}, {"documentId", docID},
	} {
		if !safeSegment(p.v) {
			return "", apperr.Invalid(p.field, "must be a non-empty id of letters, digits, '-' or '_'")
		}
	}
	return "tenants/" + string(tenantID) + "/" + strings.ToLower(string(owner)) + "/" +
		applicationID + "/" + docID, nil
}

func safeSegment(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}
