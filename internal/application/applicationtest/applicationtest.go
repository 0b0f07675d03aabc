// Package applicationtest wires the KYC and KYB services for tests as internal/app does: over
// real PostgreSQL (internal/pgtest), the sandbox identity registry, a file blob store and an
// empty sanctions matcher. The application core's tests, review's, lookup's and kyb's use it.
package applicationtest

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/application"
	"github.com/complyd/complyd/internal/fsblob"
	"github.com/complyd/complyd/internal/identity"
	"github.com/complyd/complyd/internal/kyb"
	"github.com/complyd/complyd/internal/kyc"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/sanctions"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

// Options change the wiring: Price is what the wallet charges a paid call (zero: free);
// Unbilled wraps the sandbox as `serve` runs it outside dev (its answers are free).
type Options struct {
	Price    decimal.Decimal
	Unbilled bool
}

// Services are the wired services and what they share.
type Services struct {
	Wallet     *wallet.Service
	Providers  identity.ProvidersFunc
	Biometrics *identity.Biometrics
	Matcher    *sanctions.Matcher
	Blobs      *fsblob.Store
	KYC        *kyc.Service
	KYB        *kyb.Service
}

// New wires the services over db.
func New(t testing.TB, db *postgres.DB, o Options) Services {
	t.Helper()
	det, err := identity.NewFaceDetector(0)
	require.NoError(t, err)
	bio := identity.NewBiometrics(det)
	var sandbox identity.Provider = identity.NewSandbox(identity.DefaultRegistry(), bio)
	if o.Unbilled {
		sandbox = identity.Unbilled(sandbox)
	}
	blobs, err := fsblob.NewStore(t.TempDir(), "http://127.0.0.1/blobs", []byte("application-test-secret-32-bytes"))
	require.NoError(t, err)
	s := Services{Wallet: wallet.NewService(postgres.NewWalletStore(db), o.Price, nil), Biometrics: bio, Matcher: sanctions.NewMatcher(),
		Blobs: blobs, Providers: func(context.Context, tenancy.TenantID) (identity.Providers, identity.ProviderConfig, error) {
			return identity.Providers{Embedded: sandbox}, identity.ProviderConfig{Mode: identity.SourceEmbedded}, nil
		}}
	log := slog.New(slog.DiscardHandler)
	shared := application.Deps{Wallet: s.Wallet, Providers: s.Providers, Matcher: s.Matcher, Blobs: blobs, Now: time.Now, Logger: log}
	s.KYC = kyc.NewService(kyc.Deps{Store: applicationstore.NewKYCStore(db), Biometrics: bio, Deps: shared})
	s.KYB = kyb.NewService(kyb.Deps{Store: applicationstore.NewKYBStore(db), Deps: shared})
	return s
}
