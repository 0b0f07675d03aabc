package cases

import (
	"context"
	"github.com/complyd/complyd/internal/audit"

	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// InterdictionFilter narrows the interdiction queue (GET /interdictions): every set field must
// match. InForce keeps the interdictions screening enforces (CONFIRMED and LIFT_REQUESTED).
type InterdictionFilter struct {
	Status        string
	Action        string
	AccountNumber string
	CaseID        string
	InForce       bool
}

// InterdictionQueue reads the tenant's interdictions across cases (implemented by
// internal/postgres).
type InterdictionQueue interface {
	// ListInterdictions pages the tenant's interdictions, newest request first, with their case
	// numbers. Errors: INTERNAL.
	ListInterdictions(ctx context.Context, tenantID tenancy.TenantID, f InterdictionFilter, p paging.Params) (paging.Result[Interdiction], error)
	// QueuedInterdiction returns one interdiction of the tenant with its case number.
	// Errors: NOT_FOUND.
	QueuedInterdiction(ctx context.Context, tenantID tenancy.TenantID, id string) (*Interdiction, error)
}

// Interdiction queue paging (docs/design/design-choices.md §11).
const (
	InterdictionPageDefault = 20
	InterdictionPageMax     = 100
)

// LiftInterdiction asks for an interdiction to be lifted (the first pair of eyes).
// Errors: NOT_FOUND; VALIDATION_ERROR; CONFLICT.
func (s *Service) LiftInterdiction(ctx context.Context, c audit.Caller, interdictionID, reason string) (*Interdiction, error) {
	return s.updateInterdictionByID(ctx, c, interdictionID, func(cs Case, in Interdiction, a Actor) (Case, Interdiction, Effects, error) {
		return RequestLift(cs, in, a, reason)
	})
}

// ApproveInterdictionLift lifts an interdiction (the second pair of eyes).
// Errors: NOT_FOUND; VALIDATION_ERROR; CONFLICT; FORBIDDEN for the requester.
func (s *Service) ApproveInterdictionLift(ctx context.Context, c audit.Caller, interdictionID, note string) (*Interdiction, error) {
	return s.updateInterdictionByID(ctx, c, interdictionID, func(cs Case, in Interdiction, a Actor) (Case, Interdiction, Effects, error) {
		return ApproveLift(cs, in, a, note)
	})
}

// RejectInterdictionLift refuses a lift; the interdiction stays in force.
// Errors: NOT_FOUND; VALIDATION_ERROR; CONFLICT; FORBIDDEN for the requester.
func (s *Service) RejectInterdictionLift(ctx context.Context, c audit.Caller, interdictionID, reason string) (*Interdiction, error) {
	return s.updateInterdictionByID(ctx, c, interdictionID, func(cs Case, in Interdiction, a Actor) (Case, Interdiction, Effects, error) {
		return RejectLift(cs, in, a, reason)
	})
}

func (s *Service) updateInterdictionByID(ctx context.Context, c audit.Caller, id string,
	op func(Case, Interdiction, Actor) (Case, Interdiction, Effects, error)) (*Interdiction, error) {
	in, err := s.store.GetInterdiction(ctx, c.TenantID, id)
	if err != nil {
		return nil, err
	}
	a := s.actor(c)
	out, err := s.store.UpdateInterdiction(ctx, c.TenantID, in.CaseID, id, func(cs *Case, in *Interdiction) (Effects, error) {
		nextCase, nextIn, eff, err := op(*cs, *in, a)
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
