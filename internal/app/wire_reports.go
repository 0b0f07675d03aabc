package app

import (
	"os"
	"time"

	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/reporthttp"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/restapi"
)

// wireReports wires issue 14: ReportService, the HTTP filer (behind the outbound guard, private
// addresses allowed like webhooks by COMPLYD_WEBHOOK_ALLOW_PRIVATE) and the optional narrative
// assistant (COMPLYD_ASSIST_URL, COMPLYD_ASSIST_KEY, COMPLYD_ASSIST_MODEL, COMPLYD_ASSIST_TIMEOUT;
// docs/reports.md "Narrative").
func wireReports(w *wiring) error {
	filer := reporthttp.NewFiler(w.cfg.WebhookAllowPrivate, 30*time.Second)
	var assistant reports.Assistant
	if a := reporthttp.NewAssistant(os.Getenv("COMPLYD_ASSIST_URL"), os.Getenv("COMPLYD_ASSIST_KEY"), os.Getenv("COMPLYD_ASSIST_MODEL")); a != nil {
		assistant = a
	}
	store := postgres.NewReportStore(w.db)
	svc := reports.NewService(store, filer, assistant, w.now)
	if d, err := time.ParseDuration(os.Getenv("COMPLYD_ASSIST_TIMEOUT")); err == nil && d > 0 {
		svc.WithAssistTimeout(d)
	}
	p, h := complydv1connect.NewReportServiceHandler(connectapi.NewReportHandler(svc, filer.CheckURL, w.log), w.handlerOpts...)
	w.addService(complydv1connect.ReportServiceName, p, h)
	w.mux.Handle(restapi.ReportExportPattern, restapi.ReportExport(w.authn, svc, store, w.log))
	river.AddWorker(w.workers, &jobs.ReportDeadlinesWorker{Store: store, NowFunc: w.now})
	w.periodic = append(w.periodic, jobs.ReportDeadlinesJob())
	return nil
}
