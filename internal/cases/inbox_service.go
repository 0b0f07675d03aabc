package cases

import (
	"context"
	"github.com/complyd/complyd/internal/audit"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// InboxService manages inboxes and saved views (docs/guide/dashboard-cases.md).
type InboxService struct {
	store InboxStore
	now   func() time.Time
}

// NewInboxService returns the service over store.
func NewInboxService(store InboxStore, now func() time.Time) *InboxService {
	if store == nil || now == nil {
		panic("cases.NewInboxService: nil dependency")
	}
	return &InboxService{store: store, now: now}
}

// CreateInbox validates p and creates the inbox: MANUAL and DefaultSLA unless p says otherwise.
// Errors: VALIDATION_ERROR; CONFLICT on a duplicate name.
func (s *InboxService) CreateInbox(ctx context.Context, tenantID tenancy.TenantID, p InboxParams) (*Inbox, error) {
	in := Inbox{TenantID: tenantID, Assignment: AssignManual, SLA: DefaultSLA, CaseTypes: []string{}, CreatedAt: s.now().UTC()}
	in.UpdatedAt = in.CreatedAt
	if p.Name == nil {
		p.Name = new(string)
	}
	if err := p.Apply(&in); err != nil {
		return nil, err
	}
	return s.store.CreateInbox(ctx, in, p.MemberIDs)
}

// UpdateInbox applies p to the inbox. Errors: NOT_FOUND; VALIDATION_ERROR; CONFLICT.
func (s *InboxService) UpdateInbox(ctx context.Context, tenantID tenancy.TenantID, id string, p InboxParams) (*Inbox, error) {
	return s.store.UpdateInbox(ctx, tenantID, id, func(in *Inbox) (InboxParams, error) {
		if err := p.Apply(in); err != nil {
			return p, err
		}
		in.UpdatedAt = s.now().UTC()
		return p, nil
	})
}

// Inboxes lists the tenant's inboxes. Errors: INTERNAL.
func (s *InboxService) Inboxes(ctx context.Context, tenantID tenancy.TenantID) ([]Inbox, error) {
	return s.store.Inboxes(ctx, tenantID, s.now())
}

// Name returns an inbox's name ("" when there is none). Errors: INTERNAL.
func (s *InboxService) Name(ctx context.Context, tenantID tenancy.TenantID, id string) (string, error) {
	return s.store.Name(ctx, tenantID, id)
}

// Assignable lists the people a case may be assigned to (an inbox's members with inboxID).
// Errors: NOT_FOUND (inbox).
func (s *InboxService) Assignable(ctx context.Context, tenantID tenancy.TenantID, inboxID string) ([]Person, error) {
	return s.store.Assignable(ctx, tenantID, inboxID)
}

// CreateView saves the caller's view. Errors: VALIDATION_ERROR; CONFLICT on a duplicate name.
func (s *InboxService) CreateView(ctx context.Context, c audit.Caller, name string, f ViewFilters) (*SavedView, error) {
	if c.UserID == "" {
		return nil, apperr.New(apperr.Forbidden, "saved views belong to a user; an API key has none")
	}
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 100 {
		return nil, apperr.Invalid("name", "must be 1 to 100 characters")
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return s.store.CreateView(ctx, SavedView{TenantID: c.TenantID, UserID: c.UserID, Name: name, Filters: f, CreatedAt: s.now().UTC()})
}

// Views lists the caller's views (none for an API key). Errors: INTERNAL.
func (s *InboxService) Views(ctx context.Context, c audit.Caller) ([]SavedView, error) {
	if c.UserID == "" {
		return []SavedView{}, nil
	}
	return s.store.Views(ctx, c.TenantID, c.UserID)
}

// DeleteView deletes one of the caller's views. Errors: NOT_FOUND (also another user's).
func (s *InboxService) DeleteView(ctx context.Context, c audit.Caller, id string) error {
	if c.UserID == "" {
		return apperr.NotFoundf("view not found")
	}
	return s.store.DeleteView(ctx, c.TenantID, c.UserID, id)
}

// BulkResult is one case's outcome of a bulk move.
type BulkResult struct {
	CaseID string
	Err    error
}

// BulkAssign assigns each case in its own transaction (a failure of one leaves the others).
func (s *Service) BulkAssign(ctx context.Context, c audit.Caller, ids []string, assigneeID string) []BulkResult {
	out := make([]BulkResult, 0, len(ids))
	for _, id := range ids {
		_, err := s.Assign(ctx, c, id, assigneeID)
		out = append(out, BulkResult{CaseID: id, Err: err})
	}
	return out
}

// BulkPropose proposes p for each case in its own transaction.
func (s *Service) BulkPropose(ctx context.Context, c audit.Caller, ids []string, p ProposeParams) []BulkResult {
	out := make([]BulkResult, 0, len(ids))
	for _, id := range ids {
		_, err := s.Propose(ctx, c, id, p)
		out = append(out, BulkResult{CaseID: id, Err: err})
	}
	return out
}
