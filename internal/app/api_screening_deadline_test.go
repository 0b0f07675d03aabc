package app

import (
	"context"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// TestScreeningServerDeadline: a screening that arrives without a deadline of its own (every
// /api/v1 call, a gRPC or Connect call without grpc-timeout / Connect-Timeout-Ms) gets the
// server's default budget (COMPLYD_SCREENING_DEADLINE); one that cannot finish within it is
// answered SERVICE_UNAVAILABLE with Retry-After at once and stores nothing, instead of being
// worked on after its caller has given up (issue 15 point 1). A caller's own deadline wins.
func TestScreeningServerDeadline(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.ScreeningDeadline = time.Nanosecond }})
	_, admin := s.kycTenant()
	ctx := context.Background()
	stored := func(extID string) int {
		var n int
		require.NoError(t, s.admin().QueryRow(ctx, "select count(*) from transactions where external_id = $1", extID).Scan(&n))
		return n
	}

	id := ext("deadline-rest")
	env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, screenBody(id, "0123456789", 1000))
	requireRESTError(t, env, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	require.Equal(t, "1", env.Header.Get("Retry-After"), "%s", env.Raw)
	require.Zero(t, stored(id), "a screening over budget is not stored")

	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: admin})
		c := complydv1connect.NewTransactionServiceClient(hc, s.URL, opts...)
		req := func(id string) *connect.Request[complydv1.ScreenTransactionRequest] {
			return connect.NewRequest(&complydv1.ScreenTransactionRequest{ExternalId: id, Type: "TRANSFER", Channel: "API",
				Amount: 100, SenderAccountNumber: "0123456789", SenderBvn: strp("22212345678"), SenderName: "Ada Obi",
				Timestamp: time.Now().UTC().Format(time.RFC3339)})
		}
		id := ext("deadline-" + proto)
		_, err := c.ScreenTransaction(ctx, req(id))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeUnavailable, code, proto)
		require.Equal(t, "SERVICE_UNAVAILABLE", info.Code, proto)
		require.Zero(t, stored(id), proto)

		// The caller's own deadline replaces the server's default.
		own, cancel := context.WithTimeout(ctx, time.Minute)
		res, err := c.ScreenTransaction(own, req(id))
		cancel()
		require.NoError(t, err, proto)
		require.Equal(t, "APPROVE", res.Msg.Outcome, proto)
		require.Equal(t, 1, stored(id), proto)
	}
}
