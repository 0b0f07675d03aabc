package connectapi

import (
	"context"
	"log/slog"
	"time"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// RuleStore is what RuleHandler needs of the store (postgres.SettingsStore). Every change is
// audited and announced to every replica's settings cache.
type RuleStore interface {
	// Rules returns the tenant's custom rules, oldest first.
	Rules(ctx context.Context, tenant tenancy.TenantID) ([]rules.Rule, error)
	// Rule returns one custom rule. Errors: NOT_FOUND.
	Rule(ctx context.Context, tenant tenancy.TenantID, id string) (rules.Rule, error)
	// CreateRule stores a validated rule.
	CreateRule(ctx context.Context, r rules.Rule, actor audit.Actor) error
	// UpdateRule changes a rule through fn. Errors: NOT_FOUND; fn's errors.
	UpdateRule(ctx context.Context, tenant tenancy.TenantID, id string, fn func(*rules.Rule) error, actor audit.Actor) (rules.Rule, error)
	// DeleteRule deletes a rule. Errors: NOT_FOUND.
	DeleteRule(ctx context.Context, tenant tenancy.TenantID, id string, actor audit.Actor) (rules.Rule, error)
	// RuleVersions returns every version of a rule, newest first, also after its deletion.
	// Errors: NOT_FOUND.
	RuleVersions(ctx context.Context, tenant tenancy.TenantID, id string) ([]rules.Rule, error)
	// RuleVersion returns one version of a rule. Errors: NOT_FOUND.
	RuleVersion(ctx context.Context, tenant tenancy.TenantID, id string, version int) (rules.Rule, error)
}

// RuleHandler serves complyd.v1.RuleService (docs/design/design-choices.md §10): custom CEL rules, compiled at
// save (a rule that does not compile is never stored) and cached by expression; the mandatory
// AML rules are listed and immutable (409 CONFLICT).
type RuleHandler struct {
	store    RuleStore
	compiler *rules.Compiler
	cache    *rules.Cache
	now      func() time.Time
	log      *slog.Logger
	// invalidate drops the tenant's cached settings in this process at once (other replicas
	// learn it through LISTEN/NOTIFY).
	invalidate func(tenancy.TenantID)
	// backtests is the source of BacktestRule (rule_backtest.go).
	backtests screening.BacktestSource
	// drafts is the source of the draft RPCs (rule_draft_handler.go).
	drafts RuleDraftStore
}

// NewRuleHandler returns the handler.
func NewRuleHandler(store RuleStore, compiler *rules.Compiler, cache *rules.Cache, invalidate func(tenancy.TenantID),
	now func() time.Time, log *slog.Logger) *RuleHandler {
	return &RuleHandler{store: store, compiler: compiler, cache: cache, invalidate: invalidate, now: now, log: log}
}

func ruleToProto(r rules.Rule) *complydv1.Rule {
	return &complydv1.Rule{Id: r.ID, Name: r.Name, Description: nullString(r.Description), Expression: r.Expression,
		Score: int32(r.Score), Outcome: string(r.Outcome), Enabled: r.Enabled, Mandatory: r.Mandatory,
		Actions: nonNil(r.Actions), CreatedBy: r.CreatedBy, CreatedAt: ts(r.CreatedAt), UpdatedAt: ts(r.UpdatedAt),
		Version: int32(r.Version)}
}

func ruleVersionToProto(r rules.Rule) *complydv1.RuleVersion {
	return &complydv1.RuleVersion{RuleId: r.ID, Version: int32(r.Version), Name: r.Name,
		Description: nullString(r.Description), Expression: r.Expression, Score: int32(r.Score),
		Outcome: string(r.Outcome), Enabled: r.Enabled, CreatedBy: r.CreatedBy, CreatedAt: ts(r.CreatedAt)}
}

// ListRuleVersions implements RuleService.ListRuleVersions (docs/design/engines.md "Rule versions").
func (h *RuleHandler) ListRuleVersions(ctx context.Context, req *connect.Request[complydv1.ListRuleVersionsRequest]) (*connect.Response[complydv1.ListRuleVersionsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	vs, err := h.store.RuleVersions(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListRuleVersionsResponse{Items: make([]*complydv1.RuleVersion, 0, len(vs))}
	for _, v := range vs {
		out.Items = append(out.Items, ruleVersionToProto(v))
	}
	return connect.NewResponse(out), nil
}

// GetRuleVersion implements RuleService.GetRuleVersion.
func (h *RuleHandler) GetRuleVersion(ctx context.Context, req *connect.Request[complydv1.GetRuleVersionRequest]) (*connect.Response[complydv1.RuleVersion], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	v, err := h.store.RuleVersion(ctx, p.TenantID, req.Msg.Id, int(req.Msg.Version))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(ruleVersionToProto(v)), nil
}

func mandatoryConflict(id string) error {
	return apperr.Newf(apperr.Conflict, "rule %s is mandatory: it cannot be changed, disabled or deleted", id)
}

// CreateRule implements RuleService.CreateRule.
func (h *RuleHandler) CreateRule(ctx context.Context, req *connect.Request[complydv1.CreateRuleRequest]) (*connect.Response[complydv1.Rule], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	now := h.now()
	r := rules.Rule{ID: screening.NewID("rule_"), TenantID: p.TenantID, Name: m.Name, Description: m.GetDescription(),
		Expression: m.Expression, Score: int(m.Score), Outcome: rules.Outcome(m.Outcome), Enabled: m.Enabled == nil || *m.Enabled,
		CreatedBy: p.UserID, CreatedAt: now, UpdatedAt: now, Version: 1}
	if err := r.Validate(h.compiler); err != nil {
		return nil, err
	}
	if err := h.refuseDirect(ctx, p.TenantID); err != nil {
		return nil, err
	}
	if err := h.store.CreateRule(ctx, r, callActor(ctx, p, req.Peer().Addr)); err != nil {
		return nil, err
	}
	_, _ = h.cache.Program(r.Expression) // compiled once, here, not on the first screening
	h.invalidate(p.TenantID)
	return connect.NewResponse(ruleToProto(r)), nil
}

// ListRules implements RuleService.ListRules: the mandatory rules first, then the tenant's.
func (h *RuleHandler) ListRules(ctx context.Context, req *connect.Request[complydv1.ListRulesRequest]) (*connect.Response[complydv1.ListRulesResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, 20, 100)
	if err != nil {
		return nil, err
	}
	custom, err := h.store.Rules(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	all := append(rules.Mandatory(), custom...)
	res := paging.Result[rules.Rule]{Total: len(all), Page: pg.Page, Limit: pg.Limit}
	out := &complydv1.ListRulesResponse{Items: []*complydv1.Rule{}, Total: int32(len(all)), Page: int32(pg.Page),
		Limit: int32(pg.Limit), TotalPages: int32(res.TotalPages())}
	for i := pg.Offset(); i < len(all) && i < pg.Offset()+pg.Limit; i++ {
		out.Items = append(out.Items, ruleToProto(all[i]))
	}
	return connect.NewResponse(out), nil
}

// GetRule implements RuleService.GetRule.
func (h *RuleHandler) GetRule(ctx context.Context, req *connect.Request[complydv1.GetRuleRequest]) (*connect.Response[complydv1.Rule], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if r, ok := rules.MandatoryRule(req.Msg.Id); ok {
		return connect.NewResponse(ruleToProto(r)), nil
	}
	r, err := h.store.Rule(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(ruleToProto(r)), nil
}

// UpdateRule implements RuleService.UpdateRule.
func (h *RuleHandler) UpdateRule(ctx context.Context, req *connect.Request[complydv1.UpdateRuleRequest]) (*connect.Response[complydv1.Rule], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	if _, ok := rules.MandatoryRule(m.Id); ok {
		return nil, mandatoryConflict(m.Id)
	}
	if err := h.refuseDirect(ctx, p.TenantID); err != nil {
		return nil, err
	}
	r, err := h.store.UpdateRule(ctx, p.TenantID, m.Id, func(r *rules.Rule) error {
		if m.Name != nil {
			r.Name = *m.Name
		}
		if m.Description != nil {
			r.Description = *m.Description
		}
		if m.Expression != nil {
			r.Expression = *m.Expression
		}
		if m.Score != nil {
			r.Score = int(*m.Score)
		}
		if m.Outcome != nil {
			r.Outcome = rules.Outcome(*m.Outcome)
		}
		if m.Enabled != nil {
			r.Enabled = *m.Enabled
		}
		r.UpdatedAt = h.now()
		return r.Validate(h.compiler)
	}, callActor(ctx, p, req.Peer().Addr))
	if err != nil {
		return nil, err
	}
	_, _ = h.cache.Program(r.Expression)
	h.invalidate(p.TenantID)
	return connect.NewResponse(ruleToProto(r)), nil
}

// DeleteRule implements RuleService.DeleteRule.
func (h *RuleHandler) DeleteRule(ctx context.Context, req *connect.Request[complydv1.DeleteRuleRequest]) (*connect.Response[complydv1.Rule], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := rules.MandatoryRule(req.Msg.Id); ok {
		return nil, mandatoryConflict(req.Msg.Id)
	}
	if err := h.refuseDirect(ctx, p.TenantID); err != nil {
		return nil, err
	}
	r, err := h.store.DeleteRule(ctx, p.TenantID, req.Msg.Id, callActor(ctx, p, req.Peer().Addr))
	if err != nil {
		return nil, err
	}
	h.invalidate(p.TenantID)
	return connect.NewResponse(ruleToProto(r)), nil
}
