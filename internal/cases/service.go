package cases

import (
	"context"
	"errors"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// Service is the cases capability: it runs the pure operations inside Store transactions.
type Service struct {
	// OnInterdictionChange, when set, runs after an interdiction was confirmed or lifted (after
	// commit): it drops this process's cached interdictions of the tenant at once, before the
	// LISTEN/NOTIFY announcement every replica follows reaches it (docs/guide/interdictions.md).
	OnInterdictionChange func(tenancy.TenantID)

	store Store
	users Users
	now   func() time.Time
}

// NewService returns a Service. It panics when a dependency is nil.
func NewService(store Store, users Users, now func() time.Time) *Service {
	if store == nil || users == nil || now == nil {
		panic("cases.NewService: nil dependency")
	}
	return &Service{store: store, users: users, now: now}
}

func (s *Service) actor(c audit.Caller) Actor {
	return Actor{UserID: c.UserID, APIKey: c.APIKey, At: s.now().UTC()}
}

// Create creates a case, manual or automatic (p.Automatic), numbered in the year of its creation.
// Errors: VALIDATION_ERROR; INTERNAL.
func (s *Service) Create(ctx context.Context, c audit.Caller, p NewParams) (*Case, error) {
	a := s.actor(c)
	p.TenantID = c.TenantID
	// Validate before taking a number, so that a bad body never touches the counter row.
	if _, _, err := New(p, a, ""); err != nil {
		return nil, err
	}
	return s.store.Create(ctx, c.TenantID, a.At.Year(), func(number string) (Case, Effects, error) {
		return New(p, a, number)
	})
}

// Get returns a case. Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (*Case, error) {
	return s.store.Get(ctx, tenantID, id)
}

// List returns one page of cases (docs/reference/specification.md Conventions 4). Errors:
// VALIDATION_ERROR on the filters or paging.
func (s *Service) List(ctx context.Context, tenantID tenancy.TenantID, p ListParams) (paging.Result[Case], error) {
	p, err := p.Normalize()
	if err != nil {
		return paging.Result[Case]{}, err
	}
	return s.store.List(ctx, tenantID, p)
}

// Timeline returns the case's events, oldest first. Errors: NOT_FOUND.
func (s *Service) Timeline(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Event, error) {
	return s.store.Events(ctx, tenantID, caseID)
}

// ChangeStatus moves a case (PATCH /cases/:id/status) under the four-eyes guard read in the
// same transaction (ChangeStatusGuarded). Errors: NOT_FOUND; VALIDATION_ERROR;
// INVALID_STATUS_TRANSITION with data {from, to, allowed}; CONFLICT when a proposal is pending
// or the tenant requires four eyes for every resolution.
func (s *Service) ChangeStatus(ctx context.Context, c audit.Caller, id, to, resolutionNote string) (*Case, error) {
	a := s.actor(c)
	return s.store.UpdateStatus(ctx, c.TenantID, id, func(cs *Case, g Guard) (Effects, error) {
		next, eff, err := ChangeStatusGuarded(*cs, a, g, to, resolutionNote)
		if err != nil {
			return Effects{}, err
		}
		*cs = next
		return eff, nil
	})
}

// AllowedTransitions returns the statuses the case may move to directly now (Guard.Allowed):
// what the dashboard offers, so that it never shows a move the server would refuse.
// Errors: NOT_FOUND.
func (s *Service) AllowedTransitions(ctx context.Context, tenantID tenancy.TenantID, cs *Case) ([]string, error) {
	g, err := s.store.Guard(ctx, tenantID, cs.ID)
	if err != nil {
		return nil, err
	}
	return g.Allowed(*cs), nil
}

// Settings returns the tenant's case controls. Errors: NOT_FOUND for an unknown tenant.
func (s *Service) Settings(ctx context.Context, tenantID tenancy.TenantID) (Settings, error) {
	return s.store.Settings(ctx, tenantID)
}

