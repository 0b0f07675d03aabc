package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/rescreenstore"
	"github.com/complyd/complyd/internal/postgres/sanctionsstore"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/sanctionshttp"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// wireSanctions builds the matcher of this replica, loads the current lists and every tenant's
// watchlists, and registers WatchlistService, SanctionsService, the re-screening worker, the
// LISTEN connection and the optional periodic refresh (docs/guide/sanctions.md). It must run before
// any capability that screens names (they use w.sanctions and newNameScreener).
func wireSanctions(w *wiring) error {
	svc := newSanctionsService(w.db, w.now, w.log, w.matcher)
	w.sanctions = svc
	if err := svc.LoadAll(context.WithoutCancel(w.ctx)); err != nil {
		// Not fatal: the health check says "error" and the listener retries the load.
		w.log.Error("load sanctions lists", "err", err)
	}
	h := connectapi.NewWatchlistHandler(svc, w.log)
	p, hh := complydv1connect.NewWatchlistServiceHandler(h, w.handlerOpts...)
	w.addService(complydv1connect.WatchlistServiceName, p, hh)
	p, hh = complydv1connect.NewSanctionsServiceHandler(h, w.handlerOpts...)
	w.addService(complydv1connect.SanctionsServiceName, p, hh)

	subjects, cases := w.opts.SubjectSource, w.opts.CaseOpener
	if subjects == nil {
		subjects = subjectSources{rescreenstore.KYCSubjects{DB: w.db},
			rescreenstore.KYBAndProfileSanctionsSubjects{Q: rescreenstore.NewKYBAndProfileSubjects(w.db)}}
	}
	if cases == nil {
		cases = rescreenstore.NewRescreenStore(w.db)
	}
	river.AddWorker(w.workers, &jobs.RescreenWorker{Rescreener: &sanctions.Rescreener{Service: svc, Subjects: subjects, Cases: cases, Logger: w.log}})

	l := w.db.NewListener(sanctions.NotifyChannel)
	l.Connected = svc.LoadAll
	l.Notified = svc.HandleNotification
	w.background = append(w.background, l.Run)
	if w.cfg.SanctionsRefresh > 0 {
		r := &sanctionsRefresher{svc: svc, fetcher: sanctionshttp.NewFetcher(), every: w.cfg.SanctionsRefresh, log: w.log,
			sources: sanctionshttp.Sources(w.cfg.SanctionsOFACURL, w.cfg.SanctionsUNURL)}
		w.background = append(w.background, r.Run)
	}
	if w.cfg.FtMRefresh > 0 {
		u := &ftmUpdater{svc: svc, fetcher: sanctionshttp.NewGuardedFetcher(w.cfg.FtMAllowPrivate), list: w.cfg.FtMList,
			entitiesURL: w.cfg.FtMEntitiesURL, deltaURL: w.cfg.FtMDeltaURL, every: w.cfg.FtMRefresh, log: w.log}
		w.background = append(w.background, u.Run)
	}
	svc.SetFreshness(sanctions.FreshnessPolicy{MaxAgeDays: w.cfg.ListMaxAge, ByList: w.cfg.ListMaxAgeByList, Expected: w.cfg.ExpectedLists})
	w.health.SanctionsFreshness = svc.Freshness
	w.health.SanctionsMissing = func(ctx context.Context) []string {
		r, err := svc.ListsReport(ctx)
		if err != nil {
			return nil
		}
		return r.Missing
	}
	w.health.Sanctions = svc.Health
	w.health.SanctionsLists = func(ctx context.Context) any { return sanctionsListsHealth(ctx, svc) }
	return nil
}

func newSanctionsService(db *postgres.DB, now func() time.Time, log *slog.Logger, matcher *sanctions.Matcher) *sanctions.Service {
	return sanctions.NewService(sanctions.Deps{Store: sanctionsstore.NewSanctionsStore(db), Matcher: matcher, Now: now,
		Logger: log, NewID: uuid.NewString})
}

