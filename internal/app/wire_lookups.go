package app

import (
	"fmt"

	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/lookup"
	"github.com/complyd/complyd/internal/postgres"
)

// wireLookups serves LookupService (direct lookups, history, customer profiles). It needs
// wireWallet, wireKYC and wireKYB first.
func wireLookups(w *wiring) error {
	if w.wallet == nil || w.identityProviders == nil || w.kyc == nil || w.kyb == nil {
		return fmt.Errorf("wireLookups needs the wallet, the identity providers, KYC and KYB (wire them first)")
	}
	svc := lookup.NewService(lookup.Deps{Store: postgres.NewLookupStore(w.db), Wallet: w.wallet, Providers: w.identityProviders,
		KYC: w.kyc, KYB: w.kyb, Now: w.now})
	p, h := complydv1connect.NewLookupServiceHandler(connectapi.NewLookupHandler(svc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.LookupServiceName, p, h)
	return nil
}
