package screenstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/admission"
	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/screenstore"
)

// TestScreeningQueueMetrics: /metrics shows where screenings wait, stage by stage. With the case
// lane's commit stuck (another transaction holds the tenant's case counter) and two
// case-opening screenings queued behind the one in hand,
// complyd_screening_commit_queue_length{stage="case"} is 2 while the plain lane's and the read
// queue's are 0; a screening refused meanwhile is counted in complyd_screening_shed_total; once
// the lane drains, its queue is empty again.
func TestScreeningQueueMetrics(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	ctx, db, st := newScreeningStore(t, screenstore.ScreeningStoreOptions{MaxQueueWait: 50 * time.Millisecond,
		PacedMaxQueueWait: time.Minute, Metrics: reg})
	ten := pgtest.Tenant(ctx, t, db)
	require.Equal(t, 0.0, metricValue(t, reg, "complyd_screening_commit_queue_length", "case"), "registered, empty")
	drain := stuckCaseLane(ctx, t, db, st, ten.ID, "metrics-")
	require.Eventually(t, func() bool {
		return metricValue(t, reg, "complyd_screening_commit_queue_length", "case") == 2
	}, 5*time.Second, 10*time.Millisecond, "the two screenings behind the stuck batch are on /metrics")
	require.Equal(t, 0.0, metricValue(t, reg, "complyd_screening_commit_queue_length", "commit"))
	require.Equal(t, 0.0, metricValue(t, reg, "complyd_screening_queue_length", ""))

	probe := record(ten.ID, "metrics-probe", "").Tx
	require.Eventually(t, func() bool {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		_, err := st.Prefetch(pctx, probe, false, admission.PaceOf(pctx))
		return apperr.CodeOf(err) == apperr.Unavailable
	}, 5*time.Second, 10*time.Millisecond, "a screening is refused while the case lane is stuck")
	require.GreaterOrEqual(t, metricValue(t, reg, "complyd_screening_shed_total", ""), 1.0)

	for i, err := range drain() {
		require.NoError(t, err, "queued screening %d is stored", i)
	}
	require.Equal(t, 0.0, metricValue(t, reg, "complyd_screening_commit_queue_length", "case"))
}

// metricValue gathers reg and returns the value of the gauge or counter name whose stage label
// is stage ("" for a metric without labels); the test fails when there is none.
func metricValue(t *testing.T, reg *prometheus.Registry, name, stage string) float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			got := ""
			for _, l := range m.GetLabel() {
				if l.GetName() == "stage" {
					got = l.GetValue()
				}
			}
			if got != stage {
				continue
			}
			if g := m.GetGauge(); g != nil {
				return g.GetValue()
			}
			return m.GetCounter().GetValue()
		}
	}
	require.Failf(t, "no such metric", "%s{stage=%q}", name, stage)
	return 0
}