// SaveSettings changes the tenant's case controls, audited as case_settings.updated with the
// values before and after. Errors: NOT_FOUND for an unknown tenant.
func (s *Service) SaveSettings(ctx context.Context, c audit.Caller, actor audit.Actor, set Settings) (Settings, error) {
	before, err := s.store.Settings(ctx, c.TenantID)
	if err != nil {
		return Settings{}, err
	}
	ev := audit.Event{TenantID: c.TenantID, Actor: actor, Action: "case_settings.updated", ResourceType: "case_settings",
		ResourceID: string(c.TenantID), Before: before.audit(), After: set.audit()}
	if err := s.store.SaveSettings(ctx, c.TenantID, set, ev); err != nil {
		return Settings{}, err
	}
	return set, nil
}

// Assign assigns a case to a user (PATCH /cases/:id/assign). The assignee must be an active user
// of the caller's tenant; the check reads the user directory before the case transaction, so a
// deactivation racing with it may let one assignment through (it is then visible and reversible).
// Errors: VALIDATION_ERROR on assigneeId (blank or deactivated); NOT_FOUND for the case and for
// an assignee that is not a user of the caller's tenant (unknown, or of another tenant).
func (s *Service) Assign(ctx context.Context, c audit.Caller, id, assigneeID string) (*Case, error) {
	if assigneeID == "" {
		return nil, apperr.Invalid("assigneeId", "is required")
	}
	u, err := s.users.Get(ctx, c.TenantID, assigneeID)
	switch {
	case apperr.CodeOf(err) == apperr.NotFound:
		// An unknown id and a user of another tenant are indistinguishable on purpose: another
		// tenant's resource is NOT_FOUND, never a hint that it exists (docs/design/design-choices.md §2).
		return nil, apperr.NotFoundf("assignee not found")
	case err != nil:
		return nil, err
	case !u.Active:
		return nil, apperr.Invalid("assigneeId", "must be an active user")
	}
	a := s.actor(c)
	return s.store.Update(ctx, c.TenantID, id, func(cs *Case) (Effects, error) {
		next, eff, err := Assign(*cs, a, assigneeID)
		if err != nil {
			return Effects{}, err
		}
		*cs = next
		return eff, nil
	})
}

// AddNote adds a note to the case timeline (POST /cases/:id/notes) and returns the NOTE_ADDED
// event. Errors: NOT_FOUND; VALIDATION_ERROR on content.
func (s *Service) AddNote(ctx context.Context, c audit.Caller, id, content string) (*Event, error) {
	cs, err := s.store.Get(ctx, c.TenantID, id)
	if err != nil {
		return nil, err
	}
	ev, err := AddNote(*cs, s.actor(c), content)
	if err != nil {
		return nil, err
	}
	if err := s.store.AddEvent(ctx, c.TenantID, ev); err != nil {
		return nil, err
	}
	return &ev, nil
}

// Propose proposes a resolution (POST /cases/:id/resolution-proposals) and moves the case to
// PENDING_REVIEW (see Propose). Errors: NOT_FOUND; VALIDATION_ERROR; INVALID_STATUS_TRANSITION;
// CONFLICT when a proposal is already pending.
func (s *Service) Propose(ctx context.Context, c audit.Caller, caseID string, p ProposeParams) (*Proposal, error) {
	if c.UserID == "" {
		return nil, errors.New("propose: a proposal needs a user")
	}
	a := s.actor(c)
	_, prop, err := s.store.CreateProposal(ctx, c.TenantID, caseID, func(cs *Case) (Proposal, Effects, error) {
		next, prop, eff, err := Propose(*cs, a, p)
		if err != nil {
			return Proposal{}, Effects{}, err
		}
		*cs = next
		return prop, eff, nil
	})
	return prop, err
}

