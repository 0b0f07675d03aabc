package app

import (
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/customers"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/caseviewstore"
	"github.com/complyd/complyd/internal/postgres/customerstore"
	"github.com/complyd/complyd/internal/postgres/webhookstore"
	"github.com/complyd/complyd/internal/webhook"
	"github.com/complyd/complyd/internal/webhookhttp"
)

// wireCases wires issue 5: CaseService, WebhookService, NotificationService, the webhook
// delivery worker and the hourly purge of dead letters.
func wireCases(w *wiring) error {
	caseStore := postgres.NewCaseStore(w.db)
	caseSvc := cases.NewService(caseStore, postgres.NewCaseUsers(w.db), w.now)
	caseSvc.OnInterdictionChange = w.interdictions.Invalidate
	caseHandler := connectapi.NewCaseHandler(caseSvc, caseStore, w.log)
	p, h := complydv1connect.NewCaseServiceHandler(caseHandler, w.handlerOpts...)
	w.addService(complydv1connect.CaseServiceName, p, h)

	// The case workspace (issue 50): the case page in one call, inboxes, saved views, bulk moves.
	inboxes := cases.NewInboxService(caseviewstore.NewCaseInboxStore(w.db), w.now)
	customerSvc := customers.NewService(customerstore.NewCustomerStore(w.db), w.now)
	p, h = complydv1connect.NewCaseWorkspaceServiceHandler(connectapi.NewCaseWorkspaceHandler(caseHandler, inboxes,
		caseviewstore.NewCaseEvidenceStore(w.db), customerSvc, w.now, w.log), w.handlerOpts...)
	w.addService(complydv1connect.CaseWorkspaceServiceName, p, h)

	hooks := webhookstore.NewWebhookStore(w.db)
	hookSvc := webhook.NewService(hooks, w.cfg.WebhookAllowPrivate, w.now)
	p, h = complydv1connect.NewWebhookServiceHandler(connectapi.NewWebhookHandler(hookSvc, w.log).WithAttempts(hooks), w.handlerOpts...)
	w.addService(complydv1connect.WebhookServiceName, p, h)

	p, h = complydv1connect.NewNotificationServiceHandler(
		connectapi.NewNotificationHandler(postgres.NewNotificationStore(w.db), w.log), w.handlerOpts...)
	w.addService(complydv1connect.NotificationServiceName, p, h)

	sender := webhookhttp.NewSender(webhookhttp.Options{AllowPrivate: w.cfg.WebhookAllowPrivate, Timeout: webhookhttp.DefaultTimeout})
	river.AddWorker(w.workers, &jobs.DeliverWebhookWorker{Outbox: hooks, Sender: sender, NowFunc: w.now, BackoffFunc: w.webhookBackoff})
	river.AddWorker(w.workers, &jobs.PurgeDeadWebhooksWorker{Outbox: hooks, NowFunc: w.now})
	w.periodic = append(w.periodic, jobs.PurgeDeadWebhooksJob())
	return nil
}
