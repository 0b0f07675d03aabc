package kyb

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/evidence"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// ListParams filters the application list.
type ListParams struct {
	Status string
	// AssignedTo lists only applications assigned to this user id (docs/guide/application-assignment.md).
	AssignedTo string
	// Unassigned lists only applications nobody is assigned to.
	Unassigned bool
}

// Change is what an update returns to the store: the audit event and the side records to write
// in the same transaction. When the status changed, the store queues kyb.status_changed
// (StatusChangedData) in that transaction too.
type Change struct {
	Audit  audit.Event
	Checks []Check
	// Hold, when set, is settled (the charge booked) in the same transaction (docs/guide/wallet.md).
	Hold              *wallet.Hold
	ChargeDescription string
	AddDocument       *document.Document
	DeleteDocumentID  string
	// OpenCase, when set, is an automatic KYC_REVIEW case (review_case.go) the store opens in
	// the same transaction unless the application already has an open KYC_REVIEW case.
	OpenCase *cases.NewParams
	// Override, when set, is the record of an approval over open evidence (internal/evidence),
	// inserted in the same transaction.
	Override *evidence.Override
}

// Store is the persistence port of KYB applications (internal/postgres.KYBStore). Every method is
// one transaction scoped to the tenant; another tenant's application is NOT_FOUND.
type Store interface {
	// Create inserts an application with its audit event and status webhook.
	Create(ctx context.Context, a Application, ev audit.Event) error
	// Get returns an application. Errors: NOT_FOUND.
	Get(ctx context.Context, tenantID tenancy.TenantID, id string) (Application, error)
	// Detail returns an application with its checks, documents and evidence record (open cases,
	// overrides, the tenant's approval_evidence_required). Errors: NOT_FOUND.
	Detail(ctx context.Context, tenantID tenancy.TenantID, id string) (Detail, error)
	// List pages applications, newest first.
	List(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[Application], error)
	// Update locks the application FOR UPDATE, runs fn and writes the row, the change's checks,
	// document changes, the settled charge, the audit event and, on a status change, the webhook,
	// all in one transaction. Errors: NOT_FOUND, fn's errors, INSUFFICIENT_FUNDS from settling.
	Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Application) (Change, error)) (Application, error)
	// AddCheck stores one paid check and settles its hold in one transaction. Errors: NOT_FOUND,
	// INSUFFICIENT_FUNDS from settling.
	AddCheck(ctx context.Context, tenantID tenancy.TenantID, c Check, h wallet.Hold, description string) error
	// Document returns one document of the application. Errors: NOT_FOUND.
	Document(ctx context.Context, tenantID tenancy.TenantID, applicationID, docID string) (document.Document, error)
	// Documents lists the application's documents, oldest first. Errors: NOT_FOUND.
	Documents(ctx context.Context, tenantID tenancy.TenantID, applicationID string) ([]document.Document, error)
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
