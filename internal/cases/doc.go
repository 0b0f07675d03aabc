// Package cases owns case management: the Case and its timeline, the status machine of
// docs/design/design-choices.md §5, the four-eyes resolution workflow (proposals), interdictions queued from
// cases with their four-eyes lift and the queue across cases (docs/guide/interdictions.md), case
// numbering, and the Store, Users and InterdictionQueue ports the adapters implement.
//
// Operations are pure: they take the current case and an Actor and return the new case plus
// Effects (timeline events, webhook effects, notifications) as values. The postgres adapter
// writes those in the same transaction as the case (docs/design/style.md "Side effects"); nothing here makes
// a network call.
//
// cases imports only the standard library, apperr, paging and tenancy. It must not import pgx, squirrel,
// river, connect, net/http, internal/gen, any adapter, or webhook/notify: webhook event names are
// repeated here as strings (they equal the webhook package's constants) so that the dependency
// stays one-way.
package cases
