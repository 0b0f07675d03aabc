package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/complyd/complyd/internal/archive"
	"github.com/complyd/complyd/internal/audit"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// RetentionSetter sets a tenant's retention period (postgres.ArchiveStore).
type RetentionSetter interface {
	SetRetentionYears(ctx context.Context, tenantID tenancy.TenantID, years int, ev audit.Event) error
}

// ArchiveHandler serves complyd.v1.ArchiveService and complyd.v1.LegalHoldService.
type ArchiveHandler struct {
	svc       *archive.Service
	retention RetentionSetter
	log       *slog.Logger
}

// NewArchiveHandler returns the handler.
func NewArchiveHandler(svc *archive.Service, retention RetentionSetter, log *slog.Logger) *ArchiveHandler {
	return &ArchiveHandler{svc: svc, retention: retention, log: log}
}

func archiveProto(a archive.Archive) *complydv1.ArchiveInfo {
	out := &complydv1.ArchiveInfo{Id: a.ID, Table: a.Table, Month: a.Month.Format("2006-01"), State: a.State, Rows: a.Rows,
		HeldRows: a.HeldRows, Bytes: a.Bytes, Sha256: a.SHA256, Prefix: a.Prefix, DataKey: a.DataKey, ManifestKey: a.ManifestKey,
		Failure: optStr(a.Failure), CreatedAt: timestamppb.New(a.CreatedAt), RestoredRows: a.RestoredRows}
	if a.VerifiedAt != nil {
		out.VerifiedAt = timestamppb.New(*a.VerifiedAt)
	}
	if a.DroppedAt != nil {
		out.DroppedAt = timestamppb.New(*a.DroppedAt)
	}
	if a.RestoredAt != nil {
		out.RestoredAt = timestamppb.New(*a.RestoredAt)
	}
	return out
}

func holdProto(h archive.Hold) *complydv1.LegalHold {
	out := &complydv1.LegalHold{Id: h.ID, SubjectType: h.SubjectType, SubjectId: h.SubjectID, Reason: h.Reason,
		PlacedBy: h.PlacedBy, PlacedAt: timestamppb.New(h.PlacedAt), Active: h.Active(), LiftedBy: optStr(h.LiftedBy),
		LiftReason: optStr(h.LiftReason)}
	if h.LiftedAt != nil {
		out.LiftedAt = timestamppb.New(*h.LiftedAt)
	}
	return out
}

func (h *ArchiveHandler) retentionOf(ctx context.Context, tenantID tenancy.TenantID) (*complydv1.Retention, error) {
	cutoff, err := h.svc.Cutoff(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	years, err := h.svc.RetentionYears(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	return &complydv1.Retention{RetentionYears: int32(years), MinimumYears: archive.MinRetentionYears, Cutoff: timestamppb.New(cutoff)}, nil
}

// GetRetention implements ArchiveService.GetRetention.
func (h *ArchiveHandler) GetRetention(ctx context.Context, _ *connect.Request[complydv1.GetRetentionRequest]) (*connect.Response[complydv1.Retention], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	out, err := h.retentionOf(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

// UpdateRetention implements ArchiveService.UpdateRetention.
func (h *ArchiveHandler) UpdateRetention(ctx context.Context, req *connect.Request[complydv1.UpdateRetentionRequest]) (*connect.Response[complydv1.Retention], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	before, err := h.svc.RetentionYears(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	years := int(req.Msg.RetentionYears)
	ev := audit.Event{TenantID: p.TenantID, Actor: callActor(ctx, p, req.Peer().Addr), Action: "tenant.retention_updated",
		ResourceType: "tenant", ResourceID: string(p.TenantID),
		Before: map[string]any{"retentionYears": before}, After: map[string]any{"retentionYears": years}}
	if err := h.retention.SetRetentionYears(ctx, p.TenantID, years, ev); err != nil {
		return nil, err
	}
	out, err := h.retentionOf(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(out), nil
}

// ListArchives implements ArchiveService.ListArchives.
func (h *ArchiveHandler) ListArchives(ctx context.Context, req *connect.Request[complydv1.ListArchivesRequest]) (*connect.Response[complydv1.ListArchivesResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, 20, 100)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.List(ctx, p.TenantID, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListArchivesResponse{Items: make([]*complydv1.ArchiveInfo, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, a := range res.Items {
		out.Items = append(out.Items, archiveProto(a))
	}
	return connect.NewResponse(out), nil
}

// GetArchive implements ArchiveService.GetArchive.
func (h *ArchiveHandler) GetArchive(ctx context.Context, req *connect.Request[complydv1.GetArchiveRequest]) (*connect.Response[complydv1.ArchiveInfo], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	a, err := h.svc.Get(ctx, p.TenantID, req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(archiveProto(a)), nil
}

// RestoreArchive implements ArchiveService.RestoreArchive.
func (h *ArchiveHandler) RestoreArchive(ctx context.Context, req *connect.Request[complydv1.RestoreArchiveRequest]) (*connect.Response[complydv1.ArchiveInfo], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	a, err := h.svc.Restore(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(archiveProto(a)), nil
}

// ListArchiveRows implements ArchiveService.ListArchiveRows.
func (h *ArchiveHandler) ListArchiveRows(ctx context.Context, req *connect.Request[complydv1.ListArchiveRowsRequest]) (*connect.Response[complydv1.ListArchiveRowsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, 100, 1000)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.RestoredRows(ctx, p.TenantID, req.Msg.Id, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListArchiveRowsResponse{Rows: make([]string, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, r := range res.Items {
		out.Rows = append(out.Rows, string(r))
	}
	return connect.NewResponse(out), nil
}

// ListLegalHolds implements LegalHoldService.ListLegalHolds.
func (h *ArchiveHandler) ListLegalHolds(ctx context.Context, req *connect.Request[complydv1.ListLegalHoldsRequest]) (*connect.Response[complydv1.ListLegalHoldsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, 20, 100)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.ListHolds(ctx, p.TenantID, req.Msg.ActiveOnly, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListLegalHoldsResponse{Items: make([]*complydv1.LegalHold, 0, len(res.Items)), Total: int32(res.Total),
		Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, x := range res.Items {
		out.Items = append(out.Items, holdProto(x))
	}
	return connect.NewResponse(out), nil
}

// PlaceLegalHold implements LegalHoldService.PlaceLegalHold.
func (h *ArchiveHandler) PlaceLegalHold(ctx context.Context, req *connect.Request[complydv1.PlaceLegalHoldRequest]) (*connect.Response[complydv1.LegalHold], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	x, err := h.svc.PlaceHold(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.SubjectType, req.Msg.SubjectId, req.Msg.Reason)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(holdProto(x)), nil
}

// LiftLegalHold implements LegalHoldService.LiftLegalHold.
func (h *ArchiveHandler) LiftLegalHold(ctx context.Context, req *connect.Request[complydv1.LiftLegalHoldRequest]) (*connect.Response[complydv1.LegalHold], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	x, err := h.svc.LiftHold(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Id, req.Msg.GetReason())
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(holdProto(x)), nil
}
