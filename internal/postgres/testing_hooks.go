package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/tenancy"
)

// CreateCaseAutomaticForTest runs createCaseTx in a transaction of its own, as the screening
// pipeline will inside its transaction (test fixtures only, until screening lands). fail makes the transaction roll back after the case
// was created, to show that the number is given back.
func (db *DB) CreateCaseAutomaticForTest(ctx context.Context, tenantID tenancy.TenantID, p cases.NewParams, fail error) (cases.Case, error) {
	var c cases.Case
	err := db.inTenant(ctx, tenantID, func(tx pgx.Tx) (err error) {
		if c, err = db.createCaseTx(ctx, tx, tenantID, p); err != nil {
			return err
		}
		return fail
	})
	return c, err
}
