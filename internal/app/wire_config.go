package app

import (
	"fmt"

	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/review"
	"github.com/complyd/complyd/internal/screening"
)

// wireConfig serves issue 16's configuration and review surfaces: KYC tier requirements,
// assignment of KYC and KYB applications, behavioral profiles, the country risk lists and the engine configuration. It needs wireKYC, wireKYB and wireScreening.
func wireConfig(w *wiring) error {
	if w.kyc == nil || w.kyb == nil || w.invalidateSettings == nil {
		return fmt.Errorf("wireConfig needs KYC, KYB and screening (wireKYC, wireKYB, wireScreening first)")
	}
	p, h := complydv1connect.NewKycTierServiceHandler(connectapi.NewKYCTierHandler(w.kyc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.KycTierServiceName, p, h)

	rs := review.NewService(postgres.NewAuthStore(w.db), w.kyc, w.kyb)
	p, h = complydv1connect.NewApplicationAssignmentServiceHandler(connectapi.NewAssignmentHandler(rs, w.log), w.handlerOpts...)
	w.addService(complydv1connect.ApplicationAssignmentServiceName, p, h)

	bs := screening.NewBaselineService(screenstore.NewBehavioralProfileStore(w.db), w.now)
	p, h = complydv1connect.NewBehavioralProfileServiceHandler(connectapi.NewBehavioralProfileHandler(bs, w.log), w.handlerOpts...)
	w.addService(complydv1connect.BehavioralProfileServiceName, p, h)

	cs := screening.NewCountryService(postgres.NewCountryStore(w.db), w.invalidateSettings)
	p, h = complydv1connect.NewCountryServiceHandler(connectapi.NewCountryHandler(cs, w.log), w.handlerOpts...)
	w.addService(complydv1connect.CountryServiceName, p, h)

	es := screening.NewEngineService(postgres.NewEngineConfigStore(w.db), w.pipeline, w.invalidateSettings)
	p, h = complydv1connect.NewEngineServiceHandler(connectapi.NewEngineHandler(es, w.log), w.handlerOpts...)
	w.addService(complydv1connect.EngineServiceName, p, h)
	return nil
}
