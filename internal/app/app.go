package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"buf.build/go/protovalidate"
	"connectrpc.com/connect"
	"github.com/alexedwards/scs/pgxstore"
	"github.com/alexedwards/scs/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/admission/door"
	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/notify"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/restapi"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/smtp"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
	"github.com/complyd/complyd/web"
)

// app is the assembled service: its HTTP handler and its background workers.
type app struct {
	Handler   http.Handler
	Runner    *jobs.Runner
	Auth      *auth.Service
	DB        *postgres.DB
	Sanctions *sanctions.Service
	// Matcher is the shared sanctions matcher (tests load entries into it).
	Matcher *sanctions.Matcher
	// Background tasks (LISTEN connections, periodic refreshes) that serve runs until shutdown.
	Background []func(ctx context.Context)
	closers    []func()
}

// startBackground runs every background task until ctx ends.
func (a *app) startBackground(ctx context.Context) {
	for _, f := range a.Background {
		go f(ctx)
	}
}

// Close stops the app's background work (the settings listener, the screening committers).
func (a *app) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// appOptions let tests replace collaborators.
type appOptions struct {
	Now    func() time.Time
	Mailer notify.Mailer
	// LoginThrottle replaces the shared login throttle (PostgreSQL): in-process API tests that
	// share one database would otherwise share its per-IP buckets (all come from 127.0.0.1).
	LoginThrottle auth.LoginThrottle
	// WebhookBackoff replaces the webhook retry schedule (tests use milliseconds).
	WebhookBackoff jobs.Backoff
	// SubjectSource and CaseOpener serve sanctions re-screening; nil until the KYC/KYB/customer
	// and cases capabilities are wired (docs/guide/sanctions.md).
	SubjectSource sanctions.SubjectSource
	CaseOpener    sanctions.CaseOpener
	// WrapEmbedded, when set, wraps the embedded identity provider (tests delay or count calls).
	WrapEmbedded func(identity.Provider) identity.Provider
	// ScreeningTimeouts replace per-engine deadlines (tests).
	ScreeningTimeouts map[string]time.Duration
	// Screener replaces the name screener of the sanctions engine (tests of fail-open).
	Screener screening.NameScreener
}

