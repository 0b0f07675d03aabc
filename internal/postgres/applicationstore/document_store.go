package applicationstore

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

type documentRow struct {
	ID            string     `db:"id"`
	TenantID      string     `db:"tenant_id"`
	OwnerKind     string     `db:"owner_kind"`
	ApplicationID string     `db:"application_id"`
	DocumentType  string     `db:"document_type"`
	FileName      string     `db:"file_name"`
	StorageKey    string     `db:"storage_key"`
	SizeBytes     int64      `db:"size_bytes"`
	MimeType      string     `db:"mime_type"`
	SHA256        string     `db:"sha256"`
	UploadedAt    time.Time  `db:"uploaded_at"`
	UploadedBy    *string    `db:"uploaded_by"`
	Verification  string     `db:"verification_status"`
	FirstBy       *string    `db:"first_reviewed_by"`
	FirstAt       *time.Time `db:"first_reviewed_at"`
	ReviewedBy    *string    `db:"reviewed_by"`
	ReviewedAt    *time.Time `db:"reviewed_at"`
	Rejection     *string    `db:"rejection_reason"`
}

const documentColumns = "id, tenant_id::text AS tenant_id, owner_kind, application_id, document_type, file_name, storage_key, " +
	"size_bytes, mime_type, sha256, uploaded_at, uploaded_by::text AS uploaded_by, verification_status, " +
	"first_reviewed_by::text AS first_reviewed_by, first_reviewed_at, reviewed_by::text AS reviewed_by, reviewed_at, rejection_reason"

func toDocument(r documentRow) document.Document {
	return document.Document{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), OwnerKind: document.OwnerKind(r.OwnerKind),
		ApplicationID: r.ApplicationID, DocumentType: document.DocumentType(r.DocumentType), FileName: r.FileName,
		StorageKey: r.StorageKey, SizeBytes: r.SizeBytes, MimeType: r.MimeType, SHA256: r.SHA256, UploadedAt: r.UploadedAt,
		UploadedBy: postgres.Deref(r.UploadedBy), VerificationStatus: r.Verification, FirstReviewedBy: postgres.Deref(r.FirstBy),
		FirstReviewedAt: r.FirstAt, ReviewedBy: postgres.Deref(r.ReviewedBy), ReviewedAt: r.ReviewedAt, RejectionReason: postgres.Deref(r.Rejection)}
}

// updateDocumentReview writes d's review fields in tx (KYC documents).
func updateDocumentReview(ctx context.Context, tx pgx.Tx, d document.Document) error {
	tag, err := tx.Exec(ctx, `update documents set verification_status = $4, first_reviewed_by = $5, first_reviewed_at = $6,
		reviewed_by = $7, reviewed_at = $8, rejection_reason = $9
		where tenant_id = $1 and owner_kind = 'KYC' and application_id = $2 and id = $3`,
		string(d.TenantID), d.ApplicationID, d.ID, d.VerificationStatus, postgres.NullIfEmpty(d.FirstReviewedBy), d.FirstReviewedAt,
		postgres.NullIfEmpty(d.ReviewedBy), d.ReviewedAt, postgres.NullIfEmpty(d.RejectionReason))
	if err != nil {
		return fmt.Errorf("update document review: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return postgres.MapErr(pgx.ErrNoRows, "document")
	}
	return nil
}

// insertDocument writes a document record in tx (KYC here; KYB reuses it).
func insertDocument(ctx context.Context, tx pgx.Tx, d document.Document, uploadedBy string) error {
	status := d.VerificationStatus
	if status == "" {
		status = document.StatusPendingReview
	}
	_, err := tx.Exec(ctx, `insert into documents (id, tenant_id, owner_kind, application_id, document_type, file_name, storage_key,
		size_bytes, mime_type, sha256, uploaded_by, uploaded_at, verification_status)
		values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		d.ID, string(d.TenantID), string(d.OwnerKind), d.ApplicationID, string(d.DocumentType), d.FileName, d.StorageKey,
		d.SizeBytes, d.MimeType, d.SHA256, postgres.NullIfEmpty(uploadedBy), d.UploadedAt, status)
	if err != nil {
		return fmt.Errorf("insert document: %w", err)
	}
	return nil
}

func listDocuments(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, owner document.OwnerKind, appID string) ([]document.Document, error) {
	rows, err := postgres.Collect[documentRow](ctx, tx, postgres.Psql.Select(documentColumns).From("documents").
		Where(sq.Eq{"tenant_id": string(tenantID), "owner_kind": string(owner), "application_id": appID}).OrderBy("uploaded_at", "id"))
	if err != nil {
		return nil, err
	}
	out := make([]document.Document, 0, len(rows))
	for _, r := range rows {
		out = append(out, toDocument(r))
	}
	return out, nil
}
