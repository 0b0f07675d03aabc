package app

import (
	"net"

	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/auth"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/sanctionshttp"
)

// config is the process configuration, read from the environment (docs/design/design-choices.md §1).
type config struct {
	DatabaseURL         string
	Addr                string
	JWTSecret           string
	BlobDir             string
	SMTPURL             string
	MailFrom            string
	WebhookAllowPrivate bool
	// GoamlSchema is COMPLYD_GOAML_SCHEMA, the path of the FIU's goAML XSD that replaces the
	// public 5.0.1 one; GoamlSchemas is COMPLYD_GOAML_SCHEMAS, "name=path,..." the schemas a
	// tenant picks by name; Xmllint is COMPLYD_XMLLINT (docs/guide/reports.md "Validation").
	GoamlSchema, GoamlSchemas, Xmllint string
	CookieSecure                       bool
	// AccessTTL is COMPLYD_ACCESS_TTL: the life of an access token and of the dashboard's access
	// cookie (a Go duration, default 15m, at least 10s); tests shorten it to exercise refresh.
	AccessTTL          time.Duration
	RateLimitAPI       int
	RateLimitScreening int
	LookupPrice        string
	// LowBalanceThreshold is COMPLYD_LOW_BALANCE_THRESHOLD: the default low-balance warning
	// threshold in NGN ("" or 0: no warning unless the tenant sets its own; docs/guide/wallet.md).
	LowBalanceThreshold string
	// Screening group commit (docs/guide/screening.md "Performance").
	ScreeningCommitters int
	ScreeningReaders    int
	ScreeningMaxBatch   int
	ScreeningLinger     time.Duration
	ScreeningReadLinger time.Duration
	ScreeningCaseLinger time.Duration
	// ScreeningDeadline is the budget of a unary screening sent without a deadline
	// (COMPLYD_SCREENING_DEADLINE, default 2s; 0 = none); ScreeningMaxQueue bounds the
	// screenings waiting to start (COMPLYD_SCREENING_MAX_QUEUE, default 1024).
	ScreeningDeadline time.Duration
	ScreeningMaxQueue int
	// ScreeningMaxQueueWait refuses new screenings while the queue is not draining
	// (COMPLYD_SCREENING_MAX_QUEUE_WAIT, default 100ms).
	ScreeningMaxQueueWait time.Duration
	// ScreeningStreamMaxQueueWait is the same limit for a stream's screenings
	// (COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT, default 1s): their stream's in-flight bound paces
	// them, so they wait longer before being refused.
	ScreeningStreamMaxQueueWait time.Duration
	// ScreeningMaxInFlight bounds the unary screenings in progress in the process
	// (COMPLYD_SCREENING_MAX_IN_FLIGHT, default 128; 0 = no bound): door.Gate.
	ScreeningMaxInFlight int
	// DBMaxConns sizes the database pool (pgx's default of max(4, cores) starves the screening
	// prefetches behind the group commits).
	DBMaxConns int
	// ReplicaURL is COMPLYD_DATABASE_REPLICA_URL: an optional streaming standby of DATABASE_URL
	// to which the Overview, the exports, the network and the back-tests read
	// (docs/guide/read-replica.md); ReplicaMaxLag (COMPLYD_DATABASE_REPLICA_MAX_LAG, default 10s) is
	// the lag above which they read from the primary, ReplicaProbeEvery
	// (COMPLYD_DATABASE_REPLICA_PROBE_INTERVAL, default 1s) how often the lag is measured.
	ReplicaURL          string
	ReplicaMaxLag       time.Duration
	ReplicaProbeEvery   time.Duration
	IdentitySandboxPath string
	// IdentitySandbox enables the embedded sandbox identity provider, whose registry is
	// fictitious: `dev` enables it; `serve` only with COMPLYD_IDENTITY_SANDBOX_ENABLED=true (a
	// test environment), and never charges for its answers there (docs/guide/identity-providers.md).
	IdentitySandbox bool
	// ChargeSandbox charges the wallet for the sandbox's answers, as production providers are
	// charged: `dev` only, so that the wallet can be tried end to end.
	ChargeSandbox bool
	// CORSOrigins is COMPLYD_CORS_ORIGINS: the origins allowed to call the API from a browser
	// (cors.go); empty allows none.
	CORSOrigins          map[string]bool
	S3Endpoint, S3Bucket string
	S3Region             string
	S3AccessKeyID        string
	S3SecretAccessKey    string
	// BlobSecret signs the embedded store's download links (COMPLYD_BLOB_SECRET; default derived
	// from COMPLYD_JWT_SECRET).
	BlobSecret string
	// PublicURL is the origin complyd is reached at, for download links (COMPLYD_PUBLIC_URL;
	// default http://COMPLYD_ADDR).
	PublicURL string
	// CredentialsKey seals BYOL provider credentials at rest (COMPLYD_CREDENTIALS_KEY; default
	// derived from COMPLYD_JWT_SECRET).
	CredentialsKey string
	// IdentityAllowPrivate lets BYOL provider URLs be http and on private addresses (tests, dev).
	IdentityAllowPrivate bool
	// SanctionsRefresh is the period of the official list download (COMPLYD_SANCTIONS_REFRESH,
	// a Go duration such as 24h); 0 = off. The addresses can be overridden (mirrors, tests).
	SanctionsRefresh time.Duration
	SanctionsOFACURL string
	SanctionsUNURL   string
	// FtM scheduled update (docs/guide/watchlists.md "Scheduled update"): every FtMRefresh, the delta
	// index at FtMDeltaURL is read and its versions newer than FtMList's are applied; when the
	// list has no version yet, FtMEntitiesURL is imported first. Addresses pass the outgoing-URL
	// guard (internal/outbound) unless FtMAllowPrivate (tests, dev).
	FtMRefresh      time.Duration
	FtMList         string
	FtMEntitiesURL  string
	FtMDeltaURL     string
	FtMAllowPrivate bool
	// ListMaxAge is the age past which a global list is stale (COMPLYD_SANCTIONS_MAX_AGE, days;
	// default 8: OFAC and UN publish at least weekly); ListMaxAgeByList overrides it per list
	// (COMPLYD_SANCTIONS_MAX_AGE_LISTS="OFAC-SDN=8,OPENSANCTIONS=2").
	ListMaxAge       int
	ListMaxAgeByList map[string]int
	// ExpectedLists are the global lists a missing one of is a warning
	// (COMPLYD_SANCTIONS_EXPECTED_LISTS, comma-separated; default OFAC-SDN,UN-SC; "none" for none).
	ExpectedLists []string
	// PprofAddr serves net/http/pprof (COMPLYD_PPROF_ADDR): a loopback address only, so that
	// profiles (which show request data in flight) never leave the host.
	PprofAddr string
	// HTTP bounds request bodies, headers and read times (COMPLYD_HTTP_*; zero fields take their
	// defaults).
	HTTP httpLimits
}