func buildApp(ctx context.Context, cfg config, db *postgres.DB, log *slog.Logger, o appOptions) (*app, error) {
	if o.Now == nil {
		// PostgreSQL keeps microseconds; so do we, so that answers match what is stored.
		o.Now = func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
	}
	if o.Mailer == nil {
		if cfg.SMTPURL != "" {
			m, err := smtp.New(cfg.SMTPURL, cfg.MailFrom)
			if err != nil {
				return nil, err
			}
			o.Mailer = m
		} else {
			o.Mailer = smtp.LogMailer{Log: log}
		}
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), newPoolCollector(db),
		newReplicaCollector(db))

	// API keys resolve from an in-process cache invalidated on change (LISTEN/NOTIFY across
	// replicas): a bank core's screening calls then cost no authentication round trip.
	principals := postgres.NewPrincipalCache(postgres.NewAuthStore(db), db, 30*time.Second, log)
	authCtx, stopAuth := context.WithCancel(context.Background())
	authReady := make(chan struct{})
	built := false
	defer func() {
		if !built {
			stopAuth()
		}
	}()
	go principals.Listen(authCtx, func() { close(authReady) })
	select {
	case <-authReady:
	case <-time.After(5 * time.Second):
		log.Warn("auth listener not ready; cached API keys expire after their TTL")
	}
	var throttle auth.LoginThrottle = postgres.NewLoginThrottle(db, o.Now)
	if o.LoginThrottle != nil {
		throttle = o.LoginThrottle
	}
	authSvc := auth.NewService(auth.Deps{
		Store:   principals,
		Tokens:  accessTokens(cfg, o.Now),
		Limiter: throttle,
		Now:     o.Now,
		Logger:  log,
	})

	sessions := scs.New()
	sessions.Store = pgxstore.New(db.Pool)
	sessions.Lifetime = accessTokens(cfg, o.Now).TTL()
	sessions.Cookie.Name = connectapi.AccessCookie
	sessions.Cookie.HttpOnly = true
	sessions.Cookie.Secure = cfg.CookieSecure
	sessions.Cookie.SameSite = http.SameSiteStrictMode
	sessions.Cookie.Path = "/"

	metrics := connectapi.NewMetrics(reg)
	limits := auth.NewTenantLimiter(cfg.RateLimitScreening, cfg.RateLimitAPI, o.Now)
	limits.Share(postgres.NewRateBuckets(db)) // every replica spends from the same buckets
	httpLimits := cfg.HTTP.withDefaults()
	authn := connectapi.NewAuthenticator(authSvc, sessions, log, connectapi.WithTenantLimits(limits))
	validator, err := protovalidate.New()
	if err != nil {
		return nil, err
	}
	handlers, err := connectapi.Handlers(connectapi.Deps{
		Auth:          connectapi.NewAuthHandler(authSvc, sessions, cfg.CookieSecure, log),
		Users:         connectapi.NewUserHandler(authSvc, log),
		Authenticator: authn,
		Metrics:       metrics,
		Validator:     validator,
		Logger:        log,
		ReadMaxBytes:  int(httpLimits.Bodies.FileBodyBytes),
	})
	if err != nil {
		return nil, err
	}
	// Foreground counts the screenings and searches in flight; a tenant's watchlist import and
	// the builds of the matcher's indexes give way to them (door.Foreground).
	foreground := &door.Foreground{}
	matcher := sanctions.NewMatcher()
	matcher.SetForeground(foreground.Busy)
	w := &wiring{ctx: ctx, opts: o, closers: []func(){stopAuth}, cfg: cfg, db: db, log: log, now: o.Now, mailer: o.Mailer, reg: reg,
		authn: authn, limits: limits, validator: validator, handlerOpts: connectapi.Options(metrics, validator, log, int(httpLimits.Bodies.FileBodyBytes)),
		workers: river.NewWorkers(), mux: http.NewServeMux(),
		health: restapi.HealthChecks{Database: db.Ping, ReadReplica: replicaCheck(db)}, webhookBackoff: o.WebhookBackoff, matcher: matcher,
		wrapEmbedded: o.WrapEmbedded, screeningTimeouts: o.ScreeningTimeouts, screener: o.Screener}
	// Each capability wires itself in its own wire_<capability>.go file. wireSanctions comes
	// first: capabilities that screen names use w.sanctions.
	for _, wire := range []func(*wiring) error{wireSanctions, wireInterdictions, wireCases, wireWallet, wireKYC, wireKYB, wireLookups, wireScreening, wireAdmin, wireNetwork, wireCustomers, wireDashboard, wireConfig, wireReports, wireArchive} {
		if err := wire(w); err != nil {
			return nil, err
		}
	}
	handlers = append(handlers, w.handlers...)
	facade, err := restapi.New(handlers, httpLimits.Bodies, log)
	if err != nil {
		return nil, err
	}

	mux := w.mux
	connectapi.Mount(mux, handlers)
	health := restapi.Health(w.health)
	mux.Handle("GET /health", health)
	mux.Handle("GET /api/v1/health", health)
	var runnerRef *jobs.Runner // set below, once built; the handler reads it per request
	ready := restapi.Ready(restapi.ReadyChecks{Database: w.health.Database, Sanctions: w.health.Sanctions, Identity: w.health.Identity,
		SanctionsFreshness: w.health.SanctionsFreshness, ReadReplica: w.health.ReadReplica,
		Workers: func() bool { return runnerRef != nil && runnerRef.Running() }})
	mux.Handle("GET /ready", ready)
	mux.Handle("GET /api/v1/ready", ready)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.Handle("GET "+restapi.OpenAPIPath, restapi.OpenAPIHandler())
	mux.Handle("/api/", facade)
	dashboard := web.Handler(web.Dist())
	// "/api" alone is the dashboard's API reference screen; without its own pattern the mux
	// would redirect it into the facade's "/api/" subtree (a JSON 404 on reload).
	mux.Handle("GET /api", dashboard)
	mux.Handle("/", dashboard)

	workers := w.workers
	river.AddWorker(workers, &jobs.SendEmailWorker{Outbox: postgres.NewEmailStore(db), Mailer: o.Mailer})
	yieldWaited := prometheus.NewCounter(prometheus.CounterOpts{Name: "complyd_jobs_yield_seconds_total",
		Help: "Time River jobs (emails, webhooks, retro-screenings) waited before starting because screenings were waiting behind a backlog."})
	yielded := prometheus.NewCounter(prometheus.CounterOpts{Name: "complyd_jobs_yielded_total",
		Help: "River jobs that waited before starting because screenings were waiting behind a backlog."})
	reg.MustRegister(yieldWaited, yielded)
	runner, err := jobs.NewRunnerYielding(db.Pool, workers, log, jobs.Yield{Busy: w.screeningBusy, Waited: func(d time.Duration) {
		yielded.Inc()
		yieldWaited.Add(d.Seconds())
	}}, w.periodic...)
	if err != nil {
		return nil, err
	}
	runnerRef = runner
	built = true
	gateShed := prometheus.NewCounter(prometheus.CounterOpts{Name: "complyd_screening_gate_shed_total",
		Help: "Unary screenings refused at the door because COMPLYD_SCREENING_MAX_IN_FLIGHT were in progress."})
	gate := door.New(cfg.ScreeningMaxInFlight, gateShed.Inc, restapi.Refusals(log))
	gateInFlight := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "complyd_screening_in_flight",
		Help: "Unary screenings in progress behind the door (COMPLYD_SCREENING_MAX_IN_FLIGHT bounds them; 0 when that is 0)."},
		func() float64 { return float64(gate.InFlight()) })
	reg.MustRegister(gateShed, gateInFlight)
	handler := restapi.CanonicalPaths(foreground.Wrap(gate.Wrap(
		restapi.LimitBodies(connectapi.WithSessions(sessions, mux), httpLimits.Bodies))))
	return &app{Handler: connectapi.RequestID(withCORS(cfg.CORSOrigins, handler)), Runner: runner, Auth: authSvc, DB: db,
		Sanctions: w.sanctions, Matcher: w.matcher, Background: w.background, closers: w.closers}, nil
}

