package connectapi

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/customers"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/tenancy"
)

// CustomerFinder is what the case workspace reads of customers (customers.Service).
type CustomerFinder interface {
	Find(ctx context.Context, tenantID tenancy.TenantID, f customers.FindParams) (customers.ListItem, error)
	Overview(ctx context.Context, tenantID tenancy.TenantID, id string) (customers.Overview, error)
}

// CaseWorkspaceHandler serves complyd.v1.CaseWorkspaceService (docs/guide/dashboard-cases.md).
type CaseWorkspaceHandler struct {
	cases     *CaseHandler
	inboxes   *cases.InboxService
	evidence  cases.EvidenceReader
	customers CustomerFinder
	now       func() time.Time
	log       *slog.Logger
}

// NewCaseWorkspaceHandler returns the handler; it renders cases as CaseHandler does.
func NewCaseWorkspaceHandler(ch *CaseHandler, inboxes *cases.InboxService, evidence cases.EvidenceReader, cf CustomerFinder,
	now func() time.Time, log *slog.Logger) *CaseWorkspaceHandler {
	return &CaseWorkspaceHandler{cases: ch, inboxes: inboxes, evidence: evidence, customers: cf, now: now, log: log}
}

// may says whether the caller's role may call procedure (the permissions table decides).
func may(p auth.Principal, procedure string) bool { return permissions[procedure].roles.Has(p.Role) }

// GetCaseWorkspace implements CaseWorkspaceService.GetCaseWorkspace.
func (h *CaseWorkspaceHandler) GetCaseWorkspace(ctx context.Context, req *connect.Request[complydv1.GetCaseWorkspaceRequest]) (*connect.Response[complydv1.CaseWorkspace], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	// The case as GetCase renders it: names, timeline, allowedTransitions.
	got, err := h.cases.GetCase(ctx, connect.NewRequest(&complydv1.GetCaseRequest{Id: req.Msg.Id}))
	if err != nil {
		return nil, err
	}
	cs := got.Msg
	out := &complydv1.CaseWorkspace{Case: cs, Actions: &complydv1.CaseActions{}}
	t := p.TenantID
	props, err := h.cases.svc.Proposals(ctx, t, cs.Id)
	if err != nil {
		return nil, err
	}
	for i := range props {
		out.Proposals = append(out.Proposals, proposalToProto(&props[i]))
	}
	if err := h.cases.nameProposals(ctx, t, out.Proposals); err != nil {
		return nil, err
	}
	ins, err := h.cases.svc.Interdictions(ctx, t, cs.Id)
	if err != nil {
		return nil, err
	}
	for i := range ins {
		out.Interdictions = append(out.Interdictions, interdictionToProto(&ins[i]))
	}
	if err := nameInterdictions(ctx, h.cases.views, t, out.Interdictions); err != nil {
		return nil, err
	}
	var sender, receiver *complydv1.PartyFacts
	if cs.RelatedTransactionId != nil {
		ev, err := h.evidence.Evidence(ctx, t, cs.RelatedTransactionId.Value, h.now().Add(-30*24*time.Hour).UTC().Truncate(24*time.Hour))
		if err != nil {
			return nil, err
		}
		if ev != nil {
			out.Transaction, out.Hits, out.Activity = evidenceToProto(ev)
			sender, receiver = out.Transaction.Sender, out.Transaction.Receiver
			if len(out.Transaction.Rules) > 0 {
				cs.TopRule = out.Transaction.Rules[0].Name
			}
		}
	}
	if cs.InboxId != nil {
		if cs.InboxName, err = h.inboxes.Name(ctx, t, cs.InboxId.Value); err != nil {
			return nil, err
		}
	}
	if err := h.customer(ctx, t, cs, out); err != nil {
		return nil, err
	}
	for _, hit := range out.Hits {
		// The customer profile's facts are our party's, for the sender.
		if hit.Party.Role == "SENDER" && sender != nil {
			hit.Party = sender
		} else if hit.Party.Role == "RECEIVER" && receiver != nil {
			hit.Party = receiver
		}
		hit.Differences = differences(hit.Party, hit.Entry)
	}
	h.actions(ctx, p, cs, props, out)
	return connect.NewResponse(out), nil
}

