package app

import (
	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/network"
	"github.com/complyd/complyd/internal/postgres"
)

// wireNetwork serves NetworkService (issue 16 point 7). A finding opens its case through a
// cases.Service of its own over the same stores (the service holds no state).
func wireNetwork(w *wiring) error {
	caseSvc := cases.NewService(postgres.NewCaseStore(w.db), postgres.NewCaseUsers(w.db), w.now)
	svc := network.NewService(postgres.NewNetworkStore(w.db), caseSvc, w.now)
	p, h := complydv1connect.NewNetworkServiceHandler(connectapi.NewNetworkHandler(svc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.NetworkServiceName, p, h)
	return nil
}
