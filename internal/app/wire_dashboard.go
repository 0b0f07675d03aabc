package app

import (
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/dashboard"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres"
)

// wireDashboard wires issue 17: DashboardService (the Overview's aggregates) and the streamed
// CSV exports of the transactions, cases and audit lists.
func wireDashboard(w *wiring) error {
	svc := dashboard.NewService(postgres.NewDashboardStore(w.db), w.now)
	p, h := complydv1connect.NewDashboardServiceHandler(connectapi.NewDashboardHandler(svc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.DashboardServiceName, p, h)
	return nil
}
