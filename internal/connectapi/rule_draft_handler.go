package connectapi

import (
	"context"
	"time"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// RuleDraftStore is what the draft RPCs need of the store (postgres.SettingsStore): drafts,
// their publication and shadow, and the tenant's rule controls (docs/guide/rules.md). Every change
// is audited in its own transaction.
type RuleDraftStore interface {
	// RuleControls returns the tenant's rule controls.
	RuleControls(ctx context.Context, tenant tenancy.TenantID) (rules.Controls, error)
	// SetRuleControls changes them. Errors: NOT_FOUND.
	SetRuleControls(ctx context.Context, tenant tenancy.TenantID, c rules.Controls, actor audit.Actor) error
	// CreateDraft stores a validated draft. Errors: NOT_FOUND (the live rule).
	CreateDraft(ctx context.Context, d rules.Draft, actor audit.Actor) (rules.Draft, error)
	// Drafts lists drafts, newest first, of status when given.
	Drafts(ctx context.Context, tenant tenancy.TenantID, status string) ([]rules.Draft, error)
	// Draft returns one draft. Errors: NOT_FOUND.
	Draft(ctx context.Context, tenant tenancy.TenantID, id string) (rules.Draft, error)
	// UpdateDraft changes a draft through fn, audited as action. Errors: NOT_FOUND; fn's.
	UpdateDraft(ctx context.Context, tenant tenancy.TenantID, id, action string, fn func(*rules.Draft, rules.DraftEnv) error, actor audit.Actor) (rules.Draft, error)
	// PublishDraft publishes a draft. Errors: NOT_FOUND; CONFLICT; Check's and Build's.
	PublishDraft(ctx context.Context, p rules.Publication, actor audit.Actor) (rules.Draft, rules.Rule, error)
	// ShadowComparison reports a draft's shadow results. Errors: NOT_FOUND.
	ShadowComparison(ctx context.Context, tenant tenancy.TenantID, draftID string, maxExamples int) (screening.Comparison, error)
}

// WithDrafts gives the handler the draft store; without it the draft RPCs are INTERNAL.
func (h *RuleHandler) WithDrafts(s RuleDraftStore) *RuleHandler {
	h.drafts = s
	return h
}

// draftsOf is every draft call's start: the caller and the drafts' store.
func (h *RuleHandler) draftsOf(ctx context.Context) (auth.Principal, RuleDraftStore, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return auth.Principal{}, nil, err
	}
	s, err := h.draftStore()
	return p, s, err
}

func (h *RuleHandler) draftStore() (RuleDraftStore, error) {
	if h.drafts == nil {
		return nil, apperr.New(apperr.Internal, "rule drafts are not configured")
	}
	return h.drafts, nil
}

// refuseDirect is the direct CRUD's check (docs/design/design-choices.md §10): open unless the tenant's
// draftsRequired control says every change goes through a published draft.
func (h *RuleHandler) refuseDirect(ctx context.Context, tenant tenancy.TenantID) error {
	if h.drafts == nil {
		return nil
	}
	c, err := h.drafts.RuleControls(ctx, tenant)
	if err != nil {
		return err
	}
	if c.DraftsRequired {
		return apperr.New(apperr.Conflict, "this tenant changes custom rules through drafts published by a second officer (POST /api/v1/rule-drafts)").
			WithData(map[string]any{"reason": "DRAFTS_REQUIRED"})
	}
	return nil
}

func draftToProto(d rules.Draft, c rules.Controls, now time.Time) *complydv1.RuleDraft {
	r := d.Rule
	return &complydv1.RuleDraft{Id: d.ID, RuleId: d.RuleID, BaseVersion: int32(d.BaseVersion), Name: r.Name,
		Description: nullString(r.Description), Expression: r.Expression, Score: int32(r.Score), Outcome: string(r.Outcome),
		Enabled: r.Enabled, Status: string(d.Status), CreatedBy: d.CreatedBy, CreatedAt: ts(d.CreatedAt), UpdatedAt: ts(d.UpdatedAt),
		PublishedBy: d.PublishedBy, PublishedAt: tsPtr(d.PublishedAt), PublishReason: d.PublishReason,
		PublishedRuleId: d.PublishedRuleID, PublishedVersion: int32(d.PublishedVersion), Shadowing: d.Shadowing(now),
		ShadowStartedAt: tsPtr(d.ShadowStartedAt), ShadowEndsAt: tsPtr(d.ShadowEndsAt), ShadowStoppedAt: tsPtr(d.ShadowStoppedAt),
		FourEyesRequired: !c.SinglePerson}
}

