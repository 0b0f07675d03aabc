package app

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/reporthttp"
	"github.com/complyd/complyd/internal/reports"
	"github.com/complyd/complyd/internal/restapi"
	"github.com/complyd/complyd/internal/xmllint"
)

// wireReports wires issue 14: ReportService, the HTTP filer (behind the outbound guard, private
// addresses allowed like webhooks by COMPLYD_WEBHOOK_ALLOW_PRIVATE) and the optional narrative
// assistant (COMPLYD_ASSIST_URL, COMPLYD_ASSIST_KEY, COMPLYD_ASSIST_MODEL, COMPLYD_ASSIST_TIMEOUT;
// docs/guide/reports.md "Narrative").
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
	schemas, err := goamlSchemas(w.cfg.GoamlSchema, w.cfg.GoamlSchemas)
	if err != nil {
		return err
	}
	switch v, err := xmllint.New(w.cfg.Xmllint, schemas); {
	case err == nil:
		svc.WithSchema(v)
		w.closers = append(w.closers, func() { _ = v.Close() })
	case len(schemas) > 1 || w.cfg.GoamlSchema != "":
		return fmt.Errorf("goAML schema: %w", err)
	default:
		// Without xmllint nothing is approved or filed (the API says why); the rest runs.
		w.log.Error("goAML schema validation is unavailable: reports cannot be approved or filed", "err", err)
	}
	p, h := complydv1connect.NewReportServiceHandler(connectapi.NewReportHandler(svc, filer.CheckURL, w.log).WithPeople(postgres.NewCaseStore(w.db)), w.handlerOpts...)
	w.addService(complydv1connect.ReportServiceName, p, h)
	w.mux.Handle(restapi.ReportExportPattern, restapi.ReportExport(w.authn, svc, store, w.log))
	river.AddWorker(w.workers, &jobs.ReportDeadlinesWorker{Store: store, NowFunc: w.now})
	w.periodic = append(w.periodic, jobs.ReportDeadlinesJob())
	// The monthly partitions of transactions and audit_events (migrations 0043, 0044).
	river.AddWorker(w.workers, &jobs.PartitionsWorker{Store: postgres.NewPartitionStore(w.db), NowFunc: w.now, Logger: w.log})
	w.periodic = append(w.periodic, jobs.PartitionsJob())
	return nil
}

// goamlSchemas reads the deployment's goAML schemas (docs/guide/reports.md "Validation"): def, the
// path of the FIU's XSD (COMPLYD_GOAML_SCHEMA; none: the embedded public 5.0.1 schema), and
// named, "name=path,name=path" (COMPLYD_GOAML_SCHEMAS), the schemas a tenant may choose by name
// in its report settings.
func goamlSchemas(def, named string) ([]xmllint.Schema, error) {
	out := []xmllint.Schema{{XSD: reports.PublicSchema}}
	if def != "" {
		b, err := os.ReadFile(def)
		if err != nil {
			return nil, fmt.Errorf("COMPLYD_GOAML_SCHEMA: %w", err)
		}
		out[0].XSD = b
	}
	for _, kv := range strings.Split(named, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		name, path, ok := strings.Cut(kv, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("COMPLYD_GOAML_SCHEMAS: %q is not name=path", kv)
		}
		b, err := os.ReadFile(strings.TrimSpace(path))
		if err != nil {
			return nil, fmt.Errorf("COMPLYD_GOAML_SCHEMAS %s: %w", name, err)
		}
		out = append(out, xmllint.Schema{Name: name, XSD: b})
	}
	return out, nil
}
