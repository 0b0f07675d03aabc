package cases

import (
	"context"
	"errors"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

var errNotStubbed = errors.New("fake: not stubbed")

// fakeStore is a hand-written Store whose behaviour each test sets through …Func fields.
type fakeStore struct {
	CreateFunc             func(ctx context.Context, tenantID tenancy.TenantID, year int, build func(string) (Case, Effects, error)) (*Case, error)
	GetFunc                func(ctx context.Context, tenantID tenancy.TenantID, id string) (*Case, error)
	ListFunc               func(ctx context.Context, tenantID tenancy.TenantID, p ListParams) (paging.Result[Case], error)
	UpdateFunc             func(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Case) (Effects, error)) (*Case, error)
	UpdateStatusFunc       func(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Case, Guard) (Effects, error)) (*Case, error)
	GuardFunc              func(ctx context.Context, tenantID tenancy.TenantID, caseID string) (Guard, error)
	SettingsFunc           func(ctx context.Context, tenantID tenancy.TenantID) (Settings, error)
	SaveSettingsFunc       func(ctx context.Context, tenantID tenancy.TenantID, s Settings, ev audit.Event) error
	AddEventFunc           func(ctx context.Context, tenantID tenancy.TenantID, ev Event) error
	EventsFunc             func(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Event, error)
	CreateProposalFunc     func(ctx context.Context, tenantID tenancy.TenantID, caseID string, fn func(*Case) (Proposal, Effects, error)) (*Case, *Proposal, error)
	DecideProposalFunc     func(ctx context.Context, tenantID tenancy.TenantID, caseID, proposalID string, fn func(*Case, *Proposal) (Effects, error)) (*Case, *Proposal, error)
	ProposalsFunc          func(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Proposal, error)
	CreateInterdictionFunc func(ctx context.Context, tenantID tenancy.TenantID, caseID string, fn func(*Case) (Interdiction, Effects, error)) (*Interdiction, error)
	UpdateInterdictionFunc func(ctx context.Context, tenantID tenancy.TenantID, caseID, interdictionID string, fn func(*Case, *Interdiction) (Effects, error)) (*Interdiction, error)
	GetInterdictionFunc    func(ctx context.Context, tenantID tenancy.TenantID, id string) (*Interdiction, error)
	InterdictionsFunc      func(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Interdiction, error)
}

var _ Store = (*fakeStore)(nil)

func (f *fakeStore) Create(ctx context.Context, tenantID tenancy.TenantID, year int, build func(string) (Case, Effects, error)) (*Case, error) {
	if f.CreateFunc == nil {
		return nil, errNotStubbed
	}
	return f.CreateFunc(ctx, tenantID, year, build)
}

func (f *fakeStore) Get(ctx context.Context, tenantID tenancy.TenantID, id string) (*Case, error) {
	if f.GetFunc == nil {
		return nil, errNotStubbed
	}
	return f.GetFunc(ctx, tenantID, id)
}

func (f *fakeStore) List(ctx context.Context, tenantID tenancy.TenantID, p ListParams) (paging.Result[Case], error) {
	if f.ListFunc == nil {
		return paging.Result[Case]{}, errNotStubbed
	}
	return f.ListFunc(ctx, tenantID, p)
}

func (f *fakeStore) Update(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Case) (Effects, error)) (*Case, error) {
	if f.UpdateFunc == nil {
		return nil, errNotStubbed
	}
	return f.UpdateFunc(ctx, tenantID, id, fn)
}

func (f *fakeStore) UpdateStatus(ctx context.Context, tenantID tenancy.TenantID, id string, fn func(*Case, Guard) (Effects, error)) (*Case, error) {
	if f.UpdateStatusFunc == nil {
		return nil, errNotStubbed
	}
	return f.UpdateStatusFunc(ctx, tenantID, id, fn)
}

func (f *fakeStore) Guard(ctx context.Context, tenantID tenancy.TenantID, caseID string) (Guard, error) {
	if f.GuardFunc == nil {
		return Guard{}, errNotStubbed
	}
	return f.GuardFunc(ctx, tenantID, caseID)
}

