package screenstore

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// ScreeningStoreOptions tune the batched reads and the group commit.
type ScreeningStoreOptions struct {
	// Readers is the number of prefetch batches in flight at once (default 1); each reader and
	// each committer holds a database connection.
	Readers int
	// Committers is the number of batches in flight at once (default 1, plus one for the
	// screenings that open a case).
	Committers int
	// MaxBatch bounds the screenings stored in one database transaction (default 256).
	MaxBatch int
	// Linger is how long a committer waits for more screenings after the first, when the
	// load makes company likely (lingerNow: the previous batch had lingerFrom or more, or
	// screenings arrive faster than one per Linger); default 0: batches form from what
	// queued while the previous commit was in flight. The case lane has its own (CaseLinger).
	Linger time.Duration
	// ReadLinger is the same for a reader (default 0; the service's default is 1 ms,
	// COMPLYD_SCREENING_READ_LINGER_US).
	ReadLinger time.Duration
	// CaseLinger is the same for the case lane (default 0; COMPLYD_SCREENING_CASE_LINGER_US).
	CaseLinger time.Duration
	// Metrics, when set, receives the batches' sizes and durations by stage (read, commit,
	// case): complyd_screening_batch_size and complyd_screening_batch_duration_seconds; the
	// admission queue's length (complyd_screening_queue_length), the commit lanes' queues
	// (complyd_screening_commit_queue_length{stage="commit"|"case"}) and the screenings shed
	// (complyd_screening_shed_total).
	Metrics prometheus.Registerer
	// MaxQueue bounds the screenings waiting for their batched read (default 1024: about a
	// third of a second at 3,000/s). A screening that finds the queue full is refused at once
	// with SERVICE_UNAVAILABLE and Retry-After rather than queued behind work it would time
	// out waiting for: after a stall, the backlog never grows past what drains in well under a
	// client's deadline (docs/guide/screening.md "Overload").
	MaxQueue int
	// MaxQueueWait refuses new screenings while the queue is not draining: when the oldest
	// screening of the last batch read had waited longer than this (default 100ms) and
	// screenings are still waiting, a new one is refused at once like one that finds the queue
	// full. A count alone cannot tell a queue of 1,000 that drains in a third of a second from
	// one that takes ten (a slow database, a lane of case-opening screenings): the wait can. As
	// soon as a batch is read whose oldest screening waited less, admission resumes. The commit
	// lanes count the same way (groupCommitter.behind): a screening admitted while its commit
	// would wait behind a backlog would have its answer wait too.
	MaxQueueWait time.Duration
	// PacedMaxQueueWait is MaxQueueWait for a stream's screenings and those without a deadline
	// (admission.Pace.Paced; default 1s): a stream's in-flight bound paces them, so a burst of them
	// (512 finishing at once) waits its turn, and only a backlog that keeps growing, a stream
	// offered more than the service can screen, is refused instead of waiting for ever.
	PacedMaxQueueWait time.Duration
	// Now is the clock that decides which screenings are late (grains_horizon.go); default
	// time.Now.
	Now func() time.Time
}

// batchMetrics are the histograms of the screening store's batches, by stage; nil without a
// registry.
type batchMetrics struct {
	size, seconds *prometheus.HistogramVec
	shed          prometheus.Counter
}

func newBatchMetrics(reg prometheus.Registerer) *batchMetrics {
	if reg == nil {
		return nil
	}
	m := &batchMetrics{
		size: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "complyd_screening_batch_size", Help: "Screenings per database batch, by stage (read, commit, case).",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256},
		}, []string{"stage"}),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "complyd_screening_batch_duration_seconds", Help: "Time of one database batch of screenings, by stage " +
				"(read: the batched prefetch; commit and case: the group commit without and with automatic cases).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}, []string{"stage"}),
	}
	m.shed = prometheus.NewCounter(prometheus.CounterOpts{Name: "complyd_screening_shed_total",
		Help: "Screenings refused at once at admission (SERVICE_UNAVAILABLE): the read queue was full, or it or a commit lane was not draining within the queue-wait limit."})
	reg.MustRegister(m.size, m.seconds, m.shed)
	return m
}

// shedCounter returns the counter of screenings refused at admission (nil without metrics).
func (m *batchMetrics) shedCounter() prometheus.Counter {
	if m == nil {
		return nil
	}
	return m.shed
}

// queueGauge reports the admission queue's length on /metrics.
func (m *batchMetrics) queueGauge(reg prometheus.Registerer, length func() float64) {
	if m == nil || reg == nil {
		return
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "complyd_screening_queue_length",
		Help: "Screenings waiting for their batched read (admission queue)."}, length))
}

// commitQueueGauge reports the length of one commit lane's queue on /metrics (stage "commit":
// screenings without an automatic case; "case": with one). The read queue bounds admission,
// but a screening's answer waits for its commit too, and the lanes drain at their own pace:
// the case lane has a single committer, and under a burst of case-opening screenings its queue
// is where the backlog forms (and what admission's backlog rule, groupCommitter.behind, sees).
func (m *batchMetrics) commitQueueGauge(reg prometheus.Registerer, stage string, length func() float64) {
	if m == nil || reg == nil {
		return
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "complyd_screening_commit_queue_length",
		Help:        "Screenings waiting for their group commit, by lane (commit: without an automatic case; case: with one).",
		ConstLabels: prometheus.Labels{"stage": stage}}, length))
}

// observer returns the batcher hook of one stage (nil without metrics: the batcher skips it).
func (m *batchMetrics) observer(stage string) func(int, time.Duration) {
	if m == nil {
		return nil
	}
	size, seconds := m.size.WithLabelValues(stage), m.seconds.WithLabelValues(stage)
	return func(n int, d time.Duration) {
		size.Observe(float64(n))
		seconds.Observe(d.Seconds())
	}
}
