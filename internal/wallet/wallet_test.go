package wallet_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/tenancy"
	"github.com/complyd/complyd/internal/wallet"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestCreditValidate covers the amount rules (> 0, two decimals, at most MaxCredit) and the
// reference rule, field by field.
func TestCreditValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		c      wallet.Credit
		fields []string
	}{
		{"valid", wallet.Credit{Amount: d("1250.50"), Reference: "r"}, nil},
		{"smallest", wallet.Credit{Amount: d("0.01"), Reference: "r"}, nil},
		{"the ceiling itself", wallet.Credit{Amount: wallet.MaxCredit, Reference: "r"}, nil},
		{"zero", wallet.Credit{Amount: d("0"), Reference: "r"}, []string{"amount"}},
		{"negative", wallet.Credit{Amount: d("-5"), Reference: "r"}, []string{"amount"}},
		{"three decimals", wallet.Credit{Amount: d("10.005"), Reference: "r"}, []string{"amount"}},
		{"above the ceiling", wallet.Credit{Amount: wallet.MaxCredit.Add(d("0.01")), Reference: "r"}, []string{"amount"}},
		{"blank reference", wallet.Credit{Amount: d("1"), Reference: "   "}, []string{"reference"}},
		{"long reference", wallet.Credit{Amount: d("1"), Reference: string(make([]byte, 101))}, []string{"reference"}},
		{"both", wallet.Credit{Amount: d("0"), Reference: ""}, []string{"amount", "reference"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.c.Validate()
			if tc.fields == nil {
				require.NoError(t, err)
				return
			}
			e, ok := apperr.As(err)
			require.True(t, ok, "%v", err)
			require.Equal(t, apperr.Validation, e.Code)
			var got []string
			for _, f := range e.Details {
				got = append(got, f.Field)
			}
			require.Equal(t, tc.fields, got)
		})
	}
}

func TestParseAmount(t *testing.T) {
	t.Parallel()
	a, err := wallet.ParseAmount("amount", " 1250000.10 ")
	require.NoError(t, err)
	require.Equal(t, "1250000.10", a.StringFixed(2))
	// 0.1 + 0.2 is exactly 0.3 in decimal (it is not in float64).
	b, err := wallet.ParseAmount("amount", "0.1")
	require.NoError(t, err)
	c, err := wallet.ParseAmount("amount", "0.2")
	require.NoError(t, err)
	require.True(t, b.Add(c).Equal(d("0.3")))
	_, err = wallet.ParseAmount("topUp", "12,50")
	e, ok := apperr.As(err)
	require.True(t, ok)
	require.Equal(t, apperr.Validation, e.Code)
	require.Equal(t, "topUp", e.Details[0].Field)
}

func TestAvailable(t *testing.T) {
	t.Parallel()
	w := wallet.Wallet{Balance: d("1000.10"), Held: d("250.05")}
	require.Equal(t, "750.05", w.Available().StringFixed(2))
}

func TestChargeOr(t *testing.T) {
	t.Parallel()
	require.Equal(t, wallet.Charged, wallet.Charged.Or(wallet.Charged))
	require.Equal(t, wallet.Waived, wallet.Charged.Or(wallet.Waived))
	require.Equal(t, wallet.Waived, wallet.Waived.Or(wallet.Charged))
	require.Equal(t, wallet.Waived, wallet.Waived.Or(wallet.Waived))
	var zero wallet.Charge
	require.Equal(t, wallet.Charged, zero, "a provider that says nothing is billed")
}

type testBundle struct {
	ctx    context.Context
	store  *postgres.WalletStore
	svc    *wallet.Service
	tenant tenancy.TenantID
}

// setup gives a real wallet store, a service charging price and a tenant credited with credit.
func setup(t *testing.T, price, credit string) testBundle {
	t.Helper()
	ctx := context.Background()
	db := pgtest.DB(t)
	st := postgres.NewWalletStore(db)
	svc := wallet.NewService(st, d(price), nil)
	ten := pgtest.Tenant(ctx, t, db)
	if credit != "" {
		_, err := svc.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: d(credit), Reference: "seed"})
		require.NoError(t, err)
	}
	return testBundle{ctx: ctx, store: st, svc: svc, tenant: ten.ID}
}

