// Package screening owns one transaction screening: the input Transaction, the Enrichment the
// store computes before the engines run, the six engines, the Pipeline that runs them with
// per-engine deadlines and fail-open for sanctions and behavioral analysis, the aggregation of
// their verdicts into an outcome, risk level, score and actions, and the automatic case decision
// (docs/reference/specification.md 2.4, 3.4, 4.3; docs/design/design-choices.md §7, §8).
//
// Data flow (docs/guide/screening.md): Service.Screen validates and normalises the Transaction, fills
// an Enrichment from the Store's batched Prefetch, the KYBStore and the settings cache (with the
// trust-mode resolution of ResolveKYC and ResolveKYB), and Pipeline.Run evaluates:
//
//	stage 1, concurrently: Global Sanctions Screening | Identity Verification | Decision Engine | Behavioral Analysis
//	stage 2, once sanctions is done, concurrently: Regulatory Compliance | Custom Rules
//
// After the pipeline, the tenant's interdictions in force (InterdictionSource, read from memory)
// BLOCK a transaction on a frozen or post-no-debit account (interdiction.go,
// docs/guide/interdictions.md).
//
// Regulatory Compliance and Custom Rules wait for sanctions because AML-004 (and ctx.pep in
// CEL) need its PEP hits. Verdicts are reported in the spec's order whatever finished first.
//
// screening is core and database-free: it imports only the standard library, decimal, cel-go
// (through rules), tenancy, apperr and rules; never pgx, connect, net/http, river or internal/gen.
package screening
