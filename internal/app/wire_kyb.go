package app

import (
	"fmt"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/restapi"
)

// wireKYB serves KybService and the KYB multipart upload route. It needs wireWallet and wireKYC
// first (the wallet, the identity provider chain and the document store are shared) and screens
// beneficial owners with the shared sanctions matcher (w.matcher).
func wireKYB(w *wiring) error {
	if w.wallet == nil || w.identityProviders == nil || w.blobs == nil {
		return fmt.Errorf("wireKYB needs the wallet, the identity providers and the blob store (wireWallet and wireKYC first)")
	}
	svc := kyb.NewService(kyb.Deps{Store: applicationstore.NewKYBStore(w.db), Deps: application.Deps{Wallet: w.wallet,
		Providers: w.identityProviders, Matcher: w.matcher, Blobs: w.blobs, Now: w.now, Logger: w.log}})
	p, h := complydv1connect.NewKybServiceHandler(connectapi.NewKYBHandler(svc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.KybServiceName, p, h)
	w.mux.Handle(restapi.KYBUploadPattern, restapi.KYBUpload(w.authn, svc, w.log))
	w.kyb = svc
	return nil
}
