package app

import (
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/customers"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/network"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/customerstore"
	"github.com/complyd/complyd/internal/postgres/networkstore"
)

// wireNetwork serves NetworkService (issue 16 point 7). A finding opens its case through a
// cases.Service of its own over the same stores (the service holds no state).
func wireNetwork(w *wiring) error {
	caseSvc := cases.NewService(postgres.NewCaseStore(w.db), postgres.NewCaseUsers(w.db), w.now)
	svc := network.NewService(networkstore.NewNetworkStore(w.db), caseSvc, w.now).WithReads(networkstore.NewNetworkReadStore(w.db))
	p, h := complydv1connect.NewNetworkServiceHandler(connectapi.NewNetworkHandler(svc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.NetworkServiceName, p, h)
	return nil
}

// wireCustomers serves CustomerService (issue 16 point 5) and runs its two periodic jobs: the
// queued recomputations (every 30 s, jobs.CustomerRiskInterval) and the hourly
// due-review notices.
func wireCustomers(w *wiring) error {
	svc := customers.NewService(customerstore.NewCustomerStore(w.db), w.now)
	p, h := complydv1connect.NewCustomerServiceHandler(connectapi.NewCustomerHandler(svc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.CustomerServiceName, p, h)
	river.AddWorker(w.workers, &jobs.CustomerRiskWorker{Customers: svc})
	river.AddWorker(w.workers, &jobs.CustomerReviewDueWorker{Customers: svc})
	w.periodic = append(w.periodic, jobs.CustomerRiskJob(0), jobs.CustomerReviewDueJob(0))
	return nil
}
