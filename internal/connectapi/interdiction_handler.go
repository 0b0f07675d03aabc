package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/cases"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
)

// InterdictionHandler serves complyd.v1.InterdictionService: the queue across cases and the
// four-eyes lift (docs/guide/interdictions.md).
type InterdictionHandler struct {
	svc   *cases.Service
	queue cases.InterdictionQueue
	// people names the officers on each interdiction (one query per answer).
	people PeopleLookup
	log    *slog.Logger
}

// NewInterdictionHandler returns the handler.
func NewInterdictionHandler(svc *cases.Service, queue cases.InterdictionQueue, people PeopleLookup, log *slog.Logger) *InterdictionHandler {
	return &InterdictionHandler{svc: svc, queue: queue, people: people, log: log}
}

// ListInterdictionQueue implements InterdictionService.ListInterdictionQueue.
func (h *InterdictionHandler) ListInterdictionQueue(ctx context.Context, req *connect.Request[complydv1.ListInterdictionQueueRequest]) (*connect.Response[complydv1.ListInterdictionQueueResponse], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	m := req.Msg
	p, err := paging.New(m.Page, m.Limit, cases.InterdictionPageDefault, cases.InterdictionPageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.queue.ListInterdictions(ctx, c.TenantID, cases.InterdictionFilter{Status: m.GetStatus(), Action: m.GetAction(),
		AccountNumber: m.GetAccountNumber(), CaseID: m.GetCaseId(), InForce: m.GetInForce()}, p)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListInterdictionQueueResponse{Items: make([]*complydv1.Interdiction, 0, len(res.Items)),
		Total: int32(res.Total), Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for i := range res.Items {
		out.Items = append(out.Items, interdictionToProto(&res.Items[i]))
	}
	if err := nameInterdictions(ctx, h.people, c.TenantID, out.Items); err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

// GetInterdiction implements InterdictionService.GetInterdiction.
func (h *InterdictionHandler) GetInterdiction(ctx context.Context, req *connect.Request[complydv1.GetInterdictionRequest]) (*connect.Response[complydv1.Interdiction], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	in, err := h.queue.QueuedInterdiction(ctx, c.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return h.named(ctx, c, in)
}

// RequestInterdictionLift implements InterdictionService.RequestInterdictionLift.
func (h *InterdictionHandler) RequestInterdictionLift(ctx context.Context, req *connect.Request[complydv1.RequestInterdictionLiftRequest]) (*connect.Response[complydv1.Interdiction], error) {
	return h.change(ctx, func(c audit.Caller) (*cases.Interdiction, error) {
		return h.svc.LiftInterdiction(ctx, c, req.Msg.Id, req.Msg.Reason)
	})
}

// ApproveInterdictionLift implements InterdictionService.ApproveInterdictionLift.
func (h *InterdictionHandler) ApproveInterdictionLift(ctx context.Context, req *connect.Request[complydv1.ApproveInterdictionLiftRequest]) (*connect.Response[complydv1.Interdiction], error) {
	return h.change(ctx, func(c audit.Caller) (*cases.Interdiction, error) {
		return h.svc.ApproveInterdictionLift(ctx, c, req.Msg.Id, req.Msg.GetNote())
	})
}

// RejectInterdictionLift implements InterdictionService.RejectInterdictionLift.
func (h *InterdictionHandler) RejectInterdictionLift(ctx context.Context, req *connect.Request[complydv1.RejectInterdictionLiftRequest]) (*connect.Response[complydv1.Interdiction], error) {
	return h.change(ctx, func(c audit.Caller) (*cases.Interdiction, error) {
		return h.svc.RejectInterdictionLift(ctx, c, req.Msg.Id, req.Msg.Reason)
	})
}

func (h *InterdictionHandler) change(ctx context.Context, op func(audit.Caller) (*cases.Interdiction, error)) (*connect.Response[complydv1.Interdiction], error) {
	c, err := caseCaller(ctx)
	if err != nil {
		return nil, err
	}
	in, err := op(c)
	if err != nil {
		return nil, err
	}
	return h.named(ctx, c, in)
}

// named renders one interdiction with its officers' names.
func (h *InterdictionHandler) named(ctx context.Context, c audit.Caller, in *cases.Interdiction) (*connect.Response[complydv1.Interdiction], error) {
	out := interdictionToProto(in)
	if err := nameInterdictions(ctx, h.people, c.TenantID, []*complydv1.Interdiction{out}); err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}
