package app

import (
	"fmt"

	"github.com/complyd/complyd/internal/connectapi"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/postgres"
	"github.com/complyd/complyd/internal/wallet"
)

// wireWallet serves WalletService and makes the wallet (w.wallet) available to the paid
// capabilities wired after it (KYC, KYB, lookups).
func wireWallet(w *wiring) error {
	svc, err := newWalletService(w.cfg, w.db, w)
	if err != nil {
		return err
	}
	w.wallet = svc
	if t := w.cfg.LowBalanceThreshold; t != "" {
		d, err := wallet.ParseAmount("COMPLYD_LOW_BALANCE_THRESHOLD", t)
		if err != nil || d.IsNegative() {
			return fmt.Errorf("COMPLYD_LOW_BALANCE_THRESHOLD must be a non-negative decimal number of NGN, got %q", t)
		}
		if d.IsPositive() {
			w.db.SetLowBalanceThreshold(d)
		}
	}
	p, h := complydv1connect.NewWalletServiceHandler(connectapi.NewWalletHandler(svc, w.log), w.handlerOpts...)
	w.addService(complydv1connect.WalletServiceName, p, h)
	return nil
}

func newWalletService(cfg config, db *postgres.DB, w *wiring) (*wallet.Service, error) {
	price, err := wallet.ParseAmount("COMPLYD_LOOKUP_PRICE", cfg.LookupPrice)
	if err != nil || price.IsNegative() {
		return nil, errLookupPrice(cfg.LookupPrice)
	}
	log := w.log
	return wallet.NewService(postgres.NewWalletStore(db), price, log), nil
}
