package cases

import (
	"context"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Store is the persistence port of cases; internal/postgres implements it. Every method is one
// transaction, is scoped to tenantID (a row of another tenant is NOT_FOUND), and writes the
// Effects a callback returns (timeline events, webhook deliveries via River InsertTx, mail outbox)
// in that same transaction. No network call is made while it is open.
type Store interface {
	// Create takes the next case number of (tenantID, year) from the per-tenant-per-year counter
	// row, formats it with FormatNumber, calls build with it, and inserts the case and the
	// effects; numbers have no gaps or duplicates under concurrency (docs/design/design-choices.md §5) because an
	// error from build or the insert rolls the counter back.
	// Errors: whatever build returns; INTERNAL.
	Create(ctx context.Context, tenantID tenancy.TenantID, year int, build func(caseNumber string) (Case, Effects, error)) (*Case, error)

	// Get returns one case. Errors: NOT_FOUND.
	Get(ctx context.Context, tenantID tenancy.TenantID, id string) (*Case, error)

	// List returns one page of cases, newest first, with the total count matching the filters
	// and p's page and limit. p is already normalized (ListParams.Normalize). Errors: INTERNAL.
	List(ctx context.Context, tenantID tenancy.TenantID, p ListParams) (paging.Result[Case], error)

	// Update locks the case (SELECT … FOR UPDATE), calls fn with it, and when fn succeeds writes
	// the changed case and fn's effects. When fn fails nothing is written and its error is
	// returned unchanged. Errors: NOT_FOUND; whatever fn returns.
	Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Case) (Effects, error)) (*Case, error)

	// UpdateStatus is Update for a direct status move: after locking the case it reads the
	// case's PENDING proposal and the tenant's fourEyesResolution setting in the same
	// transaction and passes them to fn as the Guard. Errors: NOT_FOUND; whatever fn returns.
	UpdateStatus(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Case, Guard) (Effects, error)) (*Case, error)

	// Guard reads the Guard of a case the caller has just read, without locking (what the
	// detail shows). Errors: INTERNAL.
	Guard(ctx context.Context, tenantID tenancy.TenantID, caseID string) (Guard, error)

	// Settings reads the tenant's case controls. Errors: NOT_FOUND.
	Settings(ctx context.Context, tenantID tenancy.TenantID) (Settings, error)

	// SaveSettings writes the tenant's case controls with their audit event. Errors: NOT_FOUND.
	SaveSettings(ctx context.Context, tenantID tenancy.TenantID, s Settings, ev audit.Event) error

	// AddEvent appends one timeline event to the case ev.CaseID. Errors: NOT_FOUND.
	AddEvent(ctx context.Context, tenantID tenancy.TenantID, ev Event) error

	// Events returns the case's timeline, oldest first. Errors: NOT_FOUND.
	Events(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Event, error)

	// CreateProposal locks the case, calls fn, and writes the changed case, the new proposal
	// and the effects. Errors: NOT_FOUND; CONFLICT when the case already has a PENDING
	// proposal (partial unique index on (case_id) WHERE status = 'PENDING'); whatever fn returns.
	CreateProposal(ctx context.Context, tenantID tenancy.TenantID, caseID string, fn func(*Case) (Proposal, Effects, error)) (*Case, *Proposal, error)

	// DecideProposal locks the case and then the proposal, calls fn, and writes both and the
	// effects. Errors: NOT_FOUND (case, or proposal not of this case); whatever fn returns.
	DecideProposal(ctx context.Context, tenantID tenancy.TenantID, caseID, proposalID string, fn func(*Case, *Proposal) (Effects, error)) (*Case, *Proposal, error)

	// Proposals returns the case's proposals, oldest first. Errors: NOT_FOUND.
	Proposals(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Proposal, error)

	// CreateInterdiction locks the case, calls fn, and writes the changed case, the new
	// interdiction and the effects. Errors: NOT_FOUND; whatever fn returns.
	CreateInterdiction(ctx context.Context, tenantID tenancy.TenantID, caseID string, fn func(*Case) (Interdiction, Effects, error)) (*Interdiction, error)

	// UpdateInterdiction locks the case and then the interdiction, calls fn, and writes both
	// and the effects. Errors: NOT_FOUND; whatever fn returns.
	UpdateInterdiction(ctx context.Context, tenantID tenancy.TenantID, caseID, interdictionID string, fn func(*Case, *Interdiction) (Effects, error)) (*Interdiction, error)

	// GetInterdiction returns one interdiction of the tenant. Errors: NOT_FOUND.
	GetInterdiction(ctx context.Context, tenantID tenancy.TenantID, id string) (*Interdiction, error)

	// Interdictions returns the case's interdictions, oldest first. Errors: NOT_FOUND.
	Interdictions(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Interdiction, error)
}

// User is what cases needs to know of a user: whether it may be assigned work.
type User struct {
	ID     string
	Active bool
}

// Users is the port to the tenant's user directory (implemented over the auth store).
type Users interface {
	// Get returns the user of the tenant. Errors: NOT_FOUND (also for a user of another tenant,
	// which Service.Assign reports as NOT_FOUND too).
	Get(ctx context.Context, tenantID tenancy.TenantID, userID string) (User, error)
}

// Case list paging (docs/design/design-choices.md §7, §11).
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// ListParams are the filters and paging of GET /cases (docs/reference/specification.md 4.2). Empty filters and
// zero Page/Limit mean "not given".
type ListParams struct {
	Status     string
	Type       string
	Priority   string
	AssigneeID string
	// IncludeUnassigned adds unassigned cases to the AssigneeID filter; alone, it lists only
	// unassigned cases.
	IncludeUnassigned bool
	// Sort is NEWEST (default), OLDEST, PRIORITY (CRITICAL first, then oldest first) or DUE
	// (open cases by due time, breached ones first).
	Sort string
	// InboxID keeps the cases filed in that inbox.
	InboxID string
	// AwaitingConfirmationBy keeps the cases with a PENDING proposal made by someone other than
	// this user ("needs my confirmation", four eyes).
	AwaitingConfirmationBy string
	Page                   int
	Limit                  int
}

// Normalize validates the filters and fills paging defaults: page 1, limit 20, a limit above
// 100 clamped to 100 (docs/design/design-choices.md §11). Errors: VALIDATION_ERROR naming each bad field.
func (p ListParams) Normalize() (ListParams, error) {
	var bad []apperr.FieldError
	if p.Status != "" && !IsStatus(p.Status) {
		bad = append(bad, apperr.FieldError{Field: "status", Message: "must be a case status"})
	}
	if p.Type != "" && !IsType(p.Type) {
		bad = append(bad, apperr.FieldError{Field: "type", Message: "must be a case type"})
	}
	if p.Priority != "" && !IsPriority(p.Priority) {
		bad = append(bad, apperr.FieldError{Field: "priority", Message: "must be a priority"})
	}
	switch {
	case p.Page < 0:
		bad = append(bad, apperr.FieldError{Field: "page", Message: "must be at least 1"})
	case p.Page == 0:
		p.Page = 1
	}
	switch {
	case p.Limit < 0:
		bad = append(bad, apperr.FieldError{Field: "limit", Message: "must be at least 1"})
	case p.Limit == 0:
		p.Limit = DefaultLimit
	case p.Limit > MaxLimit:
		p.Limit = MaxLimit
	}
	if len(bad) > 0 {
		return p, apperr.InvalidFields(bad...)
	}
	return p, nil
}
