package postgres

import (
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/complyd/complyd/internal/apperr"
)

// uniqueViolations maps unique constraints to the error a caller sees (docs/design/style.md: by constraint
// name, never by message text).
var uniqueViolations = map[string]*apperr.Error{
	"user_emails_pkey": apperr.New(apperr.UserAlreadyExists, "a user with this email already exists"),
	"tenants_slug_key": apperr.New(apperr.Conflict, "a tenant with this slug already exists"),
	// cases: one PENDING resolution proposal per case (docs/guide/cases.md).
	"case_proposals_one_pending": apperr.New(apperr.Conflict, "the case already has a pending resolution proposal"),
	// case inboxes and saved views (docs/guide/dashboard-cases.md)
	"case_inboxes_tenant_name_key":   apperr.New(apperr.Conflict, "an inbox with this name already exists"),
	"case_saved_views_user_name_key": apperr.New(apperr.Conflict, "you already have a view with this name"),
	"case_inbox_members_pkey":        apperr.New(apperr.Conflict, "a member is listed twice"),
	// sanctions (docs/guide/sanctions.md)
	"watchlists_tenant_name_key":           apperr.New(apperr.Conflict, "a watchlist with this name already exists"),
	"sanctions_false_positives_active_key": apperr.New(apperr.Conflict, "this entry is already suppressed for this subject"),
}

// mapErr turns pgx errors into apperr: no rows → NOT_FOUND, known unique violations → their
// code. Other errors pass through (the transport reports them as INTERNAL).
func mapErr(err error, what string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.NotFoundf("%s not found", what)
	}
	if isConnFailure(err) {
		return dbErr(err)
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23505" {
		if e, ok := uniqueViolations[pg.ConstraintName]; ok {
			c := *e
			return &c
		}
	}
	return err
}

// isUUID reports whether id is a uuid in its 36-character hyphenated form (either letter
// case), which PostgreSQL's uuid input accepts. A point lookup compares the uuid column with
// the id cast to uuid, so that the primary key's index answers it (comparing the column cast
// to text scans every row of the tenant); any other id names nothing and is NOT_FOUND without
// a query (uuid.Parse alone would also pass the urn: form, which the cast rejects).
func isUUID(id string) bool {
	if len(id) != 36 {
		return false
	}
	_, err := uuid.Parse(id)
	return err == nil
}
