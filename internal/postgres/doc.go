// Package postgres is the PostgreSQL adapter: a pgx pool that runs as the complyd_app role under
// row-level security, one file per capability store (squirrel for dynamic SQL), migrations
// (goose + rivermigrate), PgError→apperr mapping, and River InsertTx for side effects queued in
// the same transaction as the change that causes them.
//
// postgres may import core packages; it must not import other adapters.
package postgres