func (b testBundle) wallet(t *testing.T) wallet.Wallet {
	t.Helper()
	w, err := b.svc.Wallet(b.ctx, b.tenant)
	require.NoError(t, err)
	return w
}

// TestServiceCredit: credits add exactly, default their description, are idempotent on the
// reference with the same amount and CONFLICT with another amount; the ledger lists them.
func TestServiceCredit(t *testing.T) {
	t.Parallel()
	b := setup(t, "100", "")
	w, err := b.svc.Credit(b.ctx, b.tenant, audit.System, wallet.Credit{Amount: d("0.10"), Reference: "a"})
	require.NoError(t, err)
	require.Equal(t, "0.10", w.Balance.StringFixed(2))
	w, err = b.svc.Credit(b.ctx, b.tenant, audit.System, wallet.Credit{Amount: d("0.20"), Reference: "b", Description: "bank transfer"})
	require.NoError(t, err)
	require.True(t, w.Balance.Equal(d("0.30")), "0.10 + 0.20 = %s", w.Balance)

	w, err = b.svc.Credit(b.ctx, b.tenant, audit.System, wallet.Credit{Amount: d("0.10"), Reference: "a"})
	require.NoError(t, err, "a replayed reference with the same amount")
	require.True(t, w.Balance.Equal(d("0.30")), "the replay added nothing: %s", w.Balance)
	_, err = b.svc.Credit(b.ctx, b.tenant, audit.System, wallet.Credit{Amount: d("0.11"), Reference: "a"})
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err))
	_, err = b.svc.Credit(b.ctx, b.tenant, audit.System, wallet.Credit{Amount: d("-1"), Reference: "c"})
	require.Equal(t, apperr.Validation, apperr.CodeOf(err))

	page, err := b.svc.Entries(b.ctx, b.tenant, paging.Params{Page: 1, Limit: 10})
	require.NoError(t, err)
	require.Len(t, page.Items, 2)
	require.Equal(t, "b", page.Items[0].Reference, "newest first")
	require.Equal(t, "bank transfer", page.Items[0].Description)
	require.Equal(t, "top-up", page.Items[1].Description, "the default description")
	require.Equal(t, wallet.EntryCredit, page.Items[1].Type)
	require.Equal(t, "0.30", page.Items[0].BalanceAfter.StringFixed(2))
}

// TestPaidCharged: a charged answer reaches commit with a hold of exactly the price, which stays
// held for commit's store transaction to settle (Paid does not release it).
func TestPaidCharged(t *testing.T) {
	t.Parallel()
	b := setup(t, "12.35", "100")
	var got wallet.Hold
	res, err := wallet.Paid(b.ctx, b.svc, b.tenant, "BVN check",
		func(context.Context) (string, wallet.Charge, error) { return "answer", wallet.Charged, nil },
		func(_ context.Context, h wallet.Hold, v string) error {
			require.Equal(t, "answer", v)
			got = h
			return nil
		})
	require.NoError(t, err)
	require.Equal(t, "answer", res)
	require.NotEmpty(t, got.ID)
	require.Equal(t, "BVN check", got.Purpose)
	require.True(t, got.Amount.Equal(d("12.35")), "held %s", got.Amount)
	w := b.wallet(t)
	require.Equal(t, "100.00", w.Balance.StringFixed(2))
	require.Equal(t, "12.35", w.Held.StringFixed(2))
	require.Equal(t, "87.65", w.Available().StringFixed(2))
}

// TestPaidWaived: an answer the provider waives is committed with a zero hold (no id, amount 0)
// and the reservation is given back.
func TestPaidWaived(t *testing.T) {
	t.Parallel()
	b := setup(t, "50", "100")
	var got wallet.Hold
	_, err := wallet.Paid(b.ctx, b.svc, b.tenant, "CAC lookup",
		func(context.Context) (int, wallet.Charge, error) { return 7, wallet.Waived, nil },
		func(_ context.Context, h wallet.Hold, _ int) error { got = h; return nil })
	require.NoError(t, err)
	require.Empty(t, got.ID)
	require.True(t, got.Amount.IsZero())
	require.Equal(t, b.tenant, got.TenantID)
	require.Equal(t, "CAC lookup", got.Purpose)
	w := b.wallet(t)
	require.True(t, w.Held.IsZero(), "held %s", w.Held)
	require.Equal(t, "100.00", w.Balance.StringFixed(2))
}

