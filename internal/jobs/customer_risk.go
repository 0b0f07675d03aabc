package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// CustomerSweeper is the customers service's background work (customers.Service).
type CustomerSweeper interface {
	Sweep(ctx context.Context) (int, error)
	NotifyDue(ctx context.Context) (int, error)
}

// CustomerRiskArgs is the periodic job that rates the customers migration 0017's triggers
// queued (a KYC/KYB decision, a case opened or moved, a screening alert) and the profiles never
// rated (docs/guide/customers.md "When a rating is recomputed").
type CustomerRiskArgs struct{}

// Kind names the job.
func (CustomerRiskArgs) Kind() string { return "customer_risk_sweep" }

// CustomerRiskWorker runs CustomerRiskArgs.
type CustomerRiskWorker struct {
	river.WorkerDefaults[CustomerRiskArgs]
	Customers CustomerSweeper
}

// Work rates every pending customer.
func (w *CustomerRiskWorker) Work(ctx context.Context, _ *river.Job[CustomerRiskArgs]) error {
	_, err := w.Customers.Sweep(ctx)
	return err
}

// CustomerRiskInterval is how often queued recomputations run: a rating lags its inputs by at
// most this (plus the sweep's own time).
const CustomerRiskInterval = 30 * time.Second

// CustomerRiskJob is the periodic job of CustomerRiskWorker, also run at start.
func CustomerRiskJob(every time.Duration) *river.PeriodicJob {
	if every <= 0 {
		every = CustomerRiskInterval
	}
	return river.NewPeriodicJob(river.PeriodicInterval(every), func() (river.JobArgs, *river.InsertOpts) {
		return CustomerRiskArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: every}}
	}, &river.PeriodicJobOpts{RunOnStart: true})
}

// CustomerReviewDueArgs is the hourly job that notifies the customers' due periodic reviews.
type CustomerReviewDueArgs struct{}

// Kind names the job.
func (CustomerReviewDueArgs) Kind() string { return "customer_review_due" }

// CustomerReviewDueWorker runs CustomerReviewDueArgs.
type CustomerReviewDueWorker struct {
	river.WorkerDefaults[CustomerReviewDueArgs]
	Customers CustomerSweeper
}

// Work sends the due notices of every tenant (once per customer and due date).
func (w *CustomerReviewDueWorker) Work(ctx context.Context, _ *river.Job[CustomerReviewDueArgs]) error {
	_, err := w.Customers.NotifyDue(ctx)
	return err
}

// CustomerReviewDueJob is the periodic job of CustomerReviewDueWorker, also run at start.
func CustomerReviewDueJob(every time.Duration) *river.PeriodicJob {
	if every <= 0 {
		every = time.Hour
	}
	return river.NewPeriodicJob(river.PeriodicInterval(every), func() (river.JobArgs, *river.InsertOpts) {
		return CustomerReviewDueArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
