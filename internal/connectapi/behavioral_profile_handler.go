package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/screening"
)

// BehavioralProfileHandler serves complyd.v1.BehavioralProfileService.
type BehavioralProfileHandler struct {
	svc *screening.BaselineService
	log *slog.Logger
}

// NewBehavioralProfileHandler returns the handler.
func NewBehavioralProfileHandler(svc *screening.BaselineService, log *slog.Logger) *BehavioralProfileHandler {
	return &BehavioralProfileHandler{svc: svc, log: log}
}

// GetBehavioralProfile implements BehavioralProfileService.GetBehavioralProfile.
func (h *BehavioralProfileHandler) GetBehavioralProfile(ctx context.Context, req *connect.Request[complydv1.GetBehavioralProfileRequest]) (*connect.Response[complydv1.BehavioralProfile], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	b, err := h.svc.Get(ctx, p.TenantID, req.Msg.AccountNumber)
	if err != nil {
		return nil, err
	}
	hi, pr := b.History, b.Profile
	out := &complydv1.BehavioralProfile{AccountNumber: b.AccountNumber, AsOf: timestamppb.New(b.AsOf),
		WindowDays: int32(screening.BaselineWindow.Hours() / 24), KnownDevices: pr.KnownDevices,
		LastDeviceId: optStr(pr.LastDeviceID), LastIpAddress: optStr(pr.LastIPAddress),
		Count_60M: int32(hi.Count60m), Count_24H: int32(hi.Count24h), Sum_24HNgn: hi.Sum24hNGN.StringFixed(2),
		Amounts: &complydv1.AmountBaseline{Count: int32(hi.Amounts.Count), MeanNgn: hi.Amounts.Mean.StringFixed(2),
			StdDevNgn: hi.Amounts.StdDev.StringFixed(2)}}
	if out.KnownDevices == nil {
		out.KnownDevices = []string{}
	}
	if b.LastUpdatedAt != nil {
		out.LastUpdatedAt = timestamppb.New(*b.LastUpdatedAt)
	}
	if hi.LastActivityAt != nil {
		out.LastActivityAt = timestamppb.New(*hi.LastActivityAt)
	}
	if pr.LastLatitude != nil && pr.LastLongitude != nil && pr.LastLocationAt != nil {
		out.LastLocation = &complydv1.BehavioralLocation{Latitude: *pr.LastLatitude, Longitude: *pr.LastLongitude,
			SeenAt: timestamppb.New(*pr.LastLocationAt)}
	}
	return connect.NewResponse(out), nil
}
