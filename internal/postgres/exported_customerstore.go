package postgres

// Names the sub-package customerstore uses (docs/design/architecture.md "Storage adapter"):
// exported wrappers, so that the files that declare them stay as they are.

import (
	"context"

	"github.com/complyd/complyd/internal/lookup"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/tenancy"
)

// ComplianceOfficers is complianceOfficers, exported.
func ComplianceOfficers(ctx context.Context, tx writer, tenantID tenancy.TenantID) ([]userRow, error) {
	return complianceOfficers(ctx, tx, tenantID)
}

// QueueEmail is queueEmail, exported.
func (db *DB) QueueEmail(ctx context.Context, tx writer, m notify.Message) error {
	return db.queueEmail(ctx, tx, m)
}

const ProfileColumns = profileColumns

type ProfileRow = profileRow

// ToProfile is toProfile, exported.
func ToProfile(r profileRow) (lookup.Profile, error) {
	return toProfile(r)
}

// InsertNotification is insertNotification, exported.
func InsertNotification(ctx context.Context, tx writer, n notify.Notification) error {
	return insertNotification(ctx, tx, n)
}
