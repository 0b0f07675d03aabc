package connectapi

import (
	"context"
	"log/slog"
	"strings"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/tenancy"
)

// CaseHandler serves complyd.v1.CaseService.
type CaseHandler struct {
	svc   *cases.Service
	views cases.Views
	log   *slog.Logger
}

// NewCaseHandler returns the handler.
func NewCaseHandler(svc *cases.Service, views cases.Views, log *slog.Logger) *CaseHandler {
	return &CaseHandler{svc: svc, views: views, log: log}
}

// caseCaller returns the caller of the authenticated principal (callerOf; the case handlers
// pass no peer address, and the cases service records no IP).
func caseCaller(ctx context.Context) (audit.Caller, error) {
	c, _, err := callerOf(ctx, "")
	return c, err
}

func personToProto(p cases.Person) *complydv1.Person {
	return &complydv1.Person{Id: p.ID, Email: p.Email, FirstName: p.FirstName, LastName: p.LastName}
}

func caseToProto(c *cases.Case, people map[string]cases.Person) *complydv1.Case {
	out := &complydv1.Case{Id: c.ID, CaseNumber: c.CaseNumber, Type: c.Type, Priority: c.Priority, Title: c.Title,
		Description: c.Description, Status: c.Status, AssignedTo: nullStringPtr(c.AssignedTo),
		RelatedTransactionId: nullStringPtr(c.RelatedTransactionID), RelatedKycApplicationId: nullStringPtr(c.RelatedKYCApplicationID),
		Tags: c.Tags, ResolvedAt: tsPtr(c.ResolvedAt), ResolutionNote: nullString(c.ResolutionNote),
		CreatedAt: ts(c.CreatedAt), UpdatedAt: ts(c.UpdatedAt), Timeline: []*complydv1.CaseEvent{}}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	if c.AssignedTo != nil {
		if p, ok := people[*c.AssignedTo]; ok {
			out.Assignee = personToProto(p)
		}
	}
	out.DueAt, out.InboxId = tsPtr(c.DueAt), nullStringPtr(c.InboxID)
	if f := c.Facts; f != nil {
		out.InboxName, out.Amount, out.Currency, out.Party, out.TopRule, out.Score = f.InboxName, f.Amount, f.Currency, f.Party, f.TopRule, f.Score
	}
	return out
}

// personName is how a user is named on a case: first and last name, else the email.
func personName(p cases.Person) string {
	if n := strings.TrimSpace(p.FirstName + " " + p.LastName); n != "" {
		return n
	}
	return p.Email
}

func eventToProto(e cases.Event, people map[string]cases.Person) *complydv1.CaseEvent {
	out := &complydv1.CaseEvent{Id: e.ID, CaseId: e.CaseID, EventType: e.EventType, ActorId: nullString(e.ActorID),
		Description: e.Description, PreviousValue: nullStringPtr(e.PreviousValue), NewValue: nullStringPtr(e.NewValue),
		CreatedAt: ts(e.CreatedAt)}
	out.Metadata, _ = toStruct(e.Metadata)
	if p, ok := people[e.ActorID]; ok && e.ActorID != "" {
		out.Actor = personToProto(p)
	}
	// An assignment's values are user ids: name them (issue 50 point 4).
	if e.EventType == cases.EventAssigned {
		if e.PreviousValue != nil {
			if p, ok := people[*e.PreviousValue]; ok {
				out.PreviousValueName = personName(p)
			}
		}
		if e.NewValue != nil {
			if p, ok := people[*e.NewValue]; ok {
				out.NewValueName = personName(p)
			}
		}
	}
	return out
}

// eventPeople lists the user ids an event names: its actor and an assignment's values.
func eventPeople(events []cases.Event) []string {
	ids := make([]string, 0, len(events))
	for _, e := range events {
		if e.ActorID != "" {
			ids = append(ids, e.ActorID)
		}
		if e.EventType == cases.EventAssigned {
			for _, v := range []*string{e.PreviousValue, e.NewValue} {
				if v != nil {
					ids = append(ids, *v)
				}
			}
		}
	}
	return ids
}

// withPeople renders cases with their assignees resolved in one query.
func (h *CaseHandler) withPeople(ctx context.Context, tenantID tenancy.TenantID, cs []cases.Case, extra ...string) ([]*complydv1.Case, map[string]cases.Person, error) {
	ids := append([]string{}, extra...)
	for _, c := range cs {
		if c.AssignedTo != nil {
			ids = append(ids, *c.AssignedTo)
		}
	}
	people, err := h.views.People(ctx, tenantID, ids)
	if err != nil {
		return nil, nil, err
	}
	out := make([]*complydv1.Case, 0, len(cs))
	for i := range cs {
		out = append(out, caseToProto(&cs[i], people))
	}
	return out, people, nil
}

