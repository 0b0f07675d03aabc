package kyc

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

// Change is what an update returns to the store: the audit event and the side records to
// write in the same transaction. The store compares the status before and after and, when it
// changed, queues kyc.status_changed (StatusChangedData) in that transaction too.
type Change struct {
	Audit audit.Event
	// Results are verifications to append to the evidence trail.
	Results []Result
	// Hold, when set, is settled (the charge booked) in the same transaction (docs/guide/wallet.md).
	Hold              *wallet.Hold
	ChargeDescription string
	// AddDocument is a document record to insert (its object is already stored).
	AddDocument *document.Document
	// DeleteDocumentID is a document record to delete.
	DeleteDocumentID string
	// OpenCase, when set, is an automatic KYC_REVIEW case (ReviewCase) the store opens in the
	// same transaction unless the application already has an open KYC_REVIEW case.
	OpenCase *cases.NewParams
	// Override, when set, is the record of an approval over open evidence (internal/evidence),
	// inserted in the same transaction.
	Override *evidence.Override
}

// Store is the persistence port of KYC applications (internal/postgres.KYCStore). Every method
// is one transaction scoped to the tenant; another tenant's application is NOT_FOUND.
type Store interface {
	// Create inserts a new application with its audit event and status webhook. Errors: none
	// expected beyond INTERNAL.
	Create(ctx context.Context, app Application, ev audit.Event) error
	// Get returns an application (with its document facts). Errors: NOT_FOUND.
	Get(ctx context.Context, tenantID tenancy.TenantID, id string) (Application, error)
	// Detail returns an application with results, documents and its evidence record (open cases,
	// overrides, the tenant's approval_evidence_required). Errors: NOT_FOUND.
	Detail(ctx context.Context, tenantID tenancy.TenantID, id string) (Detail, error)
	// List pages applications, newest first.
	List(ctx context.Context, tenantID tenancy.TenantID, f ListParams, p paging.Params) (paging.Result[Application], error)
	// Update locks the application FOR UPDATE, runs fn (the domain transition) and writes the
	// row, the change's records, the settled charge, the audit event and, on a status change,
	// the webhook, all in one transaction. Errors: NOT_FOUND, fn's errors, INSUFFICIENT_FUNDS
	// from settling; any error rolls everything back.
	Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Application) (Change, error)) (Application, error)
	// ReviewDocument locks the application and its document FOR UPDATE, reads the tenant's
	// document_review_four_eyes setting and runs fn (the review and the tier rules); then it
	// writes the document's review, the application row, the audit event and, on a status
	// change, the webhook, all in one transaction, and returns both as stored. Errors:
	// NOT_FOUND (application or document), fn's errors.
	ReviewDocument(ctx context.Context, tenantID tenancy.TenantID, applicationID, docID string,
		fn func(a *Application, d *document.Document, fourEyes bool) (Change, error)) (Application, document.Document, error)
	// Document returns one document of the application. Errors: NOT_FOUND.
	Document(ctx context.Context, tenantID tenancy.TenantID, applicationID, docID string) (document.Document, error)
	// Documents lists the application's documents, oldest first.
	Documents(ctx context.Context, tenantID tenancy.TenantID, applicationID string) ([]document.Document, error)
	// ExpiryDays returns the tenant's expiry_days setting.
	ExpiryDays(ctx context.Context, tenantID tenancy.TenantID) (int, error)
}

// Expirer is the port of the expiry job: every tenant's applications that stayed non-terminal
// longer than the tenant's expiry_days before now become EXPIRED (audited, webhook queued).
type Expirer interface {
	ExpireApplications(ctx context.Context, now time.Time) (int, error)
}

// StatusChangedData is the data of the kyc.status_changed webhook (docs/design/design-choices.md §9).
func StatusChangedData(prev string, a Application) map[string]any {
	return map[string]any{
		"applicationId":  a.ID,
		"previousStatus": prev,
		"status":         a.Status,
		"tier":           a.Tier,
		"changedAt":      a.UpdatedAt.UTC().Format(time.RFC3339Nano),
	}
}

// ExpireAudit is the audit event of an expiry.
func ExpireAudit(tenantID tenancy.TenantID, a Application, prev string) audit.Event {
	return audit.Event{TenantID: tenantID, Actor: audit.System, Action: "kyc.expired", ResourceType: "kyc_application",
		ResourceID: a.ID, Before: map[string]any{"status": prev}, After: map[string]any{"status": a.Status}}
}

// ExpireArgs is the River job that runs the expiry sweep (a periodic job, hourly).
type ExpireArgs struct{}

// Kind names the job.
func (ExpireArgs) Kind() string { return "kyc.expire" }
