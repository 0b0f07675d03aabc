// Package iso20022 reads ISO 20022 payment messages (pacs.008.001.08/.09, pacs.009.001.09,
// pain.001.001.10) as banks send them, validates them as the scheme's schemas would for the
// elements it reads, maps each credit transfer onto a screening.Transaction with every party of
// the message, and writes the pacs.002.001.10 status report that answers them
// (docs/guide/iso20022.md).
//
// Reading is defensive first (safe.go): a document type declaration, an entity reference, a
// processing instruction other than the XML declaration, a nesting deeper than MaxDepth or more
// than MaxElements elements is refused before anything is mapped. Validation (schema.go) walks
// the parsed tree against a table of the message definitions' element sequences: order,
// cardinality, required elements and the patterns of the simple types used (BIC, IBAN, LEI,
// currency codes, amounts, dates), each error named by its path. Branches the mapping does not
// read are accepted without their contents checked (documented as such).
//
// Core package: it imports screening, rules, apperr, decimal and the standard library; never net/http, connect
// or an adapter.
package iso20022