func (h *CaseHandler) one(ctx context.Context, tenantID tenancy.TenantID, c *cases.Case) (*connect.Response[complydv1.Case], error) {
	out, _, err := h.withPeople(ctx, tenantID, []cases.Case{*c})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(out[0]), nil
}

// CreateCase implements CaseService.CreateCase.
func (h *CaseHandler) CreateCase(ctx context.Context, req *connect.Request[complydv1.CreateCaseRequest]) (*connect.Response[complydv1.Case], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	cs, err := h.svc.Create(ctx, c, cases.NewParams{Type: m.Type, Priority: m.Priority, Title: m.Title, Description: m.Description,
		RelatedTransactionID: m.RelatedTransactionId, RelatedKYCApplicationID: m.RelatedKycApplicationId, Tags: m.Tags})
	if err != nil {
		return nil, err
	}
	return h.one(ctx, c.TenantID, cs)
}

// ListCases implements CaseService.ListCases.
func (h *CaseHandler) ListCases(ctx context.Context, req *connect.Request[complydv1.ListCasesRequest]) (*connect.Response[complydv1.ListCasesResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	lp := cases.ListParams{Status: m.GetStatus(), Type: m.GetType(), Priority: m.GetPriority(),
		AssigneeID: m.GetAssigneeId(), IncludeUnassigned: m.GetIncludeUnassigned(), Sort: m.GetSort(), Page: int(m.GetPage()), Limit: int(m.GetLimit()),
		InboxID: m.GetInboxId()}
	if m.GetAwaitingMyConfirmation() {
		if c.UserID == "" {
			// An API key is no person: nothing awaits its confirmation (docs/guide/dashboard-cases.md).
			return connect.NewResponse(&complydv1.ListCasesResponse{Items: []*complydv1.Case{}, Page: 1, Limit: int32(cases.DefaultLimit)}), nil
		}
		lp.AwaitingConfirmationBy = c.UserID
	}
	page, err := h.svc.List(ctx, c.TenantID, lp)
	if err != nil {
		return nil, err
	}
	items, _, err := h.withPeople(ctx, c.TenantID, page.Items)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.ListCasesResponse{Items: items, Total: int32(page.Total), Page: int32(page.Page),
		Limit: int32(page.Limit), TotalPages: int32(page.TotalPages())}), nil
}

