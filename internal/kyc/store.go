package kyc

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/tenancy"
)

// ListParams filters the application list (the review queue).
type ListParams = application.ListParams

// Change is what an update returns to the store: the shared change (application.Change: audit
// event, charge, documents, review case, override) and the verification results to append to
// the evidence trail, all written in the same transaction. The store compares the status before
// and after and, when it changed, queues kyc.status_changed (StatusChangedData) in that
// transaction too.
type Change struct {
	application.Change
	// Results are verifications to append to the evidence trail.
	Results []Result
}

// change wraps the shared change (application.Core's steps).
func change(c application.Change) Change { return Change{Change: c} }

// Store is the persistence port of KYC applications (internal/postgres/applicationstore.KYCStore): the shared
// port (application.Store: Create, Get, List, Update, Document, Documents) and KYC's own. Every
// method is one transaction scoped to the tenant; another tenant's application is NOT_FOUND.
type Store interface {
	application.Store[Application, Change]
	// Detail returns an application with results, documents and its evidence record (open cases,
	// overrides, the tenant's approval_evidence_required). Errors: NOT_FOUND.
	Detail(ctx context.Context, tenantID tenancy.TenantID, id string) (Detail, error)
	// ReviewDocument locks the application and its document FOR UPDATE, reads the tenant's
	// document_review_four_eyes setting and runs fn (the review and the tier rules); then it
	// writes the document's review, the application row, the audit event and, on a status
	// change, the webhook, all in one transaction, and returns both as stored. Errors:
	// NOT_FOUND (application or document), fn's errors.
	ReviewDocument(ctx context.Context, tenantID tenancy.TenantID, applicationID, docID string,
		fn func(a *Application, d *document.Document, fourEyes bool) (Change, error)) (Application, document.Document, error)
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
