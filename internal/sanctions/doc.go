// Package sanctions owns the screening lists and the in-memory name matcher:
// list entries (OFAC SDN, UN Security Council, tenant watchlists), the parsers
// for the published OFAC legacy CSV and UN consolidated XML files, name
// normalisation and transliteration, the inverted index and scorer, the
// explanations that land in a verdict's triggeredRules.details, the score
// bands of decisions.md §8, and the labelled evaluation harness.
//
// sanctions is a core package: it imports only the standard library and
// internal/tenancy. It must not import pgx, squirrel, river, connect,
// net/http, internal/gen or any adapter; the store, API and CLI wire it from
// outside (decisions.md §10).
package sanctions
