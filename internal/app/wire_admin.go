package app

import (
	"context"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
)

// wireAdmin wires issue 17's administration services: AccountService (own password and MFA
// enrolment, a BANK_ADMIN's MFA reset of another user) and BrandingService.
func wireAdmin(w *wiring) error {
	accounts := postgres.NewAccountStore(w.db)
	me := func(ctx context.Context, p auth.Principal) (auth.User, tenancy.Tenant, error) {
		return accounts.GetProfile(ctx, p.TenantID, p.UserID)
	}
	p, h := complydv1connect.NewAccountServiceHandler(
		connectapi.NewAccountHandler(auth.NewAccount(accounts, w.now), me, w.log), w.handlerOpts...)
	w.addService(complydv1connect.AccountServiceName, p, h)
	p, h = complydv1connect.NewBrandingServiceHandler(
		connectapi.NewBrandingHandler(postgres.NewBrandingStore(w.db), w.log), w.handlerOpts...)
	w.addService(complydv1connect.BrandingServiceName, p, h)
	return nil
}
