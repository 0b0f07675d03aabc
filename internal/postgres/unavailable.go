package postgres

import (
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/complyd/complyd/internal/apperr"
)

// ErrUnavailable is what a caller learns when PostgreSQL cannot be reached: SERVICE_UNAVAILABLE
// (503, gRPC UNAVAILABLE) with Retry-After, never INTERNAL, so that a bank's core retries
// instead of treating the screening as failed (docs/guide/operations.md "Database outage").
func errUnavailable(cause error) error {
	e := apperr.New(apperr.Unavailable, "the database is unavailable; retry shortly")
	e.RetryAfter = time.Second
	return &unavailableError{app: e, cause: cause}
}

// unavailableError keeps the cause for logs and errors.Is while apperr.As finds the 503.
type unavailableError struct {
	app   *apperr.Error
	cause error
}

func (e *unavailableError) Error() string   { return e.app.Error() + ": " + e.cause.Error() }
func (e *unavailableError) Unwrap() []error { return []error{e.app, e.cause} }

// dbErr maps a failure to reach the database to SERVICE_UNAVAILABLE and returns any other error
// as it is.
func dbErr(err error) error {
	if err == nil || !isConnFailure(err) {
		return err
	}
	if _, ok := apperr.As(err); ok {
		return err
	}
	return errUnavailable(err)
}

// isConnFailure reports whether err says the database could not be reached or dropped the
// connection: a failed connect, a reset or refused socket, an unexpected EOF, or
// PostgreSQL's own connection-exception (08) and operator-intervention (57P01-57P03: shutdown,
// crash, not accepting connections) errors. A cancelled query (57014) or a caller's deadline is
// not: those belong to the request.
func isConnFailure(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code[:2] == "08" || pg.Code == "57P01" || pg.Code == "57P02" || pg.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op)
}