// ApproveProposal approves a pending proposal and resolves the case; the approver is never the
// proposer (docs/design/design-choices.md §4). Errors: NOT_FOUND; FORBIDDEN; CONFLICT; INVALID_STATUS_TRANSITION.
func (s *Service) ApproveProposal(ctx context.Context, c audit.Caller, caseID, proposalID string) (*Case, error) {
	a := s.actor(c)
	cs, _, err := s.store.DecideProposal(ctx, c.TenantID, caseID, proposalID, func(cs *Case, p *Proposal) (Effects, error) {
		nextCase, nextProp, eff, err := ApproveProposal(*cs, *p, a)
		if err != nil {
			return Effects{}, err
		}
		*cs, *p = nextCase, nextProp
		return eff, nil
	})
	return cs, err
}

// RejectProposal rejects a pending proposal with a reason and returns the case to IN_PROGRESS.
// Errors: VALIDATION_ERROR on reason; NOT_FOUND; FORBIDDEN; CONFLICT; INVALID_STATUS_TRANSITION.
func (s *Service) RejectProposal(ctx context.Context, c audit.Caller, caseID, proposalID, reason string) (*Case, error) {
	a := s.actor(c)
	cs, _, err := s.store.DecideProposal(ctx, c.TenantID, caseID, proposalID, func(cs *Case, p *Proposal) (Effects, error) {
		nextCase, nextProp, eff, err := RejectProposal(*cs, *p, a, reason)
		if err != nil {
			return Effects{}, err
		}
		*cs, *p = nextCase, nextProp
		return eff, nil
	})
	return cs, err
}

// Proposals lists the case's proposals. Errors: NOT_FOUND.
func (s *Service) Proposals(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Proposal, error) {
	return s.store.Proposals(ctx, tenantID, caseID)
}

// RequestInterdiction queues an interdiction from the case. Errors: NOT_FOUND; VALIDATION_ERROR;
// CONFLICT when the case is CLOSED.
func (s *Service) RequestInterdiction(ctx context.Context, c audit.Caller, caseID string, p InterdictionParams) (*Interdiction, error) {
	a := s.actor(c)
	return s.store.CreateInterdiction(ctx, c.TenantID, caseID, func(cs *Case) (Interdiction, Effects, error) {
		next, in, eff, err := RequestInterdiction(*cs, a, p)
		if err != nil {
			return Interdiction{}, Effects{}, err
		}
		*cs = next
		return in, eff, nil
	})
}

// ConfirmInterdiction records that the bank executed an interdiction. Errors: NOT_FOUND; CONFLICT.
func (s *Service) ConfirmInterdiction(ctx context.Context, c audit.Caller, caseID, interdictionID, reference string) (*Interdiction, error) {
	a := s.actor(c)
	out, err := s.store.UpdateInterdiction(ctx, c.TenantID, caseID, interdictionID, func(cs *Case, in *Interdiction) (Effects, error) {
		nextCase, nextIn, eff, err := ConfirmInterdiction(*cs, *in, a, reference)
		if err != nil {
			return Effects{}, err
		}
		*cs, *in = nextCase, nextIn
		return eff, nil
	})
	if err == nil && s.OnInterdictionChange != nil {
		s.OnInterdictionChange(c.TenantID)
	}
	return out, err
}

// ConfirmInterdictionByID is ConfirmInterdiction for POST /interdictions/:id/confirm, where the
// bank names only the interdiction. Errors: NOT_FOUND; CONFLICT.
func (s *Service) ConfirmInterdictionByID(ctx context.Context, c audit.Caller, interdictionID, reference string) (*Interdiction, error) {
	in, err := s.store.GetInterdiction(ctx, c.TenantID, interdictionID)
	if err != nil {
		return nil, err
	}
	return s.ConfirmInterdiction(ctx, c, in.CaseID, interdictionID, reference)
}

// Interdictions lists the case's interdictions. Errors: NOT_FOUND.
func (s *Service) Interdictions(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Interdiction, error) {
	return s.store.Interdictions(ctx, tenantID, caseID)
}
