package kyb

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// ListParams filters the application list (the review queue).
type ListParams = application.ListParams

// Change is what an update returns to the store: the shared change (application.Change: audit
// event, charge, documents, review case, override) and the checks to append to the evidence
// trail, all written in the same transaction. When the status changed, the store queues
// kyb.status_changed (StatusChangedData) in that transaction too.
type Change struct {
	application.Change
	Checks []Check
}

// change wraps the shared change (application.Core's steps).
func change(c application.Change) Change { return Change{Change: c} }

// Store is the persistence port of KYB applications (internal/postgres/applicationstore.KYBStore): the shared
// port (application.Store: Create, Get, List, Update, Document, Documents) and KYB's own. Every
// method is one transaction scoped to the tenant; another tenant's application is NOT_FOUND.
type Store interface {
	application.Store[Application, Change]
	// Detail returns an application with its checks, documents and evidence record (open cases,
	// overrides, the tenant's approval_evidence_required). Errors: NOT_FOUND.
	Detail(ctx context.Context, tenantID tenancy.TenantID, id string) (Detail, error)
	// AddCheck stores one paid check and settles its hold in one transaction. Errors: NOT_FOUND,
	// INSUFFICIENT_FUNDS from settling.
	AddCheck(ctx context.Context, tenantID tenancy.TenantID, c Check, h wallet.Hold, description string) error
}

// StatusChangedData is the data of the kyb.status_changed webhook (docs/design/design-choices.md §9).
func StatusChangedData(prev string, a Application) map[string]any {
	return map[string]any{
		"applicationId":  a.ID,
		"previousStatus": prev,
		"status":         a.Status,
		"companyName":    a.CompanyName,
		"rcNumber":       a.RCNumber,
		"changedAt":      a.UpdatedAt.UTC().Format(time.RFC3339Nano),
	}
}
