-- +goose Up
-- Document verification (issue 19 point 4; docs/guide/documents.md "Verification", docs/guide/kyc.md
-- "Document review"). An upload is only a label: a document counts for a KYC tier only once an
-- officer verified it. Every existing document becomes PENDING_REVIEW (the column default), so
-- no tier is kept on a label from now on; the tiers already stored on applications are NOT
-- lowered by this migration (a tier is never lowered, spec 3.2 rule 4), which docs/guide/kyc.md says.
ALTER TABLE documents
  ADD COLUMN verification_status text NOT NULL DEFAULT 'PENDING_REVIEW'
    CHECK (verification_status IN ('PENDING_REVIEW', 'PENDING_SECOND_REVIEW', 'VERIFIED', 'REJECTED')),
  ADD COLUMN first_reviewed_by uuid,
  ADD COLUMN first_reviewed_at timestamptz,
  ADD COLUMN reviewed_by uuid,
  ADD COLUMN reviewed_at timestamptz,
  ADD COLUMN rejection_reason text,
  ADD CONSTRAINT documents_rejection_reason CHECK (verification_status <> 'REJECTED' OR rejection_reason IS NOT NULL);

-- Four eyes on document verification: a second officer, who neither uploaded the document nor
-- reviewed it first, confirms a verification (PATCH /tenants/me/kyc-config).
ALTER TABLE tenant_settings ADD COLUMN document_review_four_eyes boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE tenant_settings DROP COLUMN document_review_four_eyes;
ALTER TABLE documents DROP CONSTRAINT documents_rejection_reason, DROP COLUMN rejection_reason, DROP COLUMN reviewed_at,
  DROP COLUMN reviewed_by, DROP COLUMN first_reviewed_at, DROP COLUMN first_reviewed_by, DROP COLUMN verification_status;
