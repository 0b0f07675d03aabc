package screenstore

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/postgres"
)

// The constructor sits in a file of its own, above the files of the store's methods it wires
// (screening_store.go, screening_commit.go): they use the store, it uses them.

// NewScreeningStore returns the store and starts its committers; Close stops them.
func NewScreeningStore(db *postgres.DB, o ScreeningStoreOptions) *ScreeningStore {
	if o.MaxBatch <= 0 {
		o.MaxBatch = 256
	}
	if o.Readers <= 0 {
		o.Readers = 1
	}
	if o.MaxQueue <= 0 {
		o.MaxQueue = admission.DefaultMaxQueue
	}
	s := &ScreeningStore{db: db, young: newYoungTable(db), now: o.Now}
	if s.now == nil {
		s.now = time.Now
	}
	m := newBatchMetrics(o.Metrics)
	s.gc = newGroupCommitter(o, db, m, func(ctx context.Context, conn *tenantConn, batch []*saveReq) error {
		err := s.commit(ctx, conn, batch)
		if err == nil {
			s.young.added(len(batch))
		}
		return err
	})
	s.pf = newBatcher(o.Readers, o.MaxBatch, o.MaxQueue, o.ReadLinger, m.observer("read"), func() (func([]*prefetchReq), func()) {
		conn := &tenantConn{pool: db.Pool, setup: readerPlanSettings}
		return func(batch []*prefetchReq) { s.prefetch(conn, batch) }, conn.drop
	})
	s.pf.queuedAt = func(r *prefetchReq) time.Time { return r.queued }
	shed := m.shedCounter()
	s.admit = admission.NewShed(o.MaxQueueWait, o.PacedMaxQueueWait, s.draining, func() {
		if shed != nil {
			shed.Inc()
		}
	})
	m.queueGauge(o.Metrics, func() float64 { return float64(len(s.pf.ch)) })
	m.commitQueueGauge(o.Metrics, "commit", func() float64 { return float64(len(s.gc.plain.ch)) })
	m.commitQueueGauge(o.Metrics, "case", func() float64 { return float64(len(s.gc.withCase.ch)) })
	return s
}