func comparisonToProto(c screening.Comparison) *complydv1.RuleComparison {
	out := &complydv1.RuleComparison{Evaluated: int32(c.Evaluated), Flagged: int32(c.Matched), Errors: int32(c.Errors),
		LiveFlagged: int32(c.LiveFlagged), Overlap: int32(c.Overlap), DraftOnly: int32(c.DraftOnly), LiveOnly: int32(c.LiveOnly),
		WouldOpenCases: int32(c.WouldOpen), WouldCloseCases: int32(c.WouldClose), ClosesKnown: c.ClosesKnown,
		Oldest: tsPtr(c.Oldest), Newest: tsPtr(c.Newest), Examples: make([]*complydv1.RuleComparisonExample, 0, len(c.Examples))}
	for _, e := range c.Examples {
		out.Examples = append(out.Examples, &complydv1.RuleComparisonExample{TransactionId: e.TransactionID, ExternalId: e.ExternalID,
			At: ts(e.At), Flagged: e.Matched, LiveOutcome: e.LiveOutcome, DraftOutcome: e.DraftOutcome, LiveCase: e.LiveCase, DraftCase: e.DraftCase})
	}
	return out
}

// answerDraft maps a draft with the tenant's controls (for fourEyesRequired).
func (h *RuleHandler) answerDraft(ctx context.Context, s RuleDraftStore, d rules.Draft) (*connect.Response[complydv1.RuleDraft], error) {
	c, err := s.RuleControls(ctx, d.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(draftToProto(d, c, h.now())), nil
}

// CreateRuleDraft implements RuleService.CreateRuleDraft.
func (h *RuleHandler) CreateRuleDraft(ctx context.Context, req *connect.Request[complydv1.CreateRuleDraftRequest]) (*connect.Response[complydv1.RuleDraft], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	if _, ok := rules.MandatoryRule(m.RuleId); ok {
		return nil, mandatoryConflict(m.RuleId)
	}
	now := h.now()
	d := rules.Draft{ID: screening.NewID("rdr_"), TenantID: p.TenantID, RuleID: m.RuleId, Status: rules.DraftOpen,
		CreatedBy: p.UserID, CreatedAt: now, UpdatedAt: now,
		Rule: rules.Rule{ID: m.RuleId, TenantID: p.TenantID, Name: m.Name, Description: m.GetDescription(), Expression: m.Expression,
			Score: int(m.Score), Outcome: rules.Outcome(m.Outcome), Enabled: m.Enabled == nil || *m.Enabled, CreatedBy: p.UserID}}
	if err := d.Rule.Validate(h.compiler); err != nil {
		return nil, err
	}
	if d, err = s.CreateDraft(ctx, d, callActor(ctx, p, req.Peer().Addr)); err != nil {
		return nil, err
	}
	return h.answerDraft(ctx, s, d)
}

// ListRuleDrafts implements RuleService.ListRuleDrafts.
func (h *RuleHandler) ListRuleDrafts(ctx context.Context, req *connect.Request[complydv1.ListRuleDraftsRequest]) (*connect.Response[complydv1.ListRuleDraftsResponse], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	ds, err := s.Drafts(ctx, p.TenantID, req.Msg.Status)
	if err != nil {
		return nil, err
	}
	c, err := s.RuleControls(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListRuleDraftsResponse{Items: make([]*complydv1.RuleDraft, 0, len(ds))}
	for _, d := range ds {
		out.Items = append(out.Items, draftToProto(d, c, h.now()))
	}
	return connect.NewResponse(out), nil
}

// GetRuleDraft implements RuleService.GetRuleDraft.
func (h *RuleHandler) GetRuleDraft(ctx context.Context, req *connect.Request[complydv1.GetRuleDraftRequest]) (*connect.Response[complydv1.RuleDraft], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	d, err := s.Draft(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return h.answerDraft(ctx, s, d)
}

// changeDraft runs fn on a draft under its lock, audited as action.
func (h *RuleHandler) changeDraft(ctx context.Context, peer, id, action string, fn func(*rules.Draft, rules.DraftEnv, time.Time) error) (*connect.Response[complydv1.RuleDraft], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	now := h.now()
	d, err := s.UpdateDraft(ctx, p.TenantID, id, action, func(d *rules.Draft, env rules.DraftEnv) error {
		if err := d.CanChange(); err != nil {
			return err
		}
		d.UpdatedAt = now
		return fn(d, env, now)
	}, callActor(ctx, p, peer))
	if err != nil {
		return nil, err
	}
	h.invalidate(p.TenantID)
	return h.answerDraft(ctx, s, d)
}

// DiscardRuleDraft implements RuleService.DiscardRuleDraft.
func (h *RuleHandler) DiscardRuleDraft(ctx context.Context, req *connect.Request[complydv1.DiscardRuleDraftRequest]) (*connect.Response[complydv1.RuleDraft], error) {
	return h.changeDraft(ctx, req.Peer().Addr, req.Msg.Id, "rule.draft_discarded", func(d *rules.Draft, _ rules.DraftEnv, now time.Time) error {
		d.Status = rules.DraftDiscarded
		if d.ShadowStartedAt != nil && d.ShadowStoppedAt == nil {
			d.ShadowStoppedAt = &now
		}
		return nil
	})
}

// StartRuleDraftShadow implements RuleService.StartRuleDraftShadow.
func (h *RuleHandler) StartRuleDraftShadow(ctx context.Context, req *connect.Request[complydv1.StartRuleDraftShadowRequest]) (*connect.Response[complydv1.RuleDraft], error) {
	var ends *time.Time
	if req.Msg.EndsAt != nil {
		t := req.Msg.EndsAt.AsTime()
		ends = &t
	}
	return h.changeDraft(ctx, req.Peer().Addr, req.Msg.Id, "rule.draft_shadow_started", func(d *rules.Draft, env rules.DraftEnv, now time.Time) error {
		if ends != nil && !ends.After(now) {
			return apperr.Invalid("endsAt", "must be in the future")
		}
		if d.Shadowing(now) {
			return apperr.Newf(apperr.Conflict, "draft %s already runs in shadow", d.ID)
		}
		if env.Shadowing >= rules.MaxShadows {
			return apperr.Newf(apperr.Conflict, "at most %d drafts run in shadow at once; stop one first", rules.MaxShadows)
		}
		d.ShadowStartedAt, d.ShadowEndsAt, d.ShadowStoppedAt = &now, ends, nil
		return nil
	})
}

// StopRuleDraftShadow implements RuleService.StopRuleDraftShadow.
func (h *RuleHandler) StopRuleDraftShadow(ctx context.Context, req *connect.Request[complydv1.StopRuleDraftShadowRequest]) (*connect.Response[complydv1.RuleDraft], error) {
	return h.changeDraft(ctx, req.Peer().Addr, req.Msg.Id, "rule.draft_shadow_stopped", func(d *rules.Draft, _ rules.DraftEnv, now time.Time) error {
		if !d.Shadowing(now) {
			return apperr.Newf(apperr.Conflict, "draft %s does not run in shadow", d.ID)
		}
		d.ShadowStoppedAt = &now
		return nil
	})
}

// PublishRuleDraft implements RuleService.PublishRuleDraft: maker-checker (docs/guide/rules.md).
func (h *RuleHandler) PublishRuleDraft(ctx context.Context, req *connect.Request[complydv1.PublishRuleDraftRequest]) (*connect.Response[complydv1.PublishRuleDraftResponse], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	now := h.now()
	reason := req.Msg.Reason
	d, r, err := s.PublishDraft(ctx, rules.Publication{Tenant: p.TenantID, DraftID: req.Msg.Id, At: now,
		Check: func(d *rules.Draft, c rules.Controls) error {
			if err := d.CanPublish(rules.PublishCheck{Publisher: p.UserID, Reason: reason, SinglePerson: c.SinglePerson}); err != nil {
				return err
			}
			d.PublishedBy, d.PublishReason = p.UserID, reason
			return nil
		},
		Build: func(d *rules.Draft, live *rules.Rule) (rules.Rule, error) {
			r := d.Rule
			if live == nil {
				r.ID, r.TenantID, r.CreatedBy, r.CreatedAt = screening.NewID("rule_"), p.TenantID, d.CreatedBy, now
			} else {
				r.ID, r.TenantID, r.CreatedBy, r.CreatedAt = live.ID, live.TenantID, live.CreatedBy, live.CreatedAt
			}
			r.UpdatedAt = now
			return r, r.Validate(h.compiler)
		}}, callActor(ctx, p, req.Peer().Addr))
	if err != nil {
		return nil, err
	}
	_, _ = h.cache.Program(r.Expression)
	h.invalidate(p.TenantID)
	c, err := s.RuleControls(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.PublishRuleDraftResponse{Draft: draftToProto(d, c, now), Rule: ruleToProto(r)}), nil
}

// GetRuleDraftShadowReport implements RuleService.GetRuleDraftShadowReport.
func (h *RuleHandler) GetRuleDraftShadowReport(ctx context.Context, req *connect.Request[complydv1.GetRuleDraftShadowReportRequest]) (*connect.Response[complydv1.RuleComparison], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	maxEx := 10
	if req.Msg.MaxExamples != nil {
		maxEx = int(*req.Msg.MaxExamples)
	}
	c, err := s.ShadowComparison(ctx, p.TenantID, req.Msg.Id, maxEx)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(comparisonToProto(c)), nil
}

// BacktestRuleDraft implements RuleService.BacktestRuleDraft.
func (h *RuleHandler) BacktestRuleDraft(ctx context.Context, req *connect.Request[complydv1.BacktestRuleDraftRequest]) (*connect.Response[complydv1.BacktestRuleDraftResponse], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	if h.backtests == nil {
		return nil, apperr.New(apperr.Internal, "backtests are not configured")
	}
	d, err := s.Draft(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	prg, err := h.cache.Program(d.Rule.Expression)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	maxEx := 10
	if m.MaxExamples != nil {
		maxEx = int(*m.MaxExamples)
	}
	res, err := screening.Backtest(ctx, h.backtests, screening.BacktestParams{
		Query:   screening.BacktestQuery{TenantID: p.TenantID, From: m.From.AsTime(), To: m.To.AsTime(), Limit: int(m.GetMaxTransactions())},
		Program: prg, MaxExamples: maxEx, DraftOutcome: d.Rule.Outcome,
	}, h.now)
	if err != nil {
		return nil, err
	}
	res.Comparison.Examples = append([]screening.ComparisonExample{}, res.Comparison.Examples...)
	return connect.NewResponse(&complydv1.BacktestRuleDraftResponse{Comparison: comparisonToProto(res.Comparison),
		Truncated: res.Truncated, ElapsedMs: int32(res.Elapsed.Milliseconds())}), nil
}

// GetRuleControls implements RuleService.GetRuleControls.
func (h *RuleHandler) GetRuleControls(ctx context.Context, _ *connect.Request[complydv1.GetRuleControlsRequest]) (*connect.Response[complydv1.RuleControls], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	c, err := s.RuleControls(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.RuleControls{SinglePerson: c.SinglePerson, DraftsRequired: c.DraftsRequired}), nil
}

// UpdateRuleControls implements RuleService.UpdateRuleControls.
func (h *RuleHandler) UpdateRuleControls(ctx context.Context, req *connect.Request[complydv1.UpdateRuleControlsRequest]) (*connect.Response[complydv1.RuleControls], error) {
	p, s, err := h.draftsOf(ctx)
	if err != nil {
		return nil, err
	}
	c, err := s.RuleControls(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	if req.Msg.SinglePerson != nil {
		c.SinglePerson = *req.Msg.SinglePerson
	}
	if req.Msg.DraftsRequired != nil {
		c.DraftsRequired = *req.Msg.DraftsRequired
	}
	if err := s.SetRuleControls(ctx, p.TenantID, c, callActor(ctx, p, req.Peer().Addr)); err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.RuleControls{SinglePerson: c.SinglePerson, DraftsRequired: c.DraftsRequired}), nil
}