// wiring is what every capability's wire function receives and extends.
type wiring struct {
	ctx         context.Context
	opts        appOptions
	cfg         config
	db          *postgres.DB
	log         *slog.Logger
	now         func() time.Time
	mailer      notify.Mailer
	reg         prometheus.Registerer
	authn       *connectapi.Authenticator
	handlerOpts []connect.HandlerOption
	// Outputs: Connect handlers (served natively and through /api/v1), River workers, and extra
	// plain HTTP routes (for example signed blob downloads).
	handlers []connectapi.Handler
	workers  *river.Workers
	mux      *http.ServeMux
	// periodic River jobs (for example the dead-webhook purge).
	periodic []*river.PeriodicJob
	// webhookBackoff is appOptions.WebhookBackoff.
	webhookBackoff jobs.Backoff
	// matcher is the in-memory sanctions and PEP matcher shared by search, screening, KYB owner
	// screening and re-screening; wireSanctions loads the lists into it and keeps it current.
	matcher *sanctions.Matcher
	// wallet is the prepaid wallet, set by wireWallet for the paid capabilities after it.
	wallet *wallet.Service
	// kyc is the KYC service (tests reach it through the app).
	kyc *kyc.Service
	// health holds the checks of GET /health; capabilities fill theirs (sanctions).
	health restapi.HealthChecks
	// interdictions is the in-memory cache of interdictions in force (set by wireInterdictions).
	interdictions *postgres.InterdictionCache
	// background tasks serve starts (app.Background).
	background []func(ctx context.Context)
	// sanctions is the live matcher service (set by wireSanctions).
	sanctions *sanctions.Service
	// screeningBusy reports whether screenings wait behind a backlog (set by wireScreening); the
	// River jobs give way while it does (jobs.Yield).
	screeningBusy func() bool
	// kyb is the KYB service, set by wireKYB for wireLookups.
	kyb *kyb.Service
	// identityProviders resolves a tenant's identity providers (set by wireKYC; shared by KYB and
	// lookups so every paid call goes through the same chain).
	identityProviders func(ctx context.Context, tenantID tenancy.TenantID) (identity.Providers, identity.ProviderConfig, error)
	// blobs is the document store (set by wireKYC).
	blobs document.Blobs
	// wrapEmbedded is appOptions.WrapEmbedded.
	wrapEmbedded func(identity.Provider) identity.Provider
	// providerHandler serves IdentityProviderService (set by wireKYC); TenantConfigService
	// answers PATCH /tenants/me/kyc-config with its GetKycConfig.
	providerHandler *connectapi.ProviderHandler
	// screeningTimeouts override the per-engine deadlines (tests).
	screeningTimeouts map[string]time.Duration
	// screening is the screening service (tests reach it through the app).
	screening *screening.Service
	// screener, when set, replaces the sanctions name screener (tests).
	screener screening.NameScreener
	// closers stop background work (listeners, committers) when the app closes.
	closers []func()
	// limits are the per-tenant rate limits authn enforces per call; handlers of perMessage
	// procedures (the screening stream and batch) spend them per message instead.
	limits *auth.TenantLimiter
	// invalidateSettings drops a tenant's cached screening settings in this process (set by
	// wireScreening; other replicas drop theirs on the NOTIFY).
	invalidateSettings func(tenancy.TenantID)
	// pipeline is the screening pipeline (set by wireScreening; EngineService reads its deadlines).
	pipeline *screening.Pipeline
	// validator is handlerOpts' protovalidate validator (stream handlers validate each message).
	validator protovalidate.Validator
}

