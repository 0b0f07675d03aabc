package postgres_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	"github.com/complyd/complyd/internal/audit"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/wallet"
)

func TestWalletCreditIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	st := postgres.NewWalletStore(db)
	svc := wallet.NewService(st, decimal.NewFromInt(100), nil)
	ten := pgtest.Tenant(ctx, t, db)

	w, err := svc.Wallet(ctx, ten.ID)
	require.NoError(t, err)
	require.True(t, w.Balance.IsZero())

	w, err = svc.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: decimal.RequireFromString("1000.50"), Reference: "TOPUP-1"})
	require.NoError(t, err)
	require.Equal(t, "1000.50", w.Balance.StringFixed(2))
	w, err = svc.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: decimal.RequireFromString("1000.5"), Reference: "TOPUP-1"})
	require.NoError(t, err)
	require.Equal(t, "1000.50", w.Balance.StringFixed(2), "replayed reference changes nothing")
	_, err = svc.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: decimal.NewFromInt(5), Reference: "TOPUP-1"})
	require.Equal(t, apperr.Conflict, apperr.CodeOf(err))
	for _, bad := range []wallet.Credit{{Amount: decimal.Zero, Reference: "x"}, {Amount: decimal.RequireFromString("1.001"), Reference: "x"},
		{Amount: decimal.NewFromInt(1)}} {
		_, err = svc.Credit(ctx, ten.ID, audit.System, bad)
		require.Equal(t, apperr.Validation, apperr.CodeOf(err))
	}
	res, err := svc.Entries(ctx, ten.ID, paging.Params{Page: 1, Limit: 20})
	require.NoError(t, err)
	require.Equal(t, 1, res.Total)
	require.Equal(t, wallet.EntryCredit, res.Items[0].Type)
	require.Equal(t, "TOPUP-1", res.Items[0].Reference)

	other := pgtest.Tenant(ctx, t, db)
	w, err = svc.Wallet(ctx, other.ID)
	require.NoError(t, err)
	require.True(t, w.Balance.IsZero(), "wallets are per tenant")
}

func TestWalletReserveSettleRelease(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	st := postgres.NewWalletStore(db)
	svc := wallet.NewService(st, decimal.NewFromInt(100), nil)
	ten := pgtest.Tenant(ctx, t, db)

	_, err := svc.Reserve(ctx, ten.ID, "BVN")
	require.Equal(t, apperr.InsufficientFunds, apperr.CodeOf(err), "an empty wallet reserves nothing")

	_, err = svc.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: decimal.NewFromInt(250), Reference: "r1"})
	require.NoError(t, err)
	h1, err := svc.Reserve(ctx, ten.ID, "BVN")
	require.NoError(t, err)
	h2, err := svc.Reserve(ctx, ten.ID, "NIN")
	require.NoError(t, err)
	_, err = svc.Reserve(ctx, ten.ID, "NIN")
	require.Equal(t, apperr.InsufficientFunds, apperr.CodeOf(err), "250 holds two calls of 100, not three")
	e, _ := apperr.As(err)
	require.Equal(t, "50.00", e.Data["available"])

	bal, err := st.SettleForTest(ctx, h1, "BVN verification")
	require.NoError(t, err)
	require.Equal(t, "150.00", bal.StringFixed(2))
	svc.Release(ctx, h2)
	svc.Release(ctx, h2) // idempotent
	w, err := svc.Wallet(ctx, ten.ID)
	require.NoError(t, err)
	require.Equal(t, "150.00", w.Balance.StringFixed(2))
	require.True(t, w.Held.IsZero())
	sum, err := st.LedgerSum(ctx, ten.ID)
	require.NoError(t, err)
	require.True(t, sum.Equal(w.Balance), "ledger %s == balance %s", sum, w.Balance)
}

// TestWalletConcurrentCharges runs many paid calls at once against a balance that covers only
// some of them: exactly that many are charged, the rest get INSUFFICIENT_FUNDS, the balance never
// goes negative and the ledger still sums to the balance.
func TestWalletConcurrentCharges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := pgtest.DB(t)
	st := postgres.NewWalletStore(db)
	svc := wallet.NewService(st, decimal.NewFromInt(100), nil)
	ten := pgtest.Tenant(ctx, t, db)
	_, err := svc.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: decimal.NewFromInt(700), Reference: "r"})
	require.NoError(t, err)

	const callers = 20
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ok, poor, outages int
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := wallet.Paid(ctx, svc, ten.ID, "BVN", func(context.Context) (int, wallet.Charge, error) {
				time.Sleep(5 * time.Millisecond) // the provider call
				if i%5 == 0 {
					return 0, wallet.Charged, apperr.New(apperr.ProviderUnavailable, "outage")
				}
				return i, wallet.Charged, nil
			}, func(ctx context.Context, h wallet.Hold, _ int) error {
				_, err := st.SettleForTest(ctx, h, "BVN verification")
				return err
			})
			mu.Lock()
			defer mu.Unlock()
			switch apperr.CodeOf(err) {
			case "":
				ok++
			case apperr.InsufficientFunds:
				poor++
			case apperr.ProviderUnavailable:
				outages++
			default:
				t.Errorf("unexpected %v", err)
			}
		}()
	}
	wg.Wait()
	w, err := svc.Wallet(ctx, ten.ID)
	require.NoError(t, err)
	require.False(t, w.Balance.IsNegative())
	require.True(t, w.Held.IsZero())
	require.Equal(t, callers, ok+poor+outages)
	require.Equal(t, decimal.NewFromInt(700-100*int64(ok)).StringFixed(2), w.Balance.StringFixed(2))
	require.LessOrEqual(t, ok, 7)
	sum, err := st.LedgerSum(ctx, ten.ID)
	require.NoError(t, err)
	require.True(t, sum.Equal(w.Balance))
	res, err := svc.Entries(ctx, ten.ID, paging.Params{Page: 1, Limit: 100})
	require.NoError(t, err)
	require.Equal(t, ok+1, res.Total, "one credit plus one charge per paid call; outages leave no entry")
}

// BenchmarkWalletCharge measures the cost of the charge itself: Reserve (one transaction) plus
// the settle of the hold (one transaction: close the hold, conditional debit, ledger entry,
// low-balance check), with no provider call. Run: just bench-lookups
func BenchmarkWalletCharge(b *testing.B) {
	ctx := context.Background()
	db, _ := pgtest.Fresh(b)
	st := postgres.NewWalletStore(db)
	svc := wallet.NewService(st, decimal.NewFromInt(100), nil)
	ten := pgtest.Tenant(ctx, b, db)
	if _, err := svc.Credit(ctx, ten.ID, audit.System, wallet.Credit{Amount: decimal.NewFromInt(1_000_000_000), Reference: "BENCH"}); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		h, err := svc.Reserve(ctx, ten.ID, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.SettleForTest(ctx, h, "bench charge"); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
