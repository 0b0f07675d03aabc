package app

import (
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/dashboard"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres/dashboardstore"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/restapi"
)

// wireDashboard wires issue 17: DashboardService (the Overview's aggregates) and the streamed
// CSV exports of the transactions, cases and audit lists.
func wireDashboard(w *wiring) error {
	svc := dashboard.NewService(dashboardstore.NewDashboardStore(w.db), w.now)
	p, h := complydv1connect.NewDashboardServiceHandler(connectapi.NewDashboardHandler(svc, w.log).WithFreshness(freshness(w.db), w.now), w.handlerOpts...)
	w.addService(complydv1connect.DashboardServiceName, p, h)

	exports := screenstore.NewExportStore(w.db)
	w.mux.Handle(restapi.TransactionsExportPattern, restapi.TransactionsExport(w.authn, exports, screenstore.TransactionHeader, w.now, w.log))
	w.mux.Handle(restapi.CasesExportPattern, restapi.CasesExport(w.authn, exports, screenstore.CaseHeader, w.now, w.log))
	w.mux.Handle(restapi.AuditExportPattern, restapi.AuditExport(w.authn, exports, screenstore.AuditHeader, w.now, w.log))
	return nil
}