// addService registers a Connect service behind the authenticator.
func (w *wiring) addService(name, path string, h http.Handler) {
	w.handlers = append(w.handlers, connectapi.Handler{Path: path, Name: name, Handler: w.authn.Wrap(h)})
}

func newPoolCollector(db *postgres.DB) prometheus.Collector {
	return poolCollector{db: db,
		total: prometheus.NewDesc("complyd_db_pool_connections", "Database pool connections by state.", []string{"state"}, nil),
		waits: prometheus.NewDesc("complyd_db_pool_acquire_waits_total", "Acquires that had to wait for a connection.", nil, nil),
	}
}

type poolCollector struct {
	db           *postgres.DB
	total, waits *prometheus.Desc
}

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.total; ch <- c.waits }
func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.db.Pool.Stat()
	ch <- prometheus.MustNewConstMetric(c.total, prometheus.GaugeValue, float64(s.IdleConns()), "idle")
	ch <- prometheus.MustNewConstMetric(c.total, prometheus.GaugeValue, float64(s.AcquiredConns()), "acquired")
	ch <- prometheus.MustNewConstMetric(c.total, prometheus.GaugeValue, float64(s.MaxConns()), "max")
	ch <- prometheus.MustNewConstMetric(c.waits, prometheus.CounterValue, float64(s.EmptyAcquireCount()))
}

// openDB migrates the database, opens it and seals what the migrations could not (sealPersonalData).
func openDB(ctx context.Context, cfg config, log *slog.Logger) (*postgres.DB, error) {
	if err := postgres.Migrate(ctx, cfg.DatabaseURL, log); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	db, err := postgres.Open(ctx, cfg.DatabaseURL, postgres.Options{Logger: log, MaxConns: int32(cfg.DBMaxConns),
		CredentialsKey: keyFrom(cfg.CredentialsKey, cfg.JWTSecret, "byol-credentials"),
		ReplicaURL:     cfg.ReplicaURL, ReplicaMaxLag: cfg.ReplicaMaxLag, ReplicaProbeEvery: cfg.ReplicaProbeEvery})
	if err != nil {
		return nil, err
	}
	if err := sealPersonalData(ctx, db, log); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// sealPersonalData is the Go half of migrations 0011 and 0027 (the key is not in the database):
// KYC applications' BVNs and NINs still in clear are sealed (docs/guide/kyc.md), and approved
// applications not yet linked become customers (docs/guide/customers.md). It runs before anything
// serves, and is a cheap no-op once done.
func sealPersonalData(ctx context.Context, db *postgres.DB, log *slog.Logger) error {
	n, err := applicationstore.SealKYCIdentifiers(ctx, db)
	if err != nil {
		return fmt.Errorf("seal KYC identifiers (migration 0011): %w", err)
	}
	if n > 0 {
		log.InfoContext(ctx, "sealed KYC identifiers stored in clear", "applications", n)
	}
	// The Go half of migration 0027: applications approved before it become customers (docs/guide/customers.md).
	n, err = applicationstore.LinkApprovedCustomers(ctx, db)
	if err != nil {
		return fmt.Errorf("link approved applications to customers (migration 0027): %w", err)
	}
	if n > 0 {
		log.InfoContext(ctx, "linked approved applications to customers", "applications", n)
	}
	return nil
}

// accessTokens is the issuer of access tokens, living cfg.AccessTTL (AccessTTL when unset, as in
// tests that build a config by hand).
func accessTokens(cfg config, now func() time.Time) *auth.AccessTokens {
	t := auth.NewAccessTokens([]byte(cfg.JWTSecret), now)
	if cfg.AccessTTL > 0 {
		t = t.WithTTL(cfg.AccessTTL)
	}
	return t
}
