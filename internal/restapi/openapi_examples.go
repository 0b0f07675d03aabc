package restapi

// openAPIIntro opens the document's description: what holds for every operation.
const openAPIIntro = `complyd's /api/v1 JSON interface: a REST facade transcoded onto the same handlers as the
gRPC and Connect services of proto/complyd/v1 (same fields, same errors).

# Envelope
Every answer is {"success": true, "data": ...} or
{"success": false, "error": {"code", "message", "details"?, "data"?}}. The HTTP status of each
error code is fixed (components.responses; design choices §2). VALIDATION_ERROR carries
details = [{field, message}]; DUPLICATE_EXTERNAL_ID carries the original verdict in data;
INVALID_STATUS_TRANSITION carries {from, to, allowed}.

# Authentication
Authorization: Bearer <accessToken> from POST /api/v1/auth/login (15 minutes; POST
/api/v1/auth/refresh returns a new pair and invalidates the refresh token presented; refresh
tokens live 7 days) or X-API-Key: <key> from POST /api/v1/auth/api-keys (shown once; acts with
its creator's role). Each operation lists the roles allowed (x-roles); others get 403 FORBIDDEN;
a resource of another tenant is 404 NOT_FOUND.

# Paging
List operations take page (from 1) and limit (default 20, at most 100; a larger limit is clamped
and the answer's limit says so) and answer {items, total, page, limit, totalPages}.

# Conventions
Field names are lowerCamelCase (snake_case is accepted on input); enum values are strings;
amounts are decimal strings in answers; timestamps are RFC 3339 UTC; fields that are unset are
omitted. Unknown JSON fields are ignored.`

// requestExamples are example request bodies by operation id. TestOpenAPIExamplesAccepted sends
// each to a real server: an example that the server refuses fails the test.
var requestExamples = map[string]any{
	"complyd.v1.AuthService.Login":        obj{"email": "admin@demo.complyd.local", "password": "complyd-demo-password"},
	"complyd.v1.AuthService.CreateApiKey": obj{"name": "core-banking"},
	"complyd.v1.TransactionService.ScreenTransaction": obj{
		"externalId": "TXN-2026-000123", "type": "TRANSFER", "channel": "MOBILE_APP", "amount": 25000,
		"currency": "NGN", "senderAccountNumber": "0123456789", "senderBvn": "22212345678", "senderName": "Ada Obi",
		"receiverAccountNumber": "9876543210", "receiverName": "Chidi Okeke", "receiverCountry": "NG",
		"narration": "rent", "timestamp": "2026-11-24T10:15:00Z",
	},
	"complyd.v1.CaseService.CreateCase": obj{"type": "REGULATORY_INQUIRY", "priority": "MEDIUM",
		"title": "NFIU request 2026/114", "description": "Information request about account 0123456789"},
	"complyd.v1.KycService.CreateApplication": obj{"entityType": "INDIVIDUAL", "firstName": "Ada", "lastName": "Obi",
		"bvn": "22212345678", "phone": "+2348031234567", "email": "ada.obi@example.com", "dateOfBirth": "1990-04-12"},
	"complyd.v1.KybService.CreateKybApplication": obj{"companyName": "Lagos Fresh Foods Ltd", "rcNumber": "RC1234567",
		"directors":        []any{obj{"name": "Ngozi Okafor", "nationality": "NG"}},
		"beneficialOwners": []any{obj{"name": "Ngozi Okafor", "percentage": 60}}},
	"complyd.v1.WatchlistService.CreateWatchlist": obj{"name": "Internal blocklist", "type": "INTERNAL"},
	"complyd.v1.RuleService.CreateRule": obj{"name": "Transfer above 1,000,000 NGN", "expression": "tx.amountMinor > 100000000",
		"score": 60, "outcome": "REVIEW", "enabled": true},
	"complyd.v1.SanctionsService.Search":            obj{"name": "Ivan Petrov", "threshold": 0.85, "limit": 5},
	"complyd.v1.TenantConfigService.UpdateFxRates":  obj{"rates": []any{obj{"currency": "USD", "rateToNgn": "1550.25"}}},
	"complyd.v1.WebhookService.UpdateWebhookConfig": obj{"webhookUrl": "https://bank.example/complyd/webhooks", "webhookSecret": "a-long-random-secret"},
	"complyd.v1.UserService.CreateUser": obj{"email": "officer@bank.example", "password": "a-long-password",
		"firstName": "Ngozi", "lastName": "Okafor", "role": "COMPLIANCE_OFFICER"},
}
