// Package webhook owns outgoing webhooks as data: event names, the payload, HMAC signing and
// receiver-side verification, the delivery record and its states, the retry schedule, URL
// validation for PATCH /tenants/me/webhooks, the address policy (which IPs are never dialed),
// the River job arguments of a delivery, and the Service behind the configuration and delivery-log
// endpoints (docs/reference/specification.md part 6, docs/design/design-choices.md §7, §9, §11).
//
// The HTTP sender lives in the adapter internal/webhookhttp. webhook imports only the standard
// library (no net/http), apperr, audit, paging and tenancy; it must not import pgx, river, connect or any adapter.
package webhook