// customer fills the customer panel, linked cases and reports from the customer's overview.
func (h *CaseWorkspaceHandler) customer(ctx context.Context, t tenancy.TenantID, cs *complydv1.Case, out *complydv1.CaseWorkspace) error {
	found, err := h.customers.Find(ctx, t, customers.FindParams{CaseID: cs.Id})
	if apperr.CodeOf(err) == apperr.NotFound || (err == nil && found.ID == "") {
		return nil
	}
	if err != nil {
		return err
	}
	ov, err := h.customers.Overview(ctx, t, found.ID)
	if err != nil {
		return err
	}
	c := &complydv1.WorkspaceCustomer{Id: found.ID, DisplayName: found.Name, Kind: found.Type}
	if ov.Risk != nil {
		c.RiskRating, c.RiskScore = ov.Risk.Rating.Rating, int32(ov.Risk.Rating.Score)
	}
	for _, a := range ov.Applications {
		c.Applications = append(c.Applications, &complydv1.WorkspaceApplication{Id: a.ID, Kind: a.Kind, Status: a.Status, Tier: a.Tier})
	}
	for _, a := range ov.Accounts {
		c.Accounts = append(c.Accounts, &complydv1.WorkspaceAccount{AccountNumber: a.Account, Transactions: int64(a.Transactions), LastSeenAt: ts(a.LastAt)})
	}
	for _, k := range ov.Cases {
		if k.Status != cases.StatusResolvedTruePositive && k.Status != cases.StatusResolvedFalsePositive && k.Status != cases.StatusClosed {
			c.OpenCases++
		}
		if k.ID != cs.Id && len(out.LinkedCases) < 20 {
			out.LinkedCases = append(out.LinkedCases, &complydv1.LinkedCase{Id: k.ID, CaseNumber: k.CaseNumber, Status: k.Status,
				Title: k.Title, CreatedAt: ts(k.CreatedAt)})
		}
	}
	for _, r := range ov.Reports {
		if len(out.Reports) < 20 {
			out.Reports = append(out.Reports, &complydv1.LinkedReport{Id: r.ID, Type: r.Type, Status: r.Status})
		}
	}
	if ov.Profile.Person != nil && out.Transaction != nil {
		out.Transaction.Sender.DateOfBirth = ov.Profile.Person.DateOfBirth
		out.Transaction.Sender.EntityType = "INDIVIDUAL"
	} else if ov.Profile.Company != nil && out.Transaction != nil {
		out.Transaction.Sender.EntityType = "BUSINESS"
	}
	out.Customer = c
	return nil
}

// actions says what the caller may do now: the permissions table, the case's assignee and
// status, and four eyes (never the proposer's own proposal).
func (h *CaseWorkspaceHandler) actions(ctx context.Context, p auth.Principal, cs *complydv1.Case, props []cases.Proposal, out *complydv1.CaseWorkspace) {
	a := out.Actions
	closed := strings.HasPrefix(cs.Status, "RESOLVED_") || cs.Status == cases.StatusClosed
	human := p.Method != auth.MethodAPIKey
	mine := cs.AssignedTo != nil && cs.AssignedTo.Value == p.UserID
	assign := may(p, complydv1connect.CaseServiceAssignCaseProcedure) && !closed
	a.AssignToMe = assign && human && !mine
	a.Reassign = assign
	a.AddNote = may(p, complydv1connect.CaseServiceAddCaseNoteProcedure)
	pending := slices.IndexFunc(props, func(x cases.Proposal) bool { return x.Status == cases.ProposalPending })
	a.Propose = may(p, complydv1connect.CaseServiceProposeResolutionProcedure) && !closed && pending < 0
	if pending >= 0 && props[pending].ProposedBy != p.UserID && human && may(p, complydv1connect.CaseServiceApproveResolutionProcedure) {
		a.DecideProposalId = props[pending].ID
	}
	a.RequestInterdiction = may(p, complydv1connect.CaseServiceCreateInterdictionProcedure) && !closed
	a.DraftReport = may(p, complydv1connect.ReportServiceCreateReportProcedure)
	if a.Reassign {
		people, err := h.inboxes.Assignable(ctx, p.TenantID, "")
		if err == nil {
			for _, x := range people {
				out.Assignable = append(out.Assignable, personToProto(x))
			}
		} else {
			h.log.WarnContext(ctx, "assignable users", "err", err)
		}
	}
}

