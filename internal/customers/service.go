package customers

import (
	"context"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// RecomputeParams say why and by whom a rating is recomputed.
type RecomputeParams struct {
	Reason string
	Actor  audit.Actor
	// Review records a completed periodic review (Note kept in the audit event): the next
	// review date counts from now.
	Review bool
	Note   string
	// At is the time of the rating (the service's clock; set by the service).
	At time.Time
}

// Store keeps ratings and reads what they are computed from.
type Store interface {
	// Overview returns the profile and everything linked to it. Errors: NOT_FOUND.
	Overview(ctx context.Context, tenantID tenancy.TenantID, id string) (Overview, error)
	// Recompute reads the inputs, rates them with rate and saves the rating in one transaction:
	// a history entry when the rating or score changed (or for the first), an audit event, a
	// customer.risk_changed webhook when the rating changed, and the customer's queue row
	// deleted. Errors: NOT_FOUND.
	Recompute(ctx context.Context, tenantID tenancy.TenantID, id string, rate func(Inputs) Rating, p RecomputeParams) (Risk, error)
	// Risk returns the current rating. Errors: NOT_FOUND (unknown profile or not rated yet).
	Risk(ctx context.Context, tenantID tenancy.TenantID, id string) (Risk, error)
	// History lists the changes, newest first, at most limit. Errors: NOT_FOUND (unknown profile).
	History(ctx context.Context, tenantID tenancy.TenantID, id string, limit int) ([]HistoryEntry, error)
	// Search pages profiles with their rating.
	Search(ctx context.Context, tenantID tenancy.TenantID, f SearchParams, p paging.Params) (paging.Result[ListItem], error)
	// DueReviews pages rated customers whose next review is at or before now, most overdue first.
	DueReviews(ctx context.Context, tenantID tenancy.TenantID, now time.Time, p paging.Params) (paging.Result[ListItem], error)
	// Pending lists up to limit customers to (re)rate: queued ones with their reason, then
	// profiles never rated (NEW_PROFILE).
	Pending(ctx context.Context, tenantID tenancy.TenantID, limit int) (map[string]string, error)
	// NotifyDue sends the due-review notice (webhook customer.review_due, mail and dashboard
	// notification to the compliance officers) once per due date for up to limit customers, and
	// returns them.
	NotifyDue(ctx context.Context, tenantID tenancy.TenantID, now time.Time, limit int) ([]Due, error)
	// Find returns the customer a case, a transaction or an application is about. Errors:
	// NOT_FOUND (unknown object, another tenant's, or no customer known for it).
	Find(ctx context.Context, tenantID tenancy.TenantID, f FindParams) (ListItem, error)
	// Tenants lists every tenant (the sweeps work tenant by tenant).
	Tenants(ctx context.Context) ([]tenancy.TenantID, error)
}

// Service is the customers capability.
type Service struct {
	store Store
	now   func() time.Time
}

// NewService returns the service.
func NewService(store Store, now func() time.Time) *Service {
	if store == nil || now == nil {
		panic("customers.NewService: nil dependency")
	}
	return &Service{store: store, now: now}
}

// Overview returns a profile with everything linked to it. Errors: NOT_FOUND.
func (s *Service) Overview(ctx context.Context, tenantID tenancy.TenantID, id string) (Overview, error) {
	return s.store.Overview(ctx, tenantID, id)
}

// Risk returns the current rating. Errors: NOT_FOUND.
func (s *Service) Risk(ctx context.Context, tenantID tenancy.TenantID, id string) (Risk, error) {
	return s.store.Risk(ctx, tenantID, id)
}

// MaxHistory bounds the history answer.
const MaxHistory = 200

// History lists the rating's changes, newest first. Errors: NOT_FOUND.
func (s *Service) History(ctx context.Context, tenantID tenancy.TenantID, id string) ([]HistoryEntry, error) {
	return s.store.History(ctx, tenantID, id, MaxHistory)
}

// Search pages profiles with their rating. Errors: VALIDATION_ERROR.
func (s *Service) Search(ctx context.Context, tenantID tenancy.TenantID, f SearchParams, p paging.Params) (paging.Result[ListItem], error) {
	f.Query = strings.TrimSpace(f.Query)
	return s.store.Search(ctx, tenantID, f, p)
}

// FindParams names the one object whose customer is wanted.
type FindParams struct {
	CaseID, TransactionID, ApplicationID string
}

// Find returns the customer a case, a transaction or an application is about (the dashboard's
// links to the customer and its network). Errors: VALIDATION_ERROR (not exactly one of the
// three), NOT_FOUND.
func (s *Service) Find(ctx context.Context, tenantID tenancy.TenantID, f FindParams) (ListItem, error) {
	n := 0
	for _, v := range []string{f.CaseID, f.TransactionID, f.ApplicationID} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return ListItem{}, apperr.Invalid("caseId", "give exactly one of caseId, transactionId and applicationId")
	}
	return s.store.Find(ctx, tenantID, f)
}

// DueReviews pages customers whose review is due now.
func (s *Service) DueReviews(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[ListItem], error) {
	return s.store.DueReviews(ctx, tenantID, s.now(), p)
}

// Recompute rates the customer now. Errors: NOT_FOUND.
func (s *Service) Recompute(ctx context.Context, tenantID tenancy.TenantID, id string, p RecomputeParams) (Risk, error) {
	p.At = s.now()
	return s.store.Recompute(ctx, tenantID, id, Rate, p)
}

// CompleteReview records a periodic review: the rating is recomputed and the next review set
// from now. Errors: VALIDATION_ERROR (empty note); NOT_FOUND.
func (s *Service) CompleteReview(ctx context.Context, tenantID tenancy.TenantID, id string, actor audit.Actor, note string) (Risk, error) {
	note = strings.TrimSpace(note)
	if note == "" {
		return Risk{}, apperr.Invalid("note", "must not be empty")
	}
	return s.store.Recompute(ctx, tenantID, id, Rate, RecomputeParams{Reason: ReasonReview, Actor: actor, Review: true, Note: note, At: s.now()})
}

// SweepBatch bounds one tenant's recomputations per sweep.
const SweepBatch = 500

// Sweep rates every queued or never-rated customer of every tenant (the River job's work) and
// returns how many it rated. A customer that vanished meanwhile is skipped.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	tenants, err := s.store.Tenants(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range tenants {
		pending, err := s.store.Pending(ctx, t, SweepBatch)
		if err != nil {
			return n, err
		}
		for id, reason := range pending {
			if _, err := s.store.Recompute(ctx, t, id, Rate, RecomputeParams{Reason: reason, Actor: audit.System, At: s.now()}); err != nil {
				if apperr.CodeOf(err) == apperr.NotFound {
					continue
				}
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// NotifyDue sends the due-review notices of every tenant and returns how many.
func (s *Service) NotifyDue(ctx context.Context) (int, error) {
	tenants, err := s.store.Tenants(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range tenants {
		due, err := s.store.NotifyDue(ctx, t, s.now(), SweepBatch)
		if err != nil {
			return n, err
		}
		n += len(due)
	}
	return n, nil
}
