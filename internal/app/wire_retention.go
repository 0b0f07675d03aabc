package app

import (
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
)

// wireRetention wires issue 54's maintenance of the time-partitioned tables: the periodic job
// that creates their monthly partitions ahead of the clock (docs/performance-at-scale.md).
func wireRetention(w *wiring) error {
	river.AddWorker(w.workers, &jobs.PartitionsWorker{Store: postgres.NewPartitionStore(w.db), NowFunc: w.now})
	w.periodic = append(w.periodic, jobs.PartitionsJob())
	return nil
}
