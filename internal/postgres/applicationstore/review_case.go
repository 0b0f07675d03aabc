package applicationstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// openReviewCase opens the automatic KYC_REVIEW case p of a KYC or KYB application in tx (the
// transaction of the application's change), unless the application already has a KYC_REVIEW
// case that is not resolved or closed: one open review per application, and the later failures
// are on the application's evidence trail. The case is created like screening's automatic cases
// (createCaseTx: unassigned, CASE_CREATED timeline, audit, case.created webhook, the compliance
// officers' email and dashboard notification). It returns the case id, "" when none was opened.
func openReviewCase(ctx context.Context, db *postgres.DB, tx pgx.Tx, tenantID tenancy.TenantID, p cases.NewParams) (string, error) {
	if p.RelatedKYCApplicationID == nil {
		return "", fmt.Errorf("review case without an application")
	}
	// Lock-free check: the application row is locked FOR UPDATE by the caller, so two
	// verifications of one application cannot both pass it.
	var open bool
	if err := tx.QueryRow(ctx, `select exists (select 1 from cases where tenant_id = $1 and related_kyc_application_id = $2
		and type = $3 and status not in ('RESOLVED_TRUE_POSITIVE', 'RESOLVED_FALSE_POSITIVE', 'CLOSED'))`,
		string(tenantID), *p.RelatedKYCApplicationID, cases.TypeKYCReview).Scan(&open); err != nil {
		return "", fmt.Errorf("read open review case: %w", err)
	}
	if open {
		return "", nil
	}
	c, err := db.CreateCaseTx(ctx, tx, tenantID, p)
	if err != nil {
		return "", fmt.Errorf("open review case: %w", err)
	}
	return c.ID, nil
}
