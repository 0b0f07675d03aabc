package wallet

import (
	"context"
	"log/slog"
	"time"

	"github.com/shopspring/decimal"

	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/tenancy"
)

// StaleHoldAfter is how old a hold must be before the next reservation of its tenant releases
// it. Provider calls time out after at most 30 s each (BYOL timeoutMs) and a chain has at most
// two providers, so a hold this old belongs to a process that died between reserve and settle.
const StaleHoldAfter = 10 * time.Minute

// SettleTimeout bounds the detached commit of a paid call (Paid).
const SettleTimeout = 30 * time.Second

// Service applies the wallet rules over a Store at one price per paid call.
type Service struct {
	store Store
	price decimal.Decimal
	log   *slog.Logger
}

// NewService returns the service charging price (COMPLYD_LOOKUP_PRICE) per paid call.
func NewService(store Store, price decimal.Decimal, log *slog.Logger) *Service {
	if store == nil {
		panic("wallet: NewService needs a Store")
	}
	if log == nil {
		log = slog.Default()
	}
	return &Service{store: store, price: price, log: log}
}

// Price is the price of one paid call.
func (s *Service) Price() decimal.Decimal { return s.price }

// Wallet returns the tenant's wallet.
func (s *Service) Wallet(ctx context.Context, tenantID tenancy.TenantID) (Wallet, error) {
	return s.store.Wallet(ctx, tenantID)
}

// Entries pages the ledger, newest first.
func (s *Service) Entries(ctx context.Context, tenantID tenancy.TenantID, p paging.Params) (paging.Result[Entry], error) {
	return s.store.Entries(ctx, tenantID, p)
}

// Credit tops the wallet up (the platform operator's `complyd wallet credit`). Errors:
// VALIDATION_ERROR, CONFLICT (reference reused with another amount).
func (s *Service) Credit(ctx context.Context, tenantID tenancy.TenantID, actor audit.Actor, c Credit) (Wallet, error) {
	if err := c.Validate(); err != nil {
		return Wallet{}, err
	}
	if c.Description == "" {
		c.Description = "top-up"
	}
	return s.store.Credit(ctx, tenantID, c, audit.Event{
		TenantID: tenantID, Actor: actor, Action: "wallet.credited", ResourceType: "wallet", ResourceID: string(tenantID),
		After: map[string]any{"amount": c.Amount.StringFixed(2), "reference": c.Reference},
	})
}

// Reserve holds one price for a paid call about to be made. Errors: INSUFFICIENT_FUNDS.
func (s *Service) Reserve(ctx context.Context, tenantID tenancy.TenantID, purpose string) (Hold, error) {
	return s.store.Reserve(ctx, tenantID, s.price, purpose, StaleHoldAfter)
}

// Release gives h back, with a fresh context so that a cancelled request still releases; a
// failure is logged (the next reservation releases the stale hold).
func (s *Service) Release(ctx context.Context, h Hold) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.store.Release(ctx, h); err != nil {
		s.log.ErrorContext(ctx, "release wallet hold", "hold", h.ID, "tenant", h.TenantID, "err", err)
	}
}

// Paid runs one paid call under the rule of docs/guide/wallet.md:
//
//  1. reserve the price (INSUFFICIENT_FUNDS, 402, before anything is called);
//  2. call the provider, outside any database transaction; the call returns its answer and
//     its Charge (Waived when the answering provider does not bill, see Charge);
//  3. on an error (an outage is PROVIDER_UNAVAILABLE) release the hold: nothing is charged;
//  4. otherwise commit, which must settle the hold in the same transaction that stores what was
//     paid for; if commit fails the transaction rolled back, so the hold is released.
//
// commit runs on a context detached from the caller's cancellation (context.WithoutCancel,
// bounded by SettleTimeout): once the provider has answered, the answer is paid for and stored
// exactly once even if the client gave up meanwhile — a cancelled request must neither lose a
// result the tenant owes for nor leave it unpaid.
func Paid[T any](ctx context.Context, s *Service, tenantID tenancy.TenantID, purpose string,
	call func(context.Context) (T, Charge, error), commit func(context.Context, Hold, T) error) (T, error) {
	var zero T
	h, err := s.Reserve(ctx, tenantID, purpose)
	if err != nil {
		return zero, err
	}
	res, charge, err := call(ctx)
	if err != nil {
		s.Release(ctx, h)
		return zero, err
	}
	if charge == Waived {
		// A free answer: nothing is settled, and commit stores the result with a zero hold
		// (no ID, amount 0), which the stores book as no charge.
		s.Release(ctx, h)
		h = Hold{TenantID: h.TenantID, Amount: decimal.Zero, Purpose: h.Purpose}
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), SettleTimeout)
	defer cancel()
	if err := commit(cctx, h, res); err != nil {
		s.Release(ctx, h)
		return zero, err
	}
	return res, nil
}
