// Package applicationstore is the storage of KYC and KYB applications in the PostgreSQL
// adapter (internal/application is the core they share): the shared columns, the review-queue
// list and the change records of both kinds (application_store.go), each kind's own columns
// and evidence trail (kyc_store.go: verification results, document review, expiry; kyb_store.go:
// checks, screening's stored-KYB read), their documents (document_store.go), what an approval
// rests on (evidence_store.go), the automatic review case (review_case.go), the customer an
// approval makes (customer_link.go, customer_backfill.go) and the sealing of the BVNs and NINs
// stored in clear before migration 0011 (kyc_seal.go).
//
// It imports the base package internal/postgres (the DB, tenant transactions, the webhook,
// audit, wallet and case writers, the KYC identifier sealing of kyc_pii.go) and nothing imports
// it but the wiring (internal/app) and tests: the arrow points one way
// (docs/design/architecture.md "Storage adapter").
package applicationstore
