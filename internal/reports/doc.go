// Package reports owns the regulatory reports to the Nigerian Financial Intelligence Unit
// (issue 14, docs/guide/reports.md): currency transaction reports (CTR), suspicious transaction and
// activity reports (STR, SAR) and foreign transfer reports (FTR); their status machine with
// four-eyes approval; the goAML XML they are filed as, with the structural checks that run
// before export; the deterministic narrative; deadlines.
//
// reports depends on tenancy, audit, apperr, ids and paging only; it must not import
// adapters (postgres, connectapi, net/http). Filing over HTTP and the optional narrative
// assistant are adapters behind the Filer and Assistant ports.
package reports