func (f *fakeStore) Settings(ctx context.Context, tenantID tenancy.TenantID) (Settings, error) {
	if f.SettingsFunc == nil {
		return Settings{}, errNotStubbed
	}
	return f.SettingsFunc(ctx, tenantID)
}

func (f *fakeStore) SaveSettings(ctx context.Context, tenantID tenancy.TenantID, s Settings, ev audit.Event) error {
	if f.SaveSettingsFunc == nil {
		return errNotStubbed
	}
	return f.SaveSettingsFunc(ctx, tenantID, s, ev)
}

func (f *fakeStore) AddEvent(ctx context.Context, tenantID tenancy.TenantID, ev Event) error {
	if f.AddEventFunc == nil {
		return errNotStubbed
	}
	return f.AddEventFunc(ctx, tenantID, ev)
}

func (f *fakeStore) Events(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Event, error) {
	if f.EventsFunc == nil {
		return nil, errNotStubbed
	}
	return f.EventsFunc(ctx, tenantID, caseID)
}

func (f *fakeStore) CreateProposal(ctx context.Context, tenantID tenancy.TenantID, caseID string, fn func(*Case) (Proposal, Effects, error)) (*Case, *Proposal, error) {
	if f.CreateProposalFunc == nil {
		return nil, nil, errNotStubbed
	}
	return f.CreateProposalFunc(ctx, tenantID, caseID, fn)
}

func (f *fakeStore) DecideProposal(ctx context.Context, tenantID tenancy.TenantID, caseID, proposalID string, fn func(*Case, *Proposal) (Effects, error)) (*Case, *Proposal, error) {
	if f.DecideProposalFunc == nil {
		return nil, nil, errNotStubbed
	}
	return f.DecideProposalFunc(ctx, tenantID, caseID, proposalID, fn)
}

func (f *fakeStore) Proposals(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Proposal, error) {
	if f.ProposalsFunc == nil {
		return nil, errNotStubbed
	}
	return f.ProposalsFunc(ctx, tenantID, caseID)
}

func (f *fakeStore) CreateInterdiction(ctx context.Context, tenantID tenancy.TenantID, caseID string, fn func(*Case) (Interdiction, Effects, error)) (*Interdiction, error) {
	if f.CreateInterdictionFunc == nil {
		return nil, errNotStubbed
	}
	return f.CreateInterdictionFunc(ctx, tenantID, caseID, fn)
}

func (f *fakeStore) UpdateInterdiction(ctx context.Context, tenantID tenancy.TenantID, caseID, interdictionID string, fn func(*Case, *Interdiction) (Effects, error)) (*Interdiction, error) {
	if f.UpdateInterdictionFunc == nil {
		return nil, errNotStubbed
	}
	return f.UpdateInterdictionFunc(ctx, tenantID, caseID, interdictionID, fn)
}

func (f *fakeStore) Interdictions(ctx context.Context, tenantID tenancy.TenantID, caseID string) ([]Interdiction, error) {
	if f.InterdictionsFunc == nil {
		return nil, errNotStubbed
	}
	return f.InterdictionsFunc(ctx, tenantID, caseID)
}

// fakeUsers is a hand-written Users.
type fakeUsers struct {
	GetFunc func(ctx context.Context, tenantID tenancy.TenantID, userID string) (User, error)
}

func (f *fakeUsers) Get(ctx context.Context, tenantID tenancy.TenantID, userID string) (User, error) {
	if f.GetFunc == nil {
		return User{}, errNotStubbed
	}
	return f.GetFunc(ctx, tenantID, userID)
}

func (f *fakeStore) GetInterdiction(ctx context.Context, tenantID tenancy.TenantID, id string) (*Interdiction, error) {
	if f.GetInterdictionFunc == nil {
		return nil, errNotStubbed
	}
	return f.GetInterdictionFunc(ctx, tenantID, id)
}
