// Package document owns uploaded KYC and KYB documents: the Document record, the allowed
// document types and what they count for in KYC tiers, content sniffing (JPEG, PNG, PDF by
// magic bytes, never by file name or client content type), the upload size limit, the object
// key layout, and the Blobs port that object stores implement (internal/fsblob, internal/s3).
//
// Ingest is the one way an upload reaches a store: it sniffs the first bytes, streams the rest
// through a hashing, size-limiting reader into Blobs.Put, and deletes the partial object on any
// failure half way, so no orphaned object is left behind (docs/design/design-choices.md §2, §7).
//
// document is core: it imports only the standard library, apperr and tenancy. It never imports
// net/http or an adapter; the signed-link HTTP handler lives in internal/fsblob.
package document
