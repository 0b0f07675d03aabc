package app

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/complyd/complyd/internal/dashboard"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/restapi"
)

// replicaCheck reports the read replica to /health and /ready (docs/guide/read-replica.md).
func replicaCheck(db *postgres.DB) func() restapi.ReplicaCheck {
	return func() restapi.ReplicaCheck {
		st := db.ReplicaState()
		return restapi.ReplicaCheck{Status: st.Status, LagSeconds: st.Lag.Seconds(), MaxLagSeconds: st.MaxLag.Seconds(), Error: st.Error}
	}
}

// newReplicaCollector exports the read replica's lag, whether reads go to it, and the routed
// reads by the pool that answered them (nothing is collected without a replica).
func newReplicaCollector(db *postgres.DB) prometheus.Collector {
	return replicaCollector{db: db,
		lag: prometheus.NewDesc("complyd_db_replica_lag_seconds", "How far the read replica's data is behind the primary's, as last measured.", nil, nil),
		up: prometheus.NewDesc("complyd_db_replica_up",
			"1 while the staleness-tolerant reads go to the read replica (answering, lag at most COMPLYD_DATABASE_REPLICA_MAX_LAG), 0 while they go to the primary.", nil, nil),
		reads: prometheus.NewDesc("complyd_db_routed_reads_total",
			"Staleness-tolerant reads (Overview, exports, network, back-tests) by the pool that answered them.", []string{"pool"}, nil),
		fallbacks: prometheus.NewDesc("complyd_db_replica_fallbacks_total",
			"Reads sent to the read replica that found it unreachable and were answered by the primary.", nil, nil),
	}
}

type replicaCollector struct {
	db                        *postgres.DB
	lag, up, reads, fallbacks *prometheus.Desc
}

func (c replicaCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.lag
	ch <- c.up
	ch <- c.reads
	ch <- c.fallbacks
}

func (c replicaCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.db.ReplicaState()
	if st.Status == postgres.ReplicaNone {
		return
	}
	up := 0.0
	if st.Status == postgres.ReplicaOK {
		up = 1
	}
	n := c.db.ReplicaReads()
	ch <- prometheus.MustNewConstMetric(c.lag, prometheus.GaugeValue, st.Lag.Seconds())
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, up)
	ch <- prometheus.MustNewConstMetric(c.reads, prometheus.CounterValue, float64(n.Replica), "replica")
	ch <- prometheus.MustNewConstMetric(c.reads, prometheus.CounterValue, float64(n.Primary), "primary")
	ch <- prometheus.MustNewConstMetric(c.fallbacks, prometheus.CounterValue, float64(n.Fallbacks))
}

// freshness tells the Overview where its figures are read from (GetDataFreshness).
func freshness(db *postgres.DB) func() dashboard.Freshness {
	return func() dashboard.Freshness {
		st := db.ReplicaState()
		return dashboard.Freshness{FromReplica: st.Status == postgres.ReplicaOK, ReplicaStatus: st.Status, Lag: st.Lag, MaxLag: st.MaxLag}
	}
}
