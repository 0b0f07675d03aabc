package reports

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Webhook is an event to queue with the change (report.created, report.approved, report.filed).
type Webhook struct {
	Event string
	Data  map[string]any
}

// Webhook event names (docs/guide/reports.md "Webhooks"); webhook.Events lists them too.
const (
	EventReportCreated  = "report.created"
	EventReportApproved = "report.approved"
	EventReportFiled    = "report.filed"
)

// Effects are what a change writes besides the report row, in the same transaction.
type Effects struct {
	Events   []Event
	Audit    []audit.Event
	Webhooks []Webhook
}

// ListParams filter the report list.
type ListParams struct {
	Type     string
	Status   string
	CaseID   string
	Customer string
	From, To *time.Time // report day
	// DeadlineBefore lists the unfiled reports whose deadline is before it (near or past).
	DeadlineBefore *time.Time
	Page, Limit    int
}

// CaseFacts are the facts of a case a report is drafted from.
type CaseFacts struct {
	ID            string
	Number        string
	Title         string
	Description   string
	Status        string
	TransactionID string // the case's related transaction, "" when none
	Notes         []string
}

// Store persists reports. Every method is tenant-scoped; another tenant's report is NOT_FOUND.
type Store interface {
	// Create inserts r with its transaction links and effects. NOT_FOUND when a transaction id
	// is not one of the tenant's.
	Create(ctx context.Context, r *Report, eff Effects) error
	// Get returns a report with its transaction ids. NOT_FOUND.
	Get(ctx context.Context, tenantID tenancy.TenantID, id string) (*Report, error)
	// List pages reports, newest first (deadline first with DeadlineBefore), with the total
	// count matching the filters and the page and limit it used (page 1 and limit 20 when p has
	// none).
	List(ctx context.Context, tenantID tenancy.TenantID, p ListParams) (paging.Result[Report], error)
	// Update locks the report, runs fn and writes the report and fn's effects. NOT_FOUND, or
	// fn's error.
	Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Report) (Effects, error)) (*Report, error)
	// ClaimFiling claims the report for one filing over HTTP with a conditional UPDATE: status
	// APPROVED or FILING_FAILED, or FILING claimed before staleBefore, becomes FILING claimed at
	// now, with FilingAttempt at least 1; the effects fn returns for the claimed report are
	// written in the same transaction. CONFLICT with the report in data when it is FILING (not
	// stale); INVALID_STATUS_TRANSITION from any other status; NOT_FOUND.
	ClaimFiling(ctx context.Context, tenantID tenancy.TenantID, id string, now, staleBefore time.Time, fn func(*Report) Effects) (*Report, error)
	// Events returns the report's timeline, oldest first.
	Events(ctx context.Context, tenantID tenancy.TenantID, id string) ([]Event, error)
	// Transactions returns the tenant's stored transactions with these ids (unknown ids are
	// left out), oldest first.
	Transactions(ctx context.Context, tenantID tenancy.TenantID, ids []string) ([]Transaction, error)
	// Case returns a case's facts. NOT_FOUND.
	Case(ctx context.Context, tenantID tenancy.TenantID, caseID string) (CaseFacts, error)
	// Settings returns the tenant's report settings (zero values when never set).
	Settings(ctx context.Context, tenantID tenancy.TenantID) (Settings, error)
	// SaveSettings writes the tenant's settings with their audit record.
	SaveSettings(ctx context.Context, tenantID tenancy.TenantID, s Settings, ev audit.Event) error
	// SaveCodeList replaces the tenant's code list with its audit record (SaveSettings leaves
	// the code list as it is).
	SaveCodeList(ctx context.Context, tenantID tenancy.TenantID, cl CodeList, at time.Time, ev audit.Event) error
}

// Filer submits an approved report's XML to the tenant's filing endpoint (an adapter: no
// network call happens in a transaction). It returns the HTTP answer whatever its status; the
// error is for no answer at all (a timeout, a refused connection, a forbidden address).
type Filer interface {
	File(ctx context.Context, req FilingRequest) (FilingResponse, error)
}

// Assistant improves a draft narrative from the facts (an OpenAI-compatible endpoint, optional).
type Assistant interface {
	Improve(ctx context.Context, facts Facts, draft string) (string, error)
}

// DayStore reads a day's reports for the streamed export, a chunk at a time.
type DayStore interface {
	// DayReports returns up to limit APPROVED or FILED reports of typ whose day is day and whose
	// id is after after (id order), with the transactions of all of them.
	DayReports(ctx context.Context, tenantID tenancy.TenantID, typ string, day time.Time, after string, limit int) ([]Report, []Transaction, error)
}
