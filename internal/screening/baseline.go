package screening

import (
	"context"
	"time"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/tenancy"
)

// BaselineWindow is how far back the prefetch reads an account's history: the window of the
// 24-hour and 60-minute counts, the amount statistics, the known devices and the last device,
// IP address and location (postgres prefetchSQL).
const BaselineWindow = 90 * 24 * time.Hour

// Baseline is a sender account's behavioral profile as the engines would see it for a
// transaction at AsOf (GET /behavioral-profiles/:accountNumber, docs/guide/behavioral-profiles.md).
// It is not a second model: History and Profile are the very values Prefetch gives the
// engines, computed by the same query.
type Baseline struct {
	AccountNumber string
	AsOf          time.Time
	// LastUpdatedAt is when the baseline last changed: the storing of the account's latest
	// screening (the baseline is derived from stored transactions, nothing else feeds it).
	LastUpdatedAt *time.Time
	History       History
	Profile       Profile
}

// BaselineStore reads baselines (internal/postgres/screenstore.BehavioralProfileStore).
type BaselineStore interface {
	// Baseline computes the account's baseline as of asOf, in the tenant. Errors: NOT_FOUND when
	// the tenant has no stored transaction from the account.
	Baseline(ctx context.Context, tenantID tenancy.TenantID, account string, asOf time.Time) (Baseline, error)
}

// BaselineService answers GET /behavioral-profiles/:accountNumber.
type BaselineService struct {
	store BaselineStore
	now   func() time.Time
}

// NewBaselineService returns the service.
func NewBaselineService(store BaselineStore, now func() time.Time) *BaselineService {
	if store == nil || now == nil {
		panic("screening: NewBaselineService needs a store and a clock")
	}
	return &BaselineService{store: store, now: now}
}

// Get returns the account's baseline now. Errors: VALIDATION_ERROR (not a 10-digit account
// number), NOT_FOUND (no stored transaction from the account).
func (s *BaselineService) Get(ctx context.Context, tenantID tenancy.TenantID, account string) (Baseline, error) {
	if len(account) != 10 || !digits(account) {
		return Baseline{}, apperr.Invalid("accountNumber", "must be a 10-digit account number")
	}
	return s.store.Baseline(ctx, tenantID, account, s.now().UTC())
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
