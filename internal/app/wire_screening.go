package app

import (
	"context"
	"net/http"
	_ "net/http/pprof" // served only when COMPLYD_PPROF_ADDR is set
	"sync"
	"time"

	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/admission/benchfloor"
	"github.com/complyd/complyd/internal/connectapi"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/postgres/dashboardstore"
	"github.com/complyd/complyd/internal/postgres/screenstore"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// wireScreening wires issue 3: TransactionService (screening, list, detail, batch),
// RuleService, TenantConfigService, the per-tenant settings cache with its LISTEN/NOTIFY
// invalidation, the group-committed screening store and the retro-screening worker.
func wireScreening(w *wiring) error {
	compiler, err := rules.NewCompiler()
	if err != nil {
		return err
	}
	programs := rules.NewCache(compiler, 0)
	settingsStore := postgres.NewSettingsStore(w.db)
	cache := postgres.NewSettingsCache(settingsStore, 5*time.Minute, programs, w.log)
	listenCtx, stopListen := context.WithCancel(context.Background())
	listening := make(chan struct{})
	go cache.Listen(listenCtx, w.db, func() { close(listening) })
	select { // screen with an invalidation channel in place, or go on without it after 5 s
	case <-listening:
	case <-time.After(5 * time.Second):
		w.log.Warn("screening settings listener not ready; cache entries expire after their TTL")
	}
	store := screenstore.NewScreeningStore(w.db, screenstore.ScreeningStoreOptions{
		Readers: w.cfg.ScreeningReaders, Committers: w.cfg.ScreeningCommitters, MaxBatch: w.cfg.ScreeningMaxBatch, Linger: w.cfg.ScreeningLinger, MaxQueue: w.cfg.ScreeningMaxQueue, MaxQueueWait: w.cfg.ScreeningMaxQueueWait, PacedMaxQueueWait: w.cfg.ScreeningStreamMaxQueueWait,
		ReadLinger: w.cfg.ScreeningReadLinger, CaseLinger: w.cfg.ScreeningCaseLinger, Metrics: w.reg})
	w.closers = append(w.closers, stopListen, store.Close)
	w.invalidateSettings = cache.Invalidate
	w.screeningBusy = store.Busy
	// The nightly prune of the grains older than the prefetch reads (grains_horizon.go); it
	// gives way to screening between its transactions.
	pruner := screenstore.NewGrainsPruner(w.db)
	pruner.Pause = func(ctx context.Context) error { return giveWay(ctx, store.Busy, time.Second) }
	river.AddWorker(w.workers, &jobs.GrainsWorker{Pruner: pruner, Cutoff: screenstore.GrainsCutoff, NowFunc: w.now, Logger: w.log})
	w.periodic = append(w.periodic, jobs.GrainsJob())
	// The nightly fold of the dashboard rollups' shards of past hours (rollup_fold.go), which
	// the transactions list's total and the overview sum.
	folder := dashboardstore.NewRollupFolder(w.db)
	folder.Pause = pruner.Pause
	river.AddWorker(w.workers, &jobs.RollupsWorker{Folder: folder, Cutoff: dashboardstore.FoldCutoff, NowFunc: w.now, Logger: w.log})
	w.periodic = append(w.periodic, jobs.RollupsJob())

	startPprof(w.cfg.PprofAddr)
	screener := screening.NameScreener(newNameScreener(w.sanctions))
	if w.screener != nil {
		screener = w.screener
	}
	sanctionsEngine := screening.NewSanctionsEngine(screener)
	behavioral := screening.NewBehavioralEngine()
	custom := screening.NewCustomRulesEngine(programs)
	custom.OnRuleError = ruleErrorLogger(w)
	pipeline := screening.NewPipeline(screening.PipelineDeps{
		Sanctions:  sanctionsEngine,
		Regulatory: screening.NewRegulatoryEngine(),
		Identity:   screening.NewIdentityEngine(),
		Custom:     custom,
		Decision:   screening.NewDecisionEngine(screening.DefaultDecisionConfig()),
		Behavioral: behavioral,
		Timeouts:   w.screeningTimeouts,
	})
	w.pipeline = pipeline
	accountShed := prometheus.NewCounter(prometheus.CounterOpts{Name: "complyd_screening_account_shed_total",
		Help: "Stream screenings refused because they waited longer than the stream queue-wait limit for their account's previous screening."})
	if benchfloor.Enabled {
		w.log.Warn("benchmark floor build (-tags benchfloor): screenings are answered but never read or stored")
	}
	// Shadowed rule drafts' results, written in batches off the screening's path (docs/guide/rules.md).
	shadows := postgres.NewShadowWriter(w.db, w.log)
	w.closers = append(w.closers, shadows.Close)
	w.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "complyd_rule_shadow_dropped_total",
		Help: "Shadow results of rule drafts dropped because the writer's queue was full (the live screening never waits for them)."},
		func() float64 { return float64(shadows.Dropped()) }), prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "complyd_rule_shadow_written_total",
		Help: "Shadow results of rule drafts stored."}, func() float64 { return float64(shadows.Written()) }))
	svc := screening.NewService(screening.ServiceDeps{Settings: cache, Store: benchfloor.Store(store), KYB: applicationstore.NewKYBStore(w.db), Pipeline: pipeline,
		Now: w.now, Interdictions: w.interdictions, PacedAccountWait: w.cfg.ScreeningStreamMaxQueueWait, OnAccountShed: accountShed.Inc,
		Shadows: shadows})
	w.reg.MustRegister(accountShed, prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "complyd_screening_account_wait_length",
		Help: "Screenings waiting for their account's previous screening to be stored (one account at a time)."},
		func() float64 { return float64(svc.AccountWaiting()) }))

	// Screening answers are small (1-3 kB): compressing them costs more CPU than it saves on a
	// bank's network, so only batch answers above 16 kB are compressed.
	txOpts := append(append([]connect.HandlerOption{}, w.handlerOpts...), connect.WithCompressMinBytes(16<<10))
	p, h := complydv1connect.NewTransactionServiceHandler(connectapi.NewScreeningHandler(svc, w.validator, w.limits, w.log).WithDefaultDeadline(w.cfg.ScreeningDeadline), txOpts...)
	w.addService(complydv1connect.TransactionServiceName, p, h)
	p, h = complydv1connect.NewRuleServiceHandler(connectapi.NewRuleHandler(settingsStore, compiler, programs,
		cache.Invalidate, w.now, w.log).WithBacktests(postgres.NewBacktestStore(w.db)).WithDrafts(settingsStore), w.handlerOpts...)
	w.addService(complydv1connect.RuleServiceName, p, h)
	kycConfig := func(ctx context.Context) (*complydv1.KycConfig, error) {
		res, err := w.providerHandler.GetKycConfig(ctx, connect.NewRequest(&complydv1.GetKycConfigRequest{}))
		if err != nil {
			return nil, err
		}
		return res.Msg, nil
	}
	p, h = complydv1connect.NewTenantConfigServiceHandler(connectapi.NewTenantConfigHandler(settingsStore, kycConfig,
		cache.Invalidate, w.log), w.handlerOpts...)
	w.addService(complydv1connect.TenantConfigServiceName, p, h)

	river.AddWorker(w.workers, &jobs.RetroScreeningWorker{Store: store, Settings: cache,
		Engines: []screening.Engine{sanctionsEngine, behavioral}, Log: w.log})
	w.screening = svc
	return nil
}