// differences names the facts on which our party and the entry disagree (both known).
func differences(p *complydv1.PartyFacts, e *complydv1.ListEntry) []string {
	out := []string{}
	if p == nil || e == nil {
		return out
	}
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToUpper(s)), " ") }
	if norm(p.Name) != norm(e.Name) && !slices.ContainsFunc(e.Aliases, func(a string) bool { return norm(a) == norm(p.Name) }) {
		out = append(out, "name")
	}
	if p.DateOfBirth != "" && len(e.DatesOfBirth) > 0 &&
		!slices.ContainsFunc(e.DatesOfBirth, func(d string) bool { return strings.HasPrefix(p.DateOfBirth, d) || strings.HasPrefix(d, p.DateOfBirth) }) {
		out = append(out, "dateOfBirth")
	}
	if p.Nationality != "" && len(e.Nationalities) > 0 &&
		!slices.ContainsFunc(e.Nationalities, func(n string) bool { return strings.EqualFold(n, p.Nationality) }) {
		out = append(out, "nationality")
	}
	if p.EntityType != "" && e.EntityType != "" && p.EntityType != e.EntityType {
		out = append(out, "entityType")
	}
	return out
}

// ruleWindowHours is the window a built-in rule looks back over (docs/design/engines.md): the
// velocity and structuring rules sum the sender's last 24 hours; the rest judge the
// transaction alone.
func ruleWindowHours(name string) int32 {
	n := strings.ToUpper(name)
	switch {
	case strings.Contains(n, "STRUCTUR"), strings.Contains(n, "VELOCITY"), strings.Contains(n, "24"):
		return 24
	}
	return 0
}

func evidenceToProto(ev *cases.Evidence) (*complydv1.WorkspaceTransaction, []*complydv1.SanctionsEvidence, []*complydv1.ActivityDay) {
	t := ev.Transaction
	party := func(p cases.EvidenceParty) *complydv1.PartyFacts {
		return &complydv1.PartyFacts{Role: p.Role, Name: p.Name, AccountNumber: p.Account, BankCode: p.BankCode, Bvn: p.BVN, Nationality: p.Country}
	}
	wt := &complydv1.WorkspaceTransaction{Id: t.ID, ExternalId: t.ExternalID, Type: t.Type, Channel: t.Channel, Amount: t.Amount,
		Currency: t.Currency, AmountNgn: t.AmountNGN, Sender: party(t.Sender), Receiver: party(t.Receiver), Narration: t.Narration,
		TransactionTimestamp: ts(t.At), Outcome: t.Outcome, RiskLevel: t.RiskLevel, AggregateScore: t.Score}
	for _, r := range ev.Rules {
		wt.Rules = append(wt.Rules, &complydv1.WorkspaceRule{Name: r.Name, Category: r.Category, RiskScore: int32(r.RiskScore),
			Details: r.Details, Outcome: r.Outcome, WindowHours: ruleWindowHours(r.Name)})
	}
	hits := []*complydv1.SanctionsEvidence{}
	for _, h := range ev.Hits {
		se := &complydv1.SanctionsEvidence{Party: &complydv1.PartyFacts{Role: h.Party}, MatchedName: h.MatchedName, Score: h.Score,
			Explanation: h.Explanation, Band: band(h.Score)}
		if e := h.Entry; e != nil {
			se.Entry = &complydv1.ListEntry{EntryId: e.EntryID, List: e.List, ListType: e.ListType, Name: e.Name, Aliases: e.Aliases,
				EntityType: e.EntityType, DatesOfBirth: e.DatesOfBirth, Nationalities: e.Nationalities, Programs: e.Programs,
				Remarks: e.Remarks, SourceId: e.SourceID, ListPublishedAt: tsPtr(e.PublishedAt), ListVersion: int32(e.Version)}
		} else {
			se.Entry = &complydv1.ListEntry{EntryId: h.EntryID, List: h.List, ListType: h.ListType}
		}
		hits = append(hits, se)
	}
	days := []*complydv1.ActivityDay{}
	for _, d := range ev.Activity {
		days = append(days, &complydv1.ActivityDay{Day: ts(d.Day), Count: d.Count, SumNgn: d.SumNGN})
	}
	return wt, hits, days
}

