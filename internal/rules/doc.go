// Package rules owns the tenant's custom screening rules, written in CEL (docs/design/design-choices.md §8, §10),
// and the catalogue of the nine mandatory regulatory rules AML-001..AML-009
// (docs/reference/specification.md 4.3) that GET /rules lists with mandatory: true.
//
// A rule expression is type-checked once against a fixed CEL environment (see Env and
// docs/guide/screening.md) that declares the transaction (tx.*) and its enriched context (ctx.*).
// Money never enters CEL as a double: every amount is exposed twice, as an exact decimal
// string (tx.amount, ctx.amountNgn, ctx.sum24hNgn) and as an integer count of minor units
// (tx.amountMinor, ctx.amountNgnKobo, ctx.sum24hNgnKobo). The helper naira(n) turns whole
// naira into kobo so thresholds read naturally: ctx.amountNgnKobo >= naira(5000000).
//
// Compiled programs are immutable and safe for concurrent use; Cache keeps them so a
// screening never recompiles. Evaluation is bounded by a CEL cost limit and by ctx.
//
// rules is core: it imports only the standard library, cel-go, decimal and apperr; never
// pgx, connect, net/http, river or internal/gen.
package rules
