package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/pgtest"
)

// credit tops a tenant's wallet up through the operator CLI code path.
func (s *testServer) credit(f pgtest.TenantFixture, amount, ref string) map[string]string {
	s.t.Helper()
	var out bytes.Buffer
	require.NoError(s.t, creditWallet(context.Background(), s.DB, &out, f.Slug, amount, ref, "", slog.New(slog.DiscardHandler)))
	var m map[string]string
	require.NoError(s.t, json.Unmarshal(out.Bytes(), &m))
	return m
}

func TestWalletAPI(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)

	env := s.rest("GET", "/api/v1/wallet", cred{Bearer: auditor}, nil)
	var w struct{ Balance, Currency string }
	env.decode(t, &w)
	require.Equal(t, "0.00", w.Balance)
	require.Equal(t, "NGN", w.Currency)

	out := s.credit(f, "1500", "PAY-1")
	require.Equal(t, "1500.00", out["balance"])
	require.Equal(t, "NGN", out["currency"])
	out = s.credit(f, "1500", "PAY-1")
	require.Equal(t, "1500.00", out["balance"], "idempotent on the reference")
	s.credit(f, "250.50", "PAY-2")

	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			if proto == "rest" {
				env := s.rest("GET", "/api/v1/wallet", cred{Bearer: admin}, nil)
				env.decode(t, &w)
				require.Equal(t, "1750.50", w.Balance)
				env = s.rest("GET", "/api/v1/wallet/transactions?limit=1", cred{Bearer: admin}, nil)
				var page struct {
					Items []struct {
						Type, Amount, BalanceAfter, Reference string
					}
					Total, Page, Limit, TotalPages int
				}
				env.decode(t, &page)
				require.Equal(t, 2, page.Total)
				require.Equal(t, 2, page.TotalPages)
				require.Equal(t, "CREDIT", page.Items[0].Type)
				require.Equal(t, "250.50", page.Items[0].Amount)
				require.Equal(t, "1750.50", page.Items[0].BalanceAfter)
				require.Equal(t, "PAY-2", page.Items[0].Reference)
				return
			}
			hc, opts := s.clientOpts(proto, cred{Bearer: admin})
			c := complydv1connect.NewWalletServiceClient(hc, s.URL, opts...)
			res, err := c.GetWallet(context.Background(), connect.NewRequest(&complydv1.GetWalletRequest{}))
			require.NoError(t, err)
			require.Equal(t, "1750.50", res.Msg.Balance)
			require.Equal(t, "100.00", res.Msg.Price)
		})
	}

	// Another tenant sees its own empty wallet.
	_, other := s.tenant()
	env = s.rest("GET", "/api/v1/wallet", cred{Bearer: other}, nil)
	env.decode(t, &w)
	require.Equal(t, "0.00", w.Balance)
	requireRESTError(t, s.rest("GET", "/api/v1/wallet", cred{}, nil), 401, "UNAUTHENTICATED")
}
