package kyb

import (
	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/document"
)

// DocumentView is a document with a fresh presigned URL (valid document.DownloadTTL).
type DocumentView = document.View

// Upload is one document upload. Uploads, the document list, downloads and deletions are the
// shared steps of application.Core (UploadDocument, Documents, Download, DeleteDocument),
// audited as kyb.document_uploaded and kyb.document_deleted: the first upload moves PENDING to
// DOCUMENT_UPLOADED, as for KYC (docs/guide/kyc.md).
type Upload = application.Upload
