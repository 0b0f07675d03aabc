package connectapi

import (
	"context"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/screening"
)

// WithBacktests gives the handler the source of stored transactions BacktestRule scans
// (postgres.BacktestStore); without it BacktestRule is INTERNAL.
func (h *RuleHandler) WithBacktests(src screening.BacktestSource) *RuleHandler {
	h.backtests = src
	return h
}

// ValidateRuleExpression implements RuleService.ValidateRuleExpression: a compile error is an
// answer here (valid false, the compiler's message), not a failed call, since a draft being
// typed is expected not to compile yet.
func (h *RuleHandler) ValidateRuleExpression(ctx context.Context, req *connect.Request[complydv1.ValidateRuleExpressionRequest]) (*connect.Response[complydv1.ValidateRuleExpressionResponse], error) {
	if _, err := principalOf(ctx); err != nil {
		return nil, err
	}
	_, err := h.compiler.Compile(req.Msg.Expression)
	if err == nil {
		return connect.NewResponse(&complydv1.ValidateRuleExpressionResponse{Valid: true}), nil
	}
	e, ok := apperr.As(err)
	if !ok {
		return nil, err
	}
	msg := e.Message
	if len(e.Details) > 0 {
		msg = e.Details[0].Message
	}
	return connect.NewResponse(&complydv1.ValidateRuleExpressionResponse{Valid: false, Message: msg}), nil
}

// BacktestRule implements RuleService.BacktestRule.
func (h *RuleHandler) BacktestRule(ctx context.Context, req *connect.Request[complydv1.BacktestRuleRequest]) (*connect.Response[complydv1.BacktestRuleResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if h.backtests == nil {
		return nil, apperr.New(apperr.Internal, "backtests are not configured")
	}
	m := req.Msg
	prg, err := h.cache.Program(m.Expression)
	if err != nil {
		return nil, err
	}
	maxEx := 10
	if m.MaxExamples != nil {
		maxEx = int(*m.MaxExamples)
	}
	res, err := screening.Backtest(ctx, h.backtests, screening.BacktestParams{
		Query:   screening.BacktestQuery{TenantID: p.TenantID, From: m.From.AsTime(), To: m.To.AsTime(), Limit: int(m.GetMaxTransactions())},
		Program: prg, MaxExamples: maxEx,
	}, h.now)
	if err != nil {
		return nil, err
	}
	out := &complydv1.BacktestRuleResponse{Scanned: int32(res.Scanned), Matched: int32(res.Matched), Errors: int32(res.Errors),
		Truncated: res.Truncated, ElapsedMs: int32(res.Elapsed.Milliseconds()), OldestScanned: tsPtr(res.Oldest),
		Examples: make([]*complydv1.BacktestExample, 0, len(res.Examples))}
	for _, e := range res.Examples {
		out.Examples = append(out.Examples, &complydv1.BacktestExample{TransactionId: e.TransactionID, ExternalId: e.ExternalID,
			Amount: e.Amount.StringFixed(2), Currency: e.Currency, SenderName: e.SenderName, Outcome: e.Outcome, Timestamp: ts(e.Timestamp)})
	}
	return connect.NewResponse(out), nil
}