// sanctionsRefresher downloads the official lists every interval (COMPLYD_SANCTIONS_REFRESH).
// Files equal to the current version are not stored again, so replicas refreshing at the same
// time add at most a duplicate version, never a wrong one.
type sanctionsRefresher struct {
	svc     *sanctions.Service
	fetcher *sanctionshttp.Fetcher
	sources []sanctionshttp.Source
	every   time.Duration
	log     *slog.Logger
}

// Run refreshes once at start, then every interval, until ctx ends.
func (r *sanctionsRefresher) Run(ctx context.Context) {
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		res, err := r.fetcher.Refresh(ctx, r.svc, r.sources)
		for _, x := range res {
			r.log.InfoContext(ctx, "sanctions refresh", "list", x.Version.List, "version", x.Version.Version,
				"entries", x.Version.EntryCount, "unchanged", x.Unchanged)
		}
		if err != nil {
			r.log.ErrorContext(ctx, "sanctions refresh", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// nameScreener implements screening.NameScreener over the live matcher: the same search as
// POST /sanctions/search at the REVIEW threshold (docs/design/design-choices.md §8), with each hit's
// explanation for triggeredRules.details.
type nameScreener struct{ svc *sanctions.Service }

var _ screening.NameScreener = nameScreener{}

// newNameScreener returns the pipeline's sanctions port.
func newNameScreener(svc *sanctions.Service) nameScreener { return nameScreener{svc: svc} }

// Inline tells the screening pipeline that Screen is in-memory (the matcher's index, and the
// tenant's false positives cached until they change; a cache miss reads them once), so the
// sanctions engine runs on the screening's goroutine and is held to its deadline when it returns.
func (s nameScreener) Inline() bool { return true }

// Screen implements screening.NameScreener: entries reviewed as false positives for any of the
// party's keys (BVN, account number) are left out.
func (s nameScreener) Screen(ctx context.Context, tenantID tenancy.TenantID, q screening.NameQuery) ([]screening.NameHit, error) {
	et := sanctions.EntityType(q.EntityType)
	if et != sanctions.EntityIndividual && et != sanctions.EntityBusiness {
		et = ""
	}
	ms, err := s.svc.Screen(ctx, tenantID, sanctions.ScreenParams{Name: q.Name, EntityType: et, SubjectKeys: q.SubjectKeys,
		Threshold: screening.MatchReview, Limit: sanctions.DefaultLimit})
	if err != nil {
		return nil, fmt.Errorf("sanctions screen: %w", err)
	}
	// Without the global lists a name that matches nothing is not a clean name: the engine is
	// skipped with the reason and the screening queued for retro-screening. A hit on the
	// tenant's own lists is still a hit.
	if loaded, loadErr := s.svc.GlobalLists(); !loaded && len(ms) == 0 {
		if loadErr != nil {
			return nil, &screening.EngineUnavailable{Reason: screening.ReasonListLoadFailed}
		}
		return nil, &screening.EngineUnavailable{Reason: screening.ReasonNoSanctionsList}
	}
	out := make([]screening.NameHit, 0, len(ms))
	for _, m := range ms {
		out = append(out, screening.NameHit{List: m.List, ListType: string(m.ListType), EntryID: m.EntryID, SourceID: m.SourceID,
			Name: m.Name, MatchedName: m.MatchedName, Score: m.Score, Explanation: m.Explanation.String()})
	}
	return out, nil
}

// subjectSources walks several subject sources in turn (KYC applicants, KYB companies and their
// people, saved customer profiles).
type subjectSources []sanctions.SubjectSource

func (ss subjectSources) EachSubject(ctx context.Context, tenantID tenancy.TenantID, fn func(sanctions.Subject) error) error {
	for _, s := range ss {
		if err := s.EachSubject(ctx, tenantID, fn); err != nil {
			return err
		}
	}
	return nil
}