// GetCase implements CaseService.GetCase: the case with assignee, relatedTransaction and timeline.
func (h *CaseHandler) GetCase(ctx context.Context, req *connect.Request[complydv1.GetCaseRequest]) (*connect.Response[complydv1.Case], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	cs, err := h.svc.Get(ctx, c.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	events, err := h.svc.Timeline(ctx, c.TenantID, cs.ID)
	if err != nil {
		return nil, err
	}
	items, people, err := h.withPeople(ctx, c.TenantID, []cases.Case{*cs}, eventPeople(events)...)
	if err != nil {
		return nil, err
	}
	out := items[0]
	for _, e := range events {
		out.Timeline = append(out.Timeline, eventToProto(e, people))
	}
	if cs.RelatedTransactionID != nil {
		tx, err := h.views.RelatedTransaction(ctx, c.TenantID, *cs.RelatedTransactionID)
		if err != nil {
			return nil, err
		}
		if tx != nil {
			rt := &complydv1.RelatedTransaction{Id: tx.ID, ExternalId: tx.ExternalID, Amount: tx.Amount, Currency: tx.Currency,
				SenderName: nullStringPtr(tx.SenderName)}
			if v := tx.Verdict; v != nil {
				rt.Verdict = &complydv1.VerdictSummary{Outcome: v.Outcome, RiskLevel: v.RiskLevel, AggregateScore: v.AggregateScore,
					TotalLatencyMs: int32(v.TotalLatencyMs)}
			}
			out.RelatedTransaction = rt
			// The queue's columns, on the detail too.
			out.Amount, out.Currency = tx.Amount, tx.Currency
			if tx.SenderName != nil {
				out.Party = *tx.SenderName
			}
			if tx.Verdict != nil {
				out.Score = tx.Verdict.AggregateScore
			}
		}
	}
	// The moves offered are the server's (STYLE "The server decides, the screen follows"): none
	// for a role that may not change a status, else the guarded machine's (docs/guide/cases.md).
	out.AllowedTransitions = []string{}
	if p, err := principalOf(ctx); err == nil && permissions[complydv1connect.CaseServiceUpdateCaseStatusProcedure].roles.Has(p.Role) {
		if out.AllowedTransitions, err = h.svc.AllowedTransitions(ctx, c.TenantID, cs); err != nil {
			return nil, err
		}
	}
	return connect.NewResponse(out), nil
}

// GetCaseSettings implements CaseService.GetCaseSettings.
func (h *CaseHandler) GetCaseSettings(ctx context.Context, _ *connect.Request[complydv1.GetCaseSettingsRequest]) (*connect.Response[complydv1.CaseSettings], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	set, err := h.svc.Settings(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.CaseSettings{FourEyesResolution: set.FourEyesResolution}), nil
}

// UpdateCaseSettings implements CaseService.UpdateCaseSettings.
func (h *CaseHandler) UpdateCaseSettings(ctx context.Context, req *connect.Request[complydv1.UpdateCaseSettingsRequest]) (*connect.Response[complydv1.CaseSettings], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	c := audit.Caller{TenantID: p.TenantID, UserID: p.UserID}
	set, err := h.svc.Settings(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	if req.Msg.FourEyesResolution != nil {
		set.FourEyesResolution = *req.Msg.FourEyesResolution
	}
	if set, err = h.svc.SaveSettings(ctx, c, callActor(ctx, p, req.Peer().Addr), set); err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.CaseSettings{FourEyesResolution: set.FourEyesResolution}), nil
}

// UpdateCaseStatus implements CaseService.UpdateCaseStatus.
func (h *CaseHandler) UpdateCaseStatus(ctx context.Context, req *connect.Request[complydv1.UpdateCaseStatusRequest]) (*connect.Response[complydv1.Case], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	cs, err := h.svc.ChangeStatus(ctx, c, req.Msg.Id, req.Msg.Status, req.Msg.GetResolutionNote())
	if err != nil {
		return nil, err
	}
	return h.one(ctx, c.TenantID, cs)
}

// AssignCase implements CaseService.AssignCase.
func (h *CaseHandler) AssignCase(ctx context.Context, req *connect.Request[complydv1.AssignCaseRequest]) (*connect.Response[complydv1.Case], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	cs, err := h.svc.Assign(ctx, c, req.Msg.Id, req.Msg.AssigneeId)
	if err != nil {
		return nil, err
	}
	return h.one(ctx, c.TenantID, cs)
}

// AddCaseNote implements CaseService.AddCaseNote.
func (h *CaseHandler) AddCaseNote(ctx context.Context, req *connect.Request[complydv1.AddCaseNoteRequest]) (*connect.Response[complydv1.CaseEvent], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	ev, err := h.svc.AddNote(ctx, c, req.Msg.Id, req.Msg.Content)
	if err != nil {
		return nil, err
	}
	people, err := h.views.People(ctx, c.TenantID, []string{ev.ActorID})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(eventToProto(*ev, people)), nil
}

func proposalToProto(p *cases.Proposal) *complydv1.ResolutionProposal {
	return &complydv1.ResolutionProposal{Id: p.ID, CaseId: p.CaseID, Resolution: p.Resolution, Note: p.Note, Status: p.Status,
		ProposedBy: p.ProposedBy, ProposedAt: ts(p.ProposedAt), DecidedBy: nullStringPtr(p.DecidedBy),
		DecidedAt: tsPtr(p.DecidedAt), Reason: nullString(p.Reason)}
}

// nameProposals fills the proposers' and deciders' names in one query.
func (h *CaseHandler) nameProposals(ctx context.Context, tenantID tenancy.TenantID, ps []*complydv1.ResolutionProposal) error {
	ids := []string{}
	for _, p := range ps {
		ids = append(ids, p.ProposedBy)
		if p.DecidedBy != nil {
			ids = append(ids, p.DecidedBy.Value)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	people, err := h.views.People(ctx, tenantID, ids)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if who, ok := people[p.ProposedBy]; ok {
			p.ProposedByName = personName(who)
		}
		if p.DecidedBy != nil {
			if who, ok := people[p.DecidedBy.Value]; ok {
				p.DecidedByName = personName(who)
			}
		}
	}
	return nil
}

// ProposeResolution implements CaseService.ProposeResolution.
func (h *CaseHandler) ProposeResolution(ctx context.Context, req *connect.Request[complydv1.ProposeResolutionRequest]) (*connect.Response[complydv1.ResolutionProposal], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	p, err := h.svc.Propose(ctx, c, req.Msg.Id, cases.ProposeParams{Resolution: req.Msg.Resolution, Note: req.Msg.Note})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(proposalToProto(p)), nil
}

// ListResolutionProposals implements CaseService.ListResolutionProposals.
func (h *CaseHandler) ListResolutionProposals(ctx context.Context, req *connect.Request[complydv1.ListResolutionProposalsRequest]) (*connect.Response[complydv1.ListResolutionProposalsResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	ps, err := h.svc.Proposals(ctx, c.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListResolutionProposalsResponse{Items: make([]*complydv1.ResolutionProposal, 0, len(ps))}
	for i := range ps {
		out.Items = append(out.Items, proposalToProto(&ps[i]))
	}
	if err := h.nameProposals(ctx, c.TenantID, out.Items); err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

// ApproveResolution implements CaseService.ApproveResolution.
func (h *CaseHandler) ApproveResolution(ctx context.Context, req *connect.Request[complydv1.ApproveResolutionRequest]) (*connect.Response[complydv1.Case], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	cs, err := h.svc.ApproveProposal(ctx, c, req.Msg.Id, req.Msg.ProposalId)
	if err != nil {
		return nil, err
	}
	return h.one(ctx, c.TenantID, cs)
}

// RejectResolution implements CaseService.RejectResolution.
func (h *CaseHandler) RejectResolution(ctx context.Context, req *connect.Request[complydv1.RejectResolutionRequest]) (*connect.Response[complydv1.Case], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	cs, err := h.svc.RejectProposal(ctx, c, req.Msg.Id, req.Msg.ProposalId, req.Msg.Reason)
	if err != nil {
		return nil, err
	}
	return h.one(ctx, c.TenantID, cs)
}

func interdictionToProto(in *cases.Interdiction) *complydv1.Interdiction {
	return &complydv1.Interdiction{Id: in.ID, CaseId: in.CaseID, Action: in.Action, AccountNumber: in.AccountNumber,
		Reason: in.Reason, Status: in.Status, RequestedBy: in.RequestedBy, RequestedAt: ts(in.RequestedAt),
		ConfirmedBy: nullStringPtr(in.ConfirmedBy), ConfirmedAt: tsPtr(in.ConfirmedAt), Reference: nullString(in.Reference),
		CaseNumber: in.CaseNumber, LiftReason: nullString(in.LiftReason), LiftRequestedBy: nullStringPtr(in.LiftRequestedBy),
		LiftRequestedAt: tsPtr(in.LiftRequestedAt), LiftedBy: nullStringPtr(in.LiftedBy), LiftedAt: tsPtr(in.LiftedAt)}
}

// namedInterdiction renders one interdiction with its officers' names.
func (h *CaseHandler) namedInterdiction(ctx context.Context, tenantID tenancy.TenantID, in *cases.Interdiction) (*connect.Response[complydv1.Interdiction], error) {
	out := interdictionToProto(in)
	if err := nameInterdictions(ctx, h.views, tenantID, []*complydv1.Interdiction{out}); err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

// CreateInterdiction implements CaseService.CreateInterdiction.
func (h *CaseHandler) CreateInterdiction(ctx context.Context, req *connect.Request[complydv1.CreateInterdictionRequest]) (*connect.Response[complydv1.Interdiction], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	in, err := h.svc.RequestInterdiction(ctx, c, m.Id, cases.InterdictionParams{Action: m.Action, AccountNumber: m.AccountNumber, Reason: m.Reason})
	if err != nil {
		return nil, err
	}
	return h.namedInterdiction(ctx, c.TenantID, in)
}

// ListInterdictions implements CaseService.ListInterdictions.
func (h *CaseHandler) ListInterdictions(ctx context.Context, req *connect.Request[complydv1.ListInterdictionsRequest]) (*connect.Response[complydv1.ListInterdictionsResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	ins, err := h.svc.Interdictions(ctx, c.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListInterdictionsResponse{Items: make([]*complydv1.Interdiction, 0, len(ins))}
	for i := range ins {
		out.Items = append(out.Items, interdictionToProto(&ins[i]))
	}
	if err := nameInterdictions(ctx, h.views, c.TenantID, out.Items); err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

// ConfirmInterdiction implements CaseService.ConfirmInterdiction.
func (h *CaseHandler) ConfirmInterdiction(ctx context.Context, req *connect.Request[complydv1.ConfirmInterdictionRequest]) (*connect.Response[complydv1.Interdiction], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	in, err := h.svc.ConfirmInterdictionByID(ctx, c, req.Msg.Id, req.Msg.GetReference())
	if err != nil {
		return nil, err
	}
	return h.namedInterdiction(ctx, c.TenantID, in)
}