// startPprof serves net/http/pprof on addr (COMPLYD_PPROF_ADDR, loopback only) for profiling
// the benchmark; unset, nothing is served.
func startPprof(addr string) {
	if addr == "" {
		return
	}
	go func() { _ = http.ListenAndServe(addr, nil) }()
}

// ruleErrorLogger logs a custom rule that could not be evaluated (it did not trigger; the
// screening went on), at most once a minute per rule so that a rule failing on every screening
// does not flood the log.
func ruleErrorLogger(w *wiring) func(context.Context, tenancy.TenantID, string, error) {
	var mu sync.Mutex
	last := map[string]time.Time{}
	return func(ctx context.Context, tenant tenancy.TenantID, ruleID string, err error) {
		now := time.Now()
		mu.Lock()
		quiet := now.Sub(last[ruleID]) < time.Minute
		if !quiet {
			last[ruleID] = now
		}
		mu.Unlock()
		if !quiet {
			w.log.WarnContext(ctx, "custom rule could not be evaluated; it did not trigger", "tenant", string(tenant),
				"rule", ruleID, "error", err.Error())
		}
	}
}

// giveWay waits while busy reports screenings waiting behind a backlog, in steps of 20 ms, up
// to most: a maintenance pass that would otherwise take the CPU they need, but must go on under
// a load that never lets up.
func giveWay(ctx context.Context, busy func() bool, most time.Duration) error {
	for end := time.Now().Add(most); busy() && time.Now().Before(end); {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return ctx.Err()
}
