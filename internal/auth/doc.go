// Package auth owns identity inside a tenant: users and roles, passwords (argon2id), access tokens
// (JWT, 15 minutes), rotating refresh-token families with reuse detection, API keys stored as
// hashes, TOTP MFA challenges and login rate limiting (docs/reference/specification.md part 5, docs/design/design-choices.md §3).
//
// auth is core: it imports tenancy, audit, notify, paging and apperr, and never pgx, connect,
// net/http or an adapter. The Store port is implemented by internal/postgres.
package auth
