package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
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
	ctx, db, st := newScreeningStore(t, postgres.ScreeningStoreOptions{MaxQueueWait: 50 * time.Millisecond,
		PacedMaxQueueWait: time.Minute, Metrics: reg})
	ten := pgtest.Tenant(ctx, t, db)
	lock, err := db.Pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = lock.Rollback(ctx) }()
	_, err = lock.Exec(ctx, "select set_config('app.tenant_id', $1, true)", string(ten.ID))
	require.NoError(t, err)
	_, err = lock.Exec(ctx, `insert into case_counters (tenant_id, year, last_value) values ($1, $2, 0)
		on conflict (tenant_id, year) do update set last_value = case_counters.last_value`, string(ten.ID), time.Now().UTC().Year())
	require.NoError(t, err)

	require.Equal(t, 0.0, metricValue(t, reg, "complyd_screening_commit_queue_length", "case"), "registered, empty")
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = st.Save(ctx, record(ten.ID, fmt.Sprint("metrics-", i), "AML_ALERT"))
		})
		time.Sleep(20 * time.Millisecond) // the first takes the lane; the others queue behind it
	}
	require.Eventually(t, func() bool {
		return metricValue(t, reg, "complyd_screening_commit_queue_length", "case") == 2
	}, 5*time.Second, 10*time.Millisecond, "the two screenings behind the stuck batch are on /metrics")
	require.Equal(t, 0.0, metricValue(t, reg, "complyd_screening_commit_queue_length", "commit"))
	require.Equal(t, 0.0, metricValue(t, reg, "complyd_screening_queue_length", ""))

	probe := record(ten.ID, "metrics-probe", "").Tx
	require.Eventually(t, func() bool {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		_, err := st.Prefetch(pctx, probe, false)
		return apperr.CodeOf(err) == apperr.Unavailable
	}, 5*time.Second, 10*time.Millisecond, "a screening is refused while the case lane is stuck")
	require.GreaterOrEqual(t, metricValue(t, reg, "complyd_screening_shed_total", ""), 1.0)

	require.NoError(t, lock.Rollback(ctx)) // the lane drains
	wg.Wait()
	for i, err := range errs {
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
