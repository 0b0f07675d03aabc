package main

import (
	"context"
	"fmt"
	"net/http"
	_ "net/http/pprof" // served only when COMPLYD_PPROF_ADDR is set
	"os"
	"path/filepath"
	"time"

	"connectrpc.com/connect"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/connectapi"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/rules"
	"github.com/complyd/complyd/internal/sanctions"
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
	store := postgres.NewScreeningStore(w.db, postgres.ScreeningStoreOptions{
		Committers: w.cfg.ScreeningCommitters, MaxBatch: w.cfg.ScreeningMaxBatch, Linger: w.cfg.ScreeningLinger})
	w.closers = append(w.closers, stopListen, store.Close)

	startPprof(os.Getenv("COMPLYD_PPROF_ADDR"))
	if dir := os.Getenv("COMPLYD_SCREENING_OFAC_DIR"); dir != "" {
		if err := loadBenchLists(w.matcher, dir); err != nil {
			return fmt.Errorf("load OFAC lists from %s: %w", dir, err)
		}
	}
	screener := screening.NameScreener(matcherScreener{m: w.matcher})
	if w.screener != nil {
		screener = w.screener
	}
	sanctionsEngine := screening.NewSanctionsEngine(screener)
	behavioral := screening.NewBehavioralEngine()
	pipeline := screening.NewPipeline(screening.PipelineDeps{
		Sanctions:  sanctionsEngine,
		Regulatory: screening.NewRegulatoryEngine(),
		Identity:   screening.NewIdentityEngine(),
		Custom:     screening.NewCustomRulesEngine(programs),
		Decision:   screening.NewDecisionEngine(screening.DefaultDecisionConfig()),
		Behavioral: behavioral,
		Timeouts:   w.screeningTimeouts,
	})
	svc := screening.NewService(screening.ServiceDeps{Settings: cache, Store: store, KYB: kybNotConnected{}, Pipeline: pipeline,
		Now: w.now})

	// Screening answers are small (1-3 kB): compressing them costs more CPU than it saves on a
	// bank's network, so only batch answers above 16 kB are compressed.
	txOpts := append(append([]connect.HandlerOption{}, w.handlerOpts...), connect.WithCompressMinBytes(16<<10))
	p, h := complydv1connect.NewTransactionServiceHandler(connectapi.NewScreeningHandler(svc, w.log), txOpts...)
	w.addService(complydv1connect.TransactionServiceName, p, h)
	p, h = complydv1connect.NewRuleServiceHandler(connectapi.NewRuleHandler(settingsStore, compiler, programs,
		cache.Invalidate, w.now, w.log), w.handlerOpts...)
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

// kybNotConnected is the KYB port until the KYB capability (h2/kyb) merges: every lookup finds
// no record, which scores NONE → 100/BLOCK (service-spec.md 3.4), the correct answer when no
// KYB record exists.
//
// INTEGRATOR / KYB ENGINEER: replace kybNotConnected{} in wireScreening with the KYB store's
// screening.KYBStore implementation (StoredKYB by tenant and RC number).
type kybNotConnected struct{}

// StoredKYB implements screening.KYBStore.
func (kybNotConnected) StoredKYB(context.Context, tenancy.TenantID, string) (screening.StoredKYB, error) {
	return screening.StoredKYB{}, nil
}

// matcherScreener is the minimal screening.NameScreener over the shared in-memory matcher.
// INTEGRATOR: the sanctions capability's adapter in wire_sanctions.go supersedes this one;
// keep one of them.
type matcherScreener struct{ m *sanctions.Matcher }

// Screen implements screening.NameScreener.
func (s matcherScreener) Screen(_ context.Context, tenantID tenancy.TenantID, name, entityType string) ([]screening.NameHit, error) {
	matches := s.m.Search(tenantID, sanctions.Query{Name: name, EntityType: sanctions.EntityType(entityType),
		Threshold: screening.MatchReview, Limit: 10})
	out := make([]screening.NameHit, 0, len(matches))
	for _, m := range matches {
		out = append(out, screening.NameHit{List: m.List, ListType: string(m.ListType), EntryID: m.EntryID,
			SourceID: m.SourceID, Name: m.Name, MatchedName: m.MatchedName, Score: m.Score, Explanation: m.Explanation.String()})
	}
	return out, nil
}

// loadBenchLists loads OFAC SDN files (sdn.csv, alt.csv, add.csv in dir) into the matcher when
// COMPLYD_SCREENING_OFAC_DIR names a directory: the benchmark screens against real lists.
// INTEGRATOR: `complyd watchlist import` (the sanctions capability) is the real loader.
func loadBenchLists(m *sanctions.Matcher, dir string) error {
	open := func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) }
	sdn, err := open("sdn.csv")
	if err != nil {
		return err
	}
	defer sdn.Close()
	alt, err := open("alt.csv")
	if err != nil {
		return err
	}
	defer alt.Close()
	add, err := open("add.csv")
	if err != nil {
		return err
	}
	defer add.Close()
	entries, err := sanctions.ParseOFAC(sdn, alt, add)
	if err != nil {
		return err
	}
	m.Replace("OFAC SDN", entries)
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
