package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"os"
	"time"

	"github.com/riverqueue/river"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/document"
	"github.com/complyd/complyd/internal/fsblob"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/idhttp"
	"github.com/complyd/complyd/internal/jobs"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/restapi"
	"github.com/complyd/complyd/internal/s3"
	"github.com/complyd/complyd/internal/tenancy"
)

// deriveKey derives a 32-byte key for purpose from the JWT secret (HMAC-SHA256), used when the
// dedicated variable is unset. Changing COMPLYD_JWT_SECRET then changes it too (docs/reference/configuration.md).
func deriveKey(secret, purpose string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("complyd/" + purpose))
	return m.Sum(nil)
}

// keyFrom returns the configured key (hashed to 32 bytes) or the derived one.
func keyFrom(configured, jwtSecret, purpose string) []byte {
	if configured != "" {
		h := sha256.Sum256([]byte(configured))
		return h[:]
	}
	return deriveKey(jwtSecret, purpose)
}

// newBlobs is the document store: S3 when COMPLYD_S3_ENDPOINT is set, else the embedded store
// at COMPLYD_BLOB_DIR whose links complyd serves at /blobs/ (docs/design/design-choices.md §1, docs/guide/documents.md).
func newBlobs(w *wiring) (document.Blobs, error) {
	cfg := w.cfg
	if cfg.S3Endpoint != "" {
		return s3.NewStore(s3.Config{Endpoint: cfg.S3Endpoint, Bucket: cfg.S3Bucket, Region: cfg.S3Region,
			AccessKeyID: cfg.S3AccessKeyID, SecretAccessKey: cfg.S3SecretAccessKey})
	}
	secret := cfg.BlobSecret
	if len(secret) < fsblob.MinSecretLen {
		if secret != "" {
			return nil, fmt.Errorf("COMPLYD_BLOB_SECRET must be at least %d bytes", fsblob.MinSecretLen)
		}
		secret = fmt.Sprintf("%x", deriveKey(cfg.JWTSecret, "blob-links"))
	}
	st, err := fsblob.NewStore(cfg.BlobDir, cfg.PublicURL, []byte(secret), fsblob.WithClock(w.now))
	if err != nil {
		return nil, err
	}
	w.mux.Handle("/blobs/", fsblob.Handler(st))
	return st, nil
}

func loadRegistry(path string) (*identity.Registry, error) {
	if path == "" {
		return identity.DefaultRegistry(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("COMPLYD_IDENTITY_SANDBOX: %w", err)
	}
	defer f.Close()
	reg, err := identity.LoadRegistry(f)
	if err != nil {
		return nil, fmt.Errorf("COMPLYD_IDENTITY_SANDBOX %s: %w", path, err)
	}
	return reg, nil
}

// wireKYC serves KycService, IdentityProviderService, the multipart upload route and the expiry
// job. It needs wireWallet first.
func wireKYC(w *wiring) error {
	if w.wallet == nil {
		return fmt.Errorf("wireKYC needs the wallet (wireWallet first)")
	}
	det, err := identity.NewFaceDetector(0)
	if err != nil {
		return err
	}
	bio := identity.NewBiometrics(det)
	// The sandbox answers from a fictitious registry: it runs only where enabled (dev, or an
	// operator's explicit test setting), and outside dev its answers are never charged. Without
	// it and without a tenant's BYOL provider, verification answers PROVIDER_UNAVAILABLE.
	var sandbox identity.Provider
	w.health.Identity = "none"
	if w.cfg.IdentitySandbox {
		w.health.Identity = "sandbox"
		reg, err := loadRegistry(w.cfg.IdentitySandboxPath)
		if err != nil {
			return err
		}
		sandbox = identity.NewSandbox(reg, bio)
		if !w.cfg.ChargeSandbox {
			sandbox = identity.Unbilled(sandbox)
		}
		if w.wrapEmbedded != nil {
			sandbox = w.wrapEmbedded(sandbox)
		}
	}
	blobs, err := newBlobs(w)
	if err != nil {
		return err
	}
	pstore := postgres.NewProviderConfigStore(w.db)
	allowPrivate := w.cfg.IdentityAllowPrivate
	newBYOL := func(b identity.BYOLConfig) (*idhttp.Provider, error) {
		return idhttp.New(idhttp.Config{BYOLConfig: b, AllowPrivate: allowPrivate})
	}
	configSvc := kyc.NewConfigService(pstore, func(b identity.BYOLConfig) error { _, err := newBYOL(b); return err })
	providers := func(ctx context.Context, tenantID tenancy.TenantID) (identity.Providers, identity.ProviderConfig, error) {
		s, err := pstore.ProviderSettings(ctx, tenantID)
		if err != nil {
			return identity.Providers{}, identity.ProviderConfig{}, err
		}
		ps := identity.Providers{Embedded: sandbox}
		if s.ProviderMode == string(identity.SourceBYOL) && s.BYOL != nil {
			p, err := newBYOL(*s.BYOL)
			if err != nil {
				// A stored configuration that no longer builds is treated like an outage of
				// that provider: the chain falls back per kycFallbackMode.
				w.log.WarnContext(ctx, "BYOL provider configuration unusable", "tenant", tenantID, "err", err)
			} else {
				ps.BYOL = p
			}
		}
		return ps, s.ProviderConfig(), nil
	}
	store := applicationstore.NewKYCStore(w.db)
	svc := kyc.NewService(kyc.Deps{Store: store, Biometrics: bio, Images: identity.NewDecodeBudget(w.cfg.HTTP.ImageDecodeBytes, 2*time.Second),
		Deps: application.Deps{Wallet: w.wallet, Providers: providers, Matcher: w.matcher, Blobs: blobs, Now: w.now, Logger: w.log}})

	p, h := complydv1connect.NewKycServiceHandler(connectapi.NewKYCHandler(svc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.KycServiceName, p, h)
	w.providerHandler = connectapi.NewProviderHandler(configSvc, w.log)
	p, h = complydv1connect.NewIdentityProviderServiceHandler(w.providerHandler, w.handlerOpts...)
	w.addService(complydv1connect.IdentityProviderServiceName, p, h)
	w.mux.Handle(restapi.KYCUploadPattern, restapi.KYCUpload(w.authn, svc, w.log))

	river.AddWorker(w.workers, &jobs.KYCExpiryWorker{Expirer: store, Now: w.now, Log: w.log})
	w.periodic = append(w.periodic, jobs.KYCExpiryPeriodic(time.Hour))
	w.kyc = svc
	w.identityProviders = providers
	w.blobs = blobs
	return nil
}