// band is the score band of a match (docs/design/design-choices.md §8).
func band(score float64) string {
	switch {
	case score >= 0.95:
		return "BLOCK"
	case score >= 0.85:
		return "ESCALATE"
	case score >= 0.75:
		return "REVIEW"
	}
	return ""
}

// ListAssignableUsers implements CaseWorkspaceService.ListAssignableUsers.
func (h *CaseWorkspaceHandler) ListAssignableUsers(ctx context.Context, req *connect.Request[complydv1.ListAssignableUsersRequest]) (*connect.Response[complydv1.ListAssignableUsersResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	people, err := h.inboxes.Assignable(ctx, c.TenantID, req.Msg.GetInboxId())
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListAssignableUsersResponse{Items: []*complydv1.Person{}}
	for _, p := range people {
		out.Items = append(out.Items, personToProto(p))
	}
	return connect.NewResponse(out), nil
}

func inboxToProto(in *cases.Inbox) *complydv1.CaseInbox {
	out := &complydv1.CaseInbox{Id: in.ID, Name: in.Name, CaseTypes: in.CaseTypes, Assignment: in.Assignment,
		Sla:       &complydv1.SlaMinutes{Critical: int32(in.SLA.Critical), High: int32(in.SLA.High), Medium: int32(in.SLA.Medium), Low: int32(in.SLA.Low)},
		Members:   []*complydv1.Person{},
		OpenCases: int32(in.OpenCases), BreachedCases: int32(in.Breached)}
	if out.CaseTypes == nil {
		out.CaseTypes = []string{}
	}
	for _, m := range in.Members {
		out.Members = append(out.Members, personToProto(m))
	}
	return out
}

func slaFromProto(s *complydv1.SlaMinutes) *cases.SLA {
	if s == nil {
		return nil
	}
	return &cases.SLA{Critical: int(s.Critical), High: int(s.High), Medium: int(s.Medium), Low: int(s.Low)}
}

// CreateCaseInbox implements CaseWorkspaceService.CreateCaseInbox.
func (h *CaseWorkspaceHandler) CreateCaseInbox(ctx context.Context, req *connect.Request[complydv1.CreateCaseInboxRequest]) (*connect.Response[complydv1.CaseInbox], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	in, err := h.inboxes.CreateInbox(ctx, c.TenantID, cases.InboxParams{Name: &m.Name, CaseTypes: m.CaseTypes, Assignment: m.Assignment,
		SLA: slaFromProto(m.Sla), MemberIDs: m.MemberIds})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(inboxToProto(in)), nil
}

// ListCaseInboxes implements CaseWorkspaceService.ListCaseInboxes.
func (h *CaseWorkspaceHandler) ListCaseInboxes(ctx context.Context, _ *connect.Request[complydv1.ListCaseInboxesRequest]) (*connect.Response[complydv1.ListCaseInboxesResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	ins, err := h.inboxes.Inboxes(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListCaseInboxesResponse{Items: []*complydv1.CaseInbox{}}
	for i := range ins {
		out.Items = append(out.Items, inboxToProto(&ins[i]))
	}
	return connect.NewResponse(out), nil
}

// UpdateCaseInbox implements CaseWorkspaceService.UpdateCaseInbox.
func (h *CaseWorkspaceHandler) UpdateCaseInbox(ctx context.Context, req *connect.Request[complydv1.UpdateCaseInboxRequest]) (*connect.Response[complydv1.CaseInbox], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	in, err := h.inboxes.UpdateInbox(ctx, c.TenantID, m.Id, cases.InboxParams{Name: m.Name, Assignment: m.Assignment,
		SLA: slaFromProto(m.Sla), SetMembers: m.SetMembers, MemberIDs: m.MemberIds})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(inboxToProto(in)), nil
}

func viewToProto(v *cases.SavedView) *complydv1.SavedCaseView {
	f := v.Filters
	return &complydv1.SavedCaseView{Id: v.ID, Name: v.Name, CreatedAt: ts(v.CreatedAt), Filters: &complydv1.CaseViewFilters{
		Status: f.Status, Type: f.Type, Priority: f.Priority, Scope: f.Scope, InboxId: f.InboxID, Sort: f.Sort}}
}

// CreateSavedCaseView implements CaseWorkspaceService.CreateSavedCaseView.
func (h *CaseWorkspaceHandler) CreateSavedCaseView(ctx context.Context, req *connect.Request[complydv1.CreateSavedCaseViewRequest]) (*connect.Response[complydv1.SavedCaseView], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	f := req.Msg.GetFilters()
	v, err := h.inboxes.CreateView(ctx, c, req.Msg.Name, cases.ViewFilters{Status: f.GetStatus(), Type: f.GetType(), Priority: f.GetPriority(),
		Scope: f.GetScope(), InboxID: f.GetInboxId(), Sort: f.GetSort()})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(viewToProto(v)), nil
}

// ListSavedCaseViews implements CaseWorkspaceService.ListSavedCaseViews.
func (h *CaseWorkspaceHandler) ListSavedCaseViews(ctx context.Context, _ *connect.Request[complydv1.ListSavedCaseViewsRequest]) (*connect.Response[complydv1.ListSavedCaseViewsResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	vs, err := h.inboxes.Views(ctx, c)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListSavedCaseViewsResponse{Items: []*complydv1.SavedCaseView{}}
	for i := range vs {
		out.Items = append(out.Items, viewToProto(&vs[i]))
	}
	return connect.NewResponse(out), nil
}

// DeleteSavedCaseView implements CaseWorkspaceService.DeleteSavedCaseView.
func (h *CaseWorkspaceHandler) DeleteSavedCaseView(ctx context.Context, req *connect.Request[complydv1.DeleteSavedCaseViewRequest]) (*connect.Response[complydv1.DeleteSavedCaseViewResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	if err := h.inboxes.DeleteView(ctx, c, req.Msg.Id); err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.DeleteSavedCaseViewResponse{}), nil
}

func bulkToProto(rs []cases.BulkResult) *complydv1.BulkCasesResponse {
	out := &complydv1.BulkCasesResponse{Results: []*complydv1.BulkCaseResult{}}
	for _, r := range rs {
		res := &complydv1.BulkCaseResult{CaseId: r.CaseID, Ok: r.Err == nil}
		if r.Err != nil {
			out.Failed++
			res.ErrorCode = string(apperr.CodeOf(r.Err))
			res.ErrorMessage = "the move failed"
			if ae, ok := apperr.As(r.Err); ok {
				res.ErrorMessage = ae.Message
			}
		} else {
			out.Succeeded++
		}
		out.Results = append(out.Results, res)
	}
	return out
}

// BulkAssignCases implements CaseWorkspaceService.BulkAssignCases.
func (h *CaseWorkspaceHandler) BulkAssignCases(ctx context.Context, req *connect.Request[complydv1.BulkAssignCasesRequest]) (*connect.Response[complydv1.BulkCasesResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(bulkToProto(h.cases.svc.BulkAssign(ctx, c, req.Msg.CaseIds, req.Msg.AssigneeId))), nil
}

// BulkProposeResolution implements CaseWorkspaceService.BulkProposeResolution.
func (h *CaseWorkspaceHandler) BulkProposeResolution(ctx context.Context, req *connect.Request[complydv1.BulkProposeResolutionRequest]) (*connect.Response[complydv1.BulkCasesResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(bulkToProto(h.cases.svc.BulkPropose(ctx, c, req.Msg.CaseIds,
		cases.ProposeParams{Resolution: req.Msg.Resolution, Note: req.Msg.Note}))), nil
}
