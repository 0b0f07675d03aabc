package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/screening"
)

// CountryHandler serves complyd.v1.CountryService.
type CountryHandler struct {
	svc *screening.CountryService
	log *slog.Logger
}

// NewCountryHandler returns the handler.
func NewCountryHandler(svc *screening.CountryService, log *slog.Logger) *CountryHandler {
	return &CountryHandler{svc: svc, log: log}
}

func countryProto(c screening.Country) *complydv1.CountryRisk {
	out := &complydv1.CountryRisk{Country: c.Country, Level: c.Level, DefaultLevel: optStr(c.Default),
		DefaultSource: optStr(c.DefaultSource), OverrideLevel: optStr(c.Override), OverrideReason: optStr(c.Reason),
		OverrideUpdatedBy: optStr(c.UpdatedBy)}
	if c.PublishedOn != nil {
		out.DefaultPublishedOn = timestamppb.New(*c.PublishedOn)
	}
	if c.UpdatedAt != nil {
		out.OverrideUpdatedAt = timestamppb.New(*c.UpdatedAt)
	}
	return out
}

// ListCountries implements CountryService.ListCountries.
func (h *CountryHandler) ListCountries(ctx context.Context, _ *connect.Request[complydv1.ListCountriesRequest]) (*connect.Response[complydv1.ListCountriesResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	cs, err := h.svc.List(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListCountriesResponse{Countries: make([]*complydv1.CountryRisk, 0, len(cs))}
	for _, c := range cs {
		out.Countries = append(out.Countries, countryProto(c))
	}
	return connect.NewResponse(out), nil
}

// SetCountryOverride implements CountryService.SetCountryOverride.
func (h *CountryHandler) SetCountryOverride(ctx context.Context, req *connect.Request[complydv1.SetCountryOverrideRequest]) (*connect.Response[complydv1.CountryRisk], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	c, err := h.svc.Set(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Country, req.Msg.Level, req.Msg.Reason)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(countryProto(c)), nil
}

// DeleteCountryOverride implements CountryService.DeleteCountryOverride.
func (h *CountryHandler) DeleteCountryOverride(ctx context.Context, req *connect.Request[complydv1.DeleteCountryOverrideRequest]) (*connect.Response[complydv1.CountryRisk], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	c, err := h.svc.Reset(ctx, p.TenantID, callActor(ctx, p, req.Peer().Addr), req.Msg.Country)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(countryProto(c)), nil
}
