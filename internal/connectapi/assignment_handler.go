package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/review"
)

// AssignmentHandler serves complyd.v1.ApplicationAssignmentService.
type AssignmentHandler struct {
	svc *review.Service
	log *slog.Logger
}

// NewAssignmentHandler returns the handler.
func NewAssignmentHandler(svc *review.Service, log *slog.Logger) *AssignmentHandler {
	return &AssignmentHandler{svc: svc, log: log}
}

// AssignKycApplication implements ApplicationAssignmentService.AssignKycApplication.
func (h *AssignmentHandler) AssignKycApplication(ctx context.Context, req *connect.Request[complydv1.AssignKycApplicationRequest]) (*connect.Response[complydv1.KycApplication], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	a, err := h.svc.AssignKYC(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id, req.Msg.AssigneeId)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(KYCApplicationProto(a)), nil
}

// UnassignKycApplication implements ApplicationAssignmentService.UnassignKycApplication.
func (h *AssignmentHandler) UnassignKycApplication(ctx context.Context, req *connect.Request[complydv1.UnassignKycApplicationRequest]) (*connect.Response[complydv1.KycApplication], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	a, err := h.svc.UnassignKYC(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(KYCApplicationProto(a)), nil
}

// AssignKybApplication implements ApplicationAssignmentService.AssignKybApplication.
func (h *AssignmentHandler) AssignKybApplication(ctx context.Context, req *connect.Request[complydv1.AssignKybApplicationRequest]) (*connect.Response[complydv1.KybApplication], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	a, err := h.svc.AssignKYB(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id, req.Msg.AssigneeId)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(KYBApplicationProto(a)), nil
}

// UnassignKybApplication implements ApplicationAssignmentService.UnassignKybApplication.
func (h *AssignmentHandler) UnassignKybApplication(ctx context.Context, req *connect.Request[complydv1.UnassignKybApplicationRequest]) (*connect.Response[complydv1.KybApplication], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	a, err := h.svc.UnassignKYB(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(KYBApplicationProto(a)), nil
}
