package postgres

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/tenancy"
)

type documentRow struct {
	ID            string    `db:"id"`
	TenantID      string    `db:"tenant_id"`
	OwnerKind     string    `db:"owner_kind"`
	ApplicationID string    `db:"application_id"`
	DocumentType  string    `db:"document_type"`
	FileName      string    `db:"file_name"`
	StorageKey    string    `db:"storage_key"`
	SizeBytes     int64     `db:"size_bytes"`
	MimeType      string    `db:"mime_type"`
	SHA256        string    `db:"sha256"`
	UploadedAt    time.Time `db:"uploaded_at"`
}

const documentColumns = "id, tenant_id::text AS tenant_id, owner_kind, application_id, document_type, file_name, storage_key, size_bytes, mime_type, sha256, uploaded_at"

func toDocument(r documentRow) document.Document {
	return document.Document{ID: r.ID, TenantID: tenancy.TenantID(r.TenantID), OwnerKind: document.OwnerKind(r.OwnerKind),
		ApplicationID: r.ApplicationID, DocumentType: document.DocumentType(r.DocumentType), FileName: r.FileName,
		StorageKey: r.StorageKey, SizeBytes: r.SizeBytes, MimeType: r.MimeType, SHA256: r.SHA256, UploadedAt: r.UploadedAt}
}

// insertDocument writes a document record in tx (KYC here; KYB reuses it).
func insertDocument(ctx context.Context, tx pgx.Tx, d document.Document, uploadedBy string) error {
	_, err := tx.Exec(ctx, `insert into documents (id, tenant_id, owner_kind, application_id, document_type, file_name, storage_key,
		size_bytes, mime_type, sha256, uploaded_by, uploaded_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		d.ID, string(d.TenantID), string(d.OwnerKind), d.ApplicationID, string(d.DocumentType), d.FileName, d.StorageKey,
		d.SizeBytes, d.MimeType, d.SHA256, nullIfEmpty(uploadedBy), d.UploadedAt)
	if err != nil {
		return fmt.Errorf("insert document: %w", err)
	}
	return nil
}

func listDocuments(ctx context.Context, tx pgx.Tx, tenantID tenancy.TenantID, owner document.OwnerKind, appID string) ([]document.Document, error) {
	rows, err := collect[documentRow](ctx, tx, psql.Select(documentColumns).From("documents").
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

// Document returns one document of a KYC application. Errors: NOT_FOUND.
func (s *KYCStore) Document(ctx context.Context, tenantID tenancy.TenantID, applicationID, docID string) (document.Document, error) {
	var d document.Document
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		r, err := one[documentRow](ctx, tx, psql.Select(documentColumns).From("documents").
			Where(sq.Eq{"tenant_id": string(tenantID), "owner_kind": "KYC", "application_id": applicationID, "id": docID}), "document")
		d = toDocument(r)
		return err
	})
	return d, err
}

// Documents lists a KYC application's documents, oldest first. Errors: NOT_FOUND for an unknown
// application.
func (s *KYCStore) Documents(ctx context.Context, tenantID tenancy.TenantID, applicationID string) ([]document.Document, error) {
	var out []document.Document
	err := s.db.inTenant(ctx, tenantID, func(tx pgx.Tx) error {
		if _, err := s.db.getApplication(ctx, tx, tenantID, applicationID, false); err != nil {
			return err
		}
		var err error
		out, err = listDocuments(ctx, tx, tenantID, document.OwnerKYC, applicationID)
		return err
	})
	return out, err
}
