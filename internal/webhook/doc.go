// Package webhook owns outgoing webhooks as data: event names, the payload, HMAC signing and
// receiver-side verification, the delivery record and its states, the retry schedule, URL
// validation for PATCH /tenants/me/webhooks, the address policy (which IPs are never dialed),
// and the River job arguments of a delivery (service-spec.md part 6, decisions.md §7, §9).
//
// The HTTP sender lives in the adapter internal/webhookhttp. webhook imports only the standard
// library (no net/http), apperr and tenancy; it must not import pgx, river, connect or any adapter.
package webhook
