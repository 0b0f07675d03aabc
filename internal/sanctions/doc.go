// Package sanctions owns the screening lists and the in-memory name matcher:
// list entries (OFAC SDN, UN Security Council, tenant watchlists), the parsers
// for the published OFAC legacy CSV and UN consolidated XML files, name
// normalisation and transliteration, the inverted index and scorer, the
// explanations that land in a verdict's triggeredRules.details, the score
// bands of docs/design/design-choices.md §8, and the labelled evaluation harness.
//
// It also holds the Service around the live matcher (list imports with
// versions, tenant watchlists, searches with reviewed false positives,
// reloading on notifications) and re-screening on list change, with the
// ports it consumes: Store, SubjectSource and CaseOpener (docs/guide/sanctions.md).
//
// sanctions is a core package: it imports the standard library,
// golang.org/x/text/unicode/norm (the compatibility decomposition of names,
// lookalike.go) and the leaf packages tenancy, apperr, audit and paging. It must not import pgx,
// squirrel, river, connect, net/http, internal/gen or any adapter; the store,
// API and CLI wire it from outside (docs/design/design-choices.md §10).
package sanctions
