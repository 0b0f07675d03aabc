// Package screenstore is the screening throughput engine of the PostgreSQL adapter: the store
// the screening pipeline reads history from and writes verdicts to, built for thousands of
// screenings a second on a small pool.
//
// It lives under internal/postgres (not beside it) because it is part of that adapter: it uses
// the base package's DB, tenant transactions, pipelined writer and effect writers (cases,
// webhooks, audit, mail) and nothing else may import it but the wiring (internal/app) and tests.
// internal/postgres does not import it: the arrow points one way.
//
// The pipeline of one screening (docs/design/screening-performance.md):
//
//   - Prefetch (screening_store.go, screening_window.go, batcher.go): concurrent screenings queue
//     in a batcher; one statement per batch and tenant (prefetchSQL) reads every screening's
//     account history, windows (screening_window.go computes the bounds in Go) and customer
//     profile at once, on a connection held per tenant (tenant_conn.go) so the tenant setting
//     is sent once per batch, not per screening. Admission: when the queue's oldest item has
//     waited longer than the store's budget, new screenings are refused UNAVAILABLE instead of
//     queueing (batcher.behind, ScreeningStoreOptions).
//   - Decide: the core (internal/screening) runs the engines on the prefetched facts; nothing
//     here.
//   - Batched commit (screening_commit.go): the verdicts of a batch are stored by one
//     multi-row insert (insertSQL, with the rollup of screening_rollup.go in the same
//     statement), their automatic cases, report drafts (report_drafts.go), webhooks and audit
//     go through one pipelined writer (internal/postgres pipelined.go) in the same
//     transaction, and the writer coalesces same-shaped inserts into multi-row ones
//     (internal/postgres coalesce.go) before one round trip.
//
// The pipelined writer, the insert coalescing and the write coalescer stay in internal/postgres:
// every effect writer there takes the writer, and the e-mail and webhook-attempt stores use the
// write coalescer too. The stored-verdict codec (screening_codec.go) stays there as well: the
// case evidence and report stores read what it writes.
//
// Also here: the young-table analysis after bulk loads (screening_analyze.go), behavioural
// baselines (behavioral_profile_store.go), the history export (export_store.go, which shares the
// list filter), and the prefetch statement's text for plan checks (prefetch_plan.go).
package screenstore