func loadConfig(devMode bool) (config, error) {
	return loadConfigURL(devMode, os.Getenv("DATABASE_URL"))
}

// loadConfigURL reads the configuration with databaseURL as DATABASE_URL (loadCLIConfig finds it
// in .complyd/env when the environment has none).
func loadConfigURL(devMode bool, databaseURL string) (config, error) {
	c := config{
		DatabaseURL:         databaseURL,
		Addr:                envOr("COMPLYD_ADDR", "127.0.0.1:8080"),
		JWTSecret:           os.Getenv("COMPLYD_JWT_SECRET"),
		BlobDir:             envOr("COMPLYD_BLOB_DIR", "./.complyd/blobs"),
		SMTPURL:             os.Getenv("COMPLYD_SMTP_URL"),
		MailFrom:            envOr("COMPLYD_MAIL_FROM", "no-reply@localhost"),
		CookieSecure:        !devMode,
		LookupPrice:         envOr("COMPLYD_LOOKUP_PRICE", "100"),
		LowBalanceThreshold: envOr("COMPLYD_LOW_BALANCE_THRESHOLD", ""),
		IdentitySandboxPath: os.Getenv("COMPLYD_IDENTITY_SANDBOX"),
		CORSOrigins:         parseOrigins(os.Getenv("COMPLYD_CORS_ORIGINS")),
		S3Endpoint:          os.Getenv("COMPLYD_S3_ENDPOINT"),
		S3Bucket:            os.Getenv("COMPLYD_S3_BUCKET"),
		S3Region:            envOr("COMPLYD_S3_REGION", "us-east-1"),
		S3AccessKeyID:       os.Getenv("AWS_ACCESS_KEY_ID"),
		S3SecretAccessKey:   os.Getenv("AWS_SECRET_ACCESS_KEY"),
		BlobSecret:          os.Getenv("COMPLYD_BLOB_SECRET"),
		PublicURL:           os.Getenv("COMPLYD_PUBLIC_URL"),
		CredentialsKey:      os.Getenv("COMPLYD_CREDENTIALS_KEY"),
		SanctionsOFACURL:    envOr("COMPLYD_SANCTIONS_OFAC_URL", sanctionshttp.OFACBaseURL),
		SanctionsUNURL:      envOr("COMPLYD_SANCTIONS_UN_URL", sanctionshttp.UNURL),
		GoamlSchema:         strings.TrimSpace(os.Getenv("COMPLYD_GOAML_SCHEMA")),
		GoamlSchemas:        os.Getenv("COMPLYD_GOAML_SCHEMAS"),
		Xmllint:             os.Getenv("COMPLYD_XMLLINT"),
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.Addr
	}
	if v := strings.TrimSpace(os.Getenv("COMPLYD_SANCTIONS_REFRESH")); v != "" && v != "0" && v != "off" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute {
			return c, fmt.Errorf("COMPLYD_SANCTIONS_REFRESH must be a duration of at least 1m (e.g. 24h), or off")
		}
		c.SanctionsRefresh = d
	}
	c.AccessTTL = auth.AccessTTL
	if v := strings.TrimSpace(os.Getenv("COMPLYD_ACCESS_TTL")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Second || d > 24*time.Hour {
			return c, fmt.Errorf("COMPLYD_ACCESS_TTL must be a duration between 10s and 24h (e.g. 15m)")
		}
		c.AccessTTL = d
	}
	var err error
	if err = loadListsConfig(&c, devMode); err != nil {
		return c, err
	}
	if c.HTTP, err = loadHTTPLimits(); err != nil {
		return c, err
	}
	if c.PprofAddr, err = loopbackAddr("COMPLYD_PPROF_ADDR", os.Getenv("COMPLYD_PPROF_ADDR")); err != nil {
		return c, err
	}
	if c.WebhookAllowPrivate, err = envBool("COMPLYD_WEBHOOK_ALLOW_PRIVATE", devMode); err != nil {
		return c, err
	}
	if c.IdentityAllowPrivate, err = envBool("COMPLYD_IDENTITY_ALLOW_PRIVATE", devMode); err != nil {
		return c, err
	}
	if c.IdentitySandbox, err = envBool("COMPLYD_IDENTITY_SANDBOX_ENABLED", devMode); err != nil {
		return c, err
	}
	c.ChargeSandbox = devMode
	if c.RateLimitAPI, err = envInt("COMPLYD_RATE_LIMIT_API", 100); err != nil {
		return c, err
	}
	if c.RateLimitScreening, err = envInt("COMPLYD_RATE_LIMIT_SCREENING", 5000); err != nil {
		return c, err
	}
	if c.DBMaxConns, err = envInt("COMPLYD_DB_MAX_CONNS", 32); err != nil {
		return c, err
	}
	c.ReplicaURL = strings.TrimSpace(os.Getenv("COMPLYD_DATABASE_REPLICA_URL"))
	if c.ReplicaMaxLag, err = envPositiveDuration("COMPLYD_DATABASE_REPLICA_MAX_LAG", postgres.DefaultReplicaMaxLag); err != nil {
		return c, err
	}
	if c.ReplicaProbeEvery, err = envPositiveDuration("COMPLYD_DATABASE_REPLICA_PROBE_INTERVAL", postgres.DefaultReplicaProbeEvery); err != nil {
		return c, err
	}
	if c.ScreeningCommitters, err = envInt("COMPLYD_SCREENING_COMMITTERS", 1); err != nil {
		return c, err
	}
	if c.ScreeningReaders, err = envInt("COMPLYD_SCREENING_READERS", 1); err != nil {
		return c, err
	}
	if c.ScreeningMaxBatch, err = envInt("COMPLYD_SCREENING_MAX_BATCH", 256); err != nil {
		return c, err
	}
	linger, err := envInt("COMPLYD_SCREENING_LINGER_US", 2000)
	if err != nil {
		return c, err
	}
	c.ScreeningLinger = time.Duration(linger) * time.Microsecond
	readLinger, err := envInt("COMPLYD_SCREENING_READ_LINGER_US", 1000)
	if err != nil {
		return c, err
	}
	c.ScreeningReadLinger = time.Duration(readLinger) * time.Microsecond
	caseLinger, err := envInt("COMPLYD_SCREENING_CASE_LINGER_US", 0)
	if err != nil {
		return c, err
	}
	c.ScreeningCaseLinger = time.Duration(caseLinger) * time.Microsecond
	c.ScreeningDeadline = 2 * time.Second
	if v := strings.TrimSpace(os.Getenv("COMPLYD_SCREENING_DEADLINE")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return c, fmt.Errorf("COMPLYD_SCREENING_DEADLINE must be a duration such as 2s (0 for none)")
		}
		c.ScreeningDeadline = d
	}
	if c.ScreeningMaxQueue, err = envInt("COMPLYD_SCREENING_MAX_QUEUE", 1024); err != nil {
		return c, err
	}
	if c.ScreeningMaxInFlight, err = envInt("COMPLYD_SCREENING_MAX_IN_FLIGHT", 128); err != nil {
		return c, err
	}
	if c.ScreeningMaxQueueWait, err = envPositiveDuration("COMPLYD_SCREENING_MAX_QUEUE_WAIT", 100*time.Millisecond); err != nil {
		return c, err
	}
	if c.ScreeningStreamMaxQueueWait, err = envPositiveDuration("COMPLYD_SCREENING_STREAM_MAX_QUEUE_WAIT", time.Second); err != nil {
		return c, err
	}
	if !devMode {
		if c.DatabaseURL == "" {
			return c, fmt.Errorf("DATABASE_URL is required (or use `complyd dev`)")
		}
		if len(c.JWTSecret) < 32 {
			return c, fmt.Errorf("COMPLYD_JWT_SECRET is required and must be at least 32 characters")
		}
	}
	return c, nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func envBool(k string, def bool) (bool, error) {
	v := strings.TrimSpace(os.Getenv(k))
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: %w", k, err)
	}
	return b, nil
}

func envInt(k string, def int) (int, error) {
	v := strings.TrimSpace(os.Getenv(k))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s must be a non-negative integer", k)
	}
	return n, nil
}

// loopbackAddr returns addr when it is empty or a host:port on a loopback address, and an error
// naming the variable otherwise.
func loopbackAddr(name, addr string) (string, error) {
	if addr == "" {
		return "", nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err == nil {
		ip := net.ParseIP(host)
		if host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return addr, nil
		}
	}
	return "", fmt.Errorf("%s must be a loopback host:port such as 127.0.0.1:6060 (got %q): profiles must not be reachable from the network", name, addr)
}

// envPositiveDuration reads a positive Go duration (100ms, 1s) from name, def when unset.
func envPositiveDuration(name string, def time.Duration) (time.Duration, error) {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s must be a positive duration such as %s", name, def)
	}
	return d, nil
}