// TestPaidOutageReleases: a failed call (an outage) is never charged and commit never runs.
func TestPaidOutageReleases(t *testing.T) {
	t.Parallel()
	b := setup(t, "50", "100")
	_, err := wallet.Paid(b.ctx, b.svc, b.tenant, "NIN",
		func(context.Context) (int, wallet.Charge, error) {
			return 0, wallet.Charged, apperr.New(apperr.ProviderUnavailable, "down")
		},
		func(context.Context, wallet.Hold, int) error { t.Fatal("commit ran after a failed call"); return nil })
	require.Equal(t, apperr.ProviderUnavailable, apperr.CodeOf(err))
	require.True(t, b.wallet(t).Held.IsZero())
}

// TestPaidCommitFailureReleases: a commit that fails (its transaction rolled back) releases the
// hold and returns the commit's error.
func TestPaidCommitFailureReleases(t *testing.T) {
	t.Parallel()
	b := setup(t, "50", "100")
	boom := errors.New("store down")
	_, err := wallet.Paid(b.ctx, b.svc, b.tenant, "NIN",
		func(context.Context) (int, wallet.Charge, error) { return 1, wallet.Charged, nil },
		func(context.Context, wallet.Hold, int) error { return boom })
	require.ErrorIs(t, err, boom)
	w := b.wallet(t)
	require.True(t, w.Held.IsZero())
	require.Equal(t, "100.00", w.Balance.StringFixed(2))
}

// TestPaidInsufficientFunds: a wallet that cannot cover the price refuses before the provider
// is called.
func TestPaidInsufficientFunds(t *testing.T) {
	t.Parallel()
	b := setup(t, "100.01", "100")
	called := false
	_, err := wallet.Paid(b.ctx, b.svc, b.tenant, "BVN",
		func(context.Context) (int, wallet.Charge, error) { called = true; return 1, wallet.Charged, nil },
		func(context.Context, wallet.Hold, int) error { return nil })
	require.Equal(t, apperr.InsufficientFunds, apperr.CodeOf(err))
	require.False(t, called, "the provider is not called when the wallet is short")
	e, _ := apperr.As(err)
	require.Equal(t, "100.00", e.Data["available"])
}

// TestPaidCommitsAfterCancel: once the provider answered, commit runs on a context the caller's
// cancellation does not reach, so the answer is stored and paid for exactly once.
func TestPaidCommitsAfterCancel(t *testing.T) {
	t.Parallel()
	b := setup(t, "10", "100")
	ctx, cancel := context.WithCancel(b.ctx)
	var commitErr error
	_, err := wallet.Paid(ctx, b.svc, b.tenant, "BVN",
		func(context.Context) (int, wallet.Charge, error) { cancel(); return 1, wallet.Charged, nil },
		func(cctx context.Context, _ wallet.Hold, _ int) error {
			commitErr = cctx.Err()
			_, hasDeadline := cctx.Deadline()
			require.True(t, hasDeadline, "commit is bounded by SettleTimeout")
			return nil
		})
	require.NoError(t, err)
	require.NoError(t, commitErr, "the commit context is not cancelled with the caller's")
}

// TestRelease is idempotent and survives a cancelled caller.
func TestRelease(t *testing.T) {
	t.Parallel()
	b := setup(t, "30", "100")
	h, err := b.svc.Reserve(b.ctx, b.tenant, "BVN")
	require.NoError(t, err)
	require.Equal(t, "30.00", b.wallet(t).Held.StringFixed(2))
	ctx, cancel := context.WithCancel(b.ctx)
	cancel()
	b.svc.Release(ctx, h)
	b.svc.Release(b.ctx, h)
	require.True(t, b.wallet(t).Held.IsZero())
}

func TestNewServicePanicsWithoutStore(t *testing.T) {
	t.Parallel()
	require.Panics(t, func() { wallet.NewService(nil, d("1"), nil) })
	require.True(t, wallet.NewService(&postgres.WalletStore{}, d("2.5"), nil).Price().Equal(d("2.5")))
}
