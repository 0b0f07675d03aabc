package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/screening"
)

// EngineHandler serves complyd.v1.EngineService.
type EngineHandler struct {
	svc *screening.EngineService
	log *slog.Logger
}

// NewEngineHandler returns the handler.
func NewEngineHandler(svc *screening.EngineService, log *slog.Logger) *EngineHandler {
	return &EngineHandler{svc: svc, log: log}
}

func (h *EngineHandler) configProto(c *screening.EngineConfig) *complydv1.EngineConfiguration {
	out := &complydv1.EngineConfiguration{ConfigId: c.ID, Version: int32(c.Version), Reason: optStr(c.Reason), UpdatedBy: optStr(c.CreatedBy)}
	if !c.CreatedAt.IsZero() {
		out.UpdatedAt = timestamppb.New(c.CreatedAt)
	}
	for _, e := range screening.Engines() {
		out.Engines = append(out.Engines, &complydv1.Engine{Key: e.Key, Category: e.Category, Enabled: !c.IsDisabled(e.Category),
			Mandatory: e.Mandatory, Weight: c.Weight(e.Category), DefaultWeight: e.DefaultWeight, MinWeight: e.MinWeight,
			MaxWeight: e.MaxWeight, DeadlineMs: int32(h.svc.Deadline(e.Category).Milliseconds()), FailsOpen: screening.FailsOpen(e.Category)})
	}
	return out
}

// ListEngines implements EngineService.ListEngines.
func (h *EngineHandler) ListEngines(ctx context.Context, _ *connect.Request[complydv1.ListEnginesRequest]) (*connect.Response[complydv1.EngineConfiguration], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	c, err := h.svc.Current(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(h.configProto(c)), nil
}

// UpdateEngine implements EngineService.UpdateEngine.
func (h *EngineHandler) UpdateEngine(ctx context.Context, req *connect.Request[complydv1.UpdateEngineRequest]) (*connect.Response[complydv1.EngineConfiguration], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	c, err := h.svc.Update(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), screening.EngineChange{Key: req.Msg.Key,
		Enabled: req.Msg.Enabled, Weight: req.Msg.Weight, Reason: req.Msg.Reason})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(h.configProto(c)), nil
}
