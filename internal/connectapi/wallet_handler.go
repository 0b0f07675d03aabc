package connectapi

import (
	"context"
	"log/slog"

	"connectrpc.com/connect"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/paging"
	"github.com/complyd/complyd/internal/wallet"
)

// WalletHandler serves complyd.v1.WalletService.
type WalletHandler struct {
	svc *wallet.Service
	log *slog.Logger
}

// NewWalletHandler returns the handler.
func NewWalletHandler(svc *wallet.Service, log *slog.Logger) *WalletHandler {
	return &WalletHandler{svc: svc, log: log}
}

// GetWallet implements WalletService.GetWallet.
func (h *WalletHandler) GetWallet(ctx context.Context, _ *connect.Request[complydv1.GetWalletRequest]) (*connect.Response[complydv1.Wallet], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	w, err := h.svc.Wallet(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&complydv1.Wallet{Balance: w.Balance.StringFixed(2), Currency: wallet.Currency,
		Held: w.Held.StringFixed(2), Available: w.Available().StringFixed(2), Price: h.svc.Price().StringFixed(2)}), nil
}

// ListWalletTransactions implements WalletService.ListWalletTransactions.
func (h *WalletHandler) ListWalletTransactions(ctx context.Context, req *connect.Request[complydv1.ListWalletTransactionsRequest]) (*connect.Response[complydv1.ListWalletTransactionsResponse], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := paging.New(req.Msg.Page, req.Msg.Limit, wallet.PageDefault, wallet.PageMax)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.Entries(ctx, p.TenantID, pg)
	if err != nil {
		return nil, err
	}
	out := &complydv1.ListWalletTransactionsResponse{Items: make([]*complydv1.WalletTransaction, 0, len(res.Items)),
		Total: int32(res.Total), Page: int32(res.Page), Limit: int32(res.Limit), TotalPages: int32(res.TotalPages())}
	for _, e := range res.Items {
		out.Items = append(out.Items, &complydv1.WalletTransaction{Id: e.ID, Type: string(e.Type), Amount: e.Amount.StringFixed(2),
			BalanceAfter: e.BalanceAfter.StringFixed(2), Reference: e.Reference, Description: e.Description, CreatedAt: ts(e.CreatedAt)})
	}
	return connect.NewResponse(out), nil
}
