// Package reporthttp holds the two HTTP clients of regulatory reporting (issue 14,
// docs/guide/reports.md): the Filer, which POSTs an approved report's goAML XML to the tenant's
// filing endpoint through the outbound address guard, and the Assistant, which asks an
// OpenAI-compatible chat endpoint (COMPLYD_ASSIST_URL, COMPLYD_ASSIST_KEY, COMPLYD_ASSIST_MODEL)
// to improve a report's deterministic narrative. Neither is ever called inside a database
// transaction. It imports reports and outbound, never another adapter.
package reporthttp
