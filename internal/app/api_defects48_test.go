package app

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// TestWaivedLookupAnswers is issue 48 point 7a: on `serve` with the sandbox enabled (its answers
// are free), direct lookups answered 500 (the waived call's empty hold id went into a uuid
// column). Each lookup type answers 200, charges nothing, holds nothing, over REST and Connect.
func TestWaivedLookupAnswers(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.IdentitySandbox, c.ChargeSandbox = true, false }})
	f, _ := s.tenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	s.credit(f, "300", "LK-W")
	for kind, body := range map[string]map[string]any{"bvn": {"bvn": "22234567801"}, "nin": {"nin": "70100000000"}, "cac": {"rcNumber": "RC1234567"}} {
		env := s.lookup(analyst, kind, body)
		require.Equal(t, http.StatusOK, env.Status, "%s: %s", kind, env.Raw)
		var out lookupOut
		env.decode(t, &out)
		require.Equal(t, "0.00", out.Charged, kind)
		require.Equal(t, "300.00", out.Balance, kind)
	}
	hc, opts := s.clientOpts("connect", cred{Bearer: analyst})
	res, err := complydv1connect.NewLookupServiceClient(hc, s.URL, opts...).LookupBvn(context.Background(),
		connect.NewRequest(&complydv1.LookupBvnRequest{Bvn: "22234567801"}))
	require.NoError(t, err)
	require.True(t, res.Msg.Found)
	balance, held, _ := s.walletState(f)
	require.Equal(t, "300", balance.String())
	require.True(t, held.IsZero(), "no hold is left behind")
}

// TestEngineWeightNaN is issue 48 point 7b: a weight of NaN answered 500; it is a 400
// VALIDATION_ERROR on weight over REST (the JSON string "NaN" a double accepts) and Connect.
func TestEngineWeightNaN(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.tenant()
	for _, w := range []any{"NaN", "Infinity"} {
		env := s.rest("PATCH", "/api/v1/engines/DECISION", cred{Bearer: admin}, map[string]any{"weight": w, "reason": "x"})
		requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
		require.Contains(t, string(env.Raw), "weight")
	}
	hc, opts := s.clientOpts("connect", cred{Bearer: admin})
	nan := math.NaN()
	_, err := complydv1connect.NewEngineServiceClient(hc, s.URL, opts...).UpdateEngine(context.Background(),
		connect.NewRequest(&complydv1.UpdateEngineRequest{Key: "DECISION", Weight: &nan, Reason: "x"}))
	code, info := errorInfo(t, err)
	require.Equal(t, connect.CodeInvalidArgument, code)
	require.Equal(t, "VALIDATION_ERROR", info.Code)
	env := s.rest("GET", "/api/v1/engines", cred{Bearer: admin}, nil)
	require.Equal(t, http.StatusOK, env.Status, "the configuration still reads: %s", env.Raw)
}

// TestScreeningAmountBeyondFloat is issue 48 point 7c: 123456789012345678 sent as a JSON number
// was stored as 123456789012345680. An amount a double cannot hold to the cent is refused with
// VALIDATION_ERROR on amount, over REST, Connect and gRPC, and nothing is stored. The bound is
// 2^46 (70,368,744,177,664): from there a double's spacing exceeds a cent, so 80000000000000.01
// would be stored as 80000000000000.02 (2^53/100, the earlier bound, let it through). Below it
// the amount stored is the amount sent, to the cent.
func TestScreeningAmountBeyondFloat(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	stored := func(externalID string) (n int, amount string) {
		require.NoError(t, s.admin().QueryRow(context.Background(), "select count(*), coalesce(max(amount)::text, '') from transactions where external_id = $1",
			externalID).Scan(&n, &amount))
		return n, amount
	}
	for _, amount := range []string{"123456789012345678", "80000000000000.01", "90071992547409.91", "70368744177664"} {
		body := screenBody(ext("big"), newAccount(), 0)
		body["amount"] = json.Number(amount)
		env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, body)
		requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
		require.Contains(t, string(env.Raw), `"field":"amount"`, amount)
		n, _ := stored(body["externalId"].(string))
		require.Zero(t, n, amount)

		f, err := strconv.ParseFloat(amount, 64)
		require.NoError(t, err)
		for _, proto := range []string{"connect", "grpc"} {
			hc, opts := s.clientOpts(proto, cred{Bearer: admin})
			req := &complydv1.ScreenTransactionRequest{ExternalId: ext("big"), Type: "TRANSFER", Channel: "MOBILE_APP", Amount: f,
				SenderAccountNumber: newAccount(), SenderName: "Ada Obi", Timestamp: body["timestamp"].(string)}
			_, err := complydv1connect.NewTransactionServiceClient(hc, s.URL, opts...).ScreenTransaction(context.Background(), connect.NewRequest(req))
			code, info := errorInfo(t, err)
			require.Equal(t, connect.CodeInvalidArgument, code, "%s %s", proto, amount)
			require.Equal(t, "amount", info.Details[0].Field)
		}
	}

	// The largest amounts a double holds to the cent pass, and are stored as sent.
	for _, amount := range []string{"70368744177663.99", "70368744177663.01", "35184372088832.07"} {
		body := screenBody(ext("ok"), newAccount(), 0)
		body["amount"] = json.Number(amount)
		_, env := s.screen(admin, body)
		require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
		n, got := stored(body["externalId"].(string))
		require.Equal(t, 1, n)
		require.Equal(t, amount, strings.TrimRight(strings.TrimRight(got, "0"), "."), "the amount stored is the amount sent")
	}
}

// TestKYBOwnerPercentageNaN is point 7b's defect in another double: a beneficial owner's
// percentage of NaN passed the range check (every comparison with NaN is false), so it was
// stored and the application could not be answered. It is a 400 VALIDATION_ERROR on the field
// over REST (the JSON string "NaN") and Connect, and nothing is created.
func TestKYBOwnerPercentageNaN(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	for _, p := range []any{"NaN", "Infinity"} {
		env := s.rest("POST", "/api/v1/kyc/kyb/applications", cred{Bearer: admin}, map[string]any{"companyName": "NaN Holdings Limited",
			"directors": []map[string]any{{"name": "Ada Obi"}}, "beneficialOwners": []map[string]any{{"name": "Ada Obi", "percentage": p}}})
		requireRESTError(t, env, http.StatusBadRequest, "VALIDATION_ERROR")
		require.Contains(t, string(env.Raw), "beneficialOwners[0].percentage", "%v", p)
	}
	hc, opts := s.clientOpts("connect", cred{Bearer: admin})
	_, err := complydv1connect.NewKybServiceClient(hc, s.URL, opts...).CreateKybApplication(context.Background(),
		connect.NewRequest(&complydv1.CreateKybApplicationRequest{CompanyName: "NaN Holdings Limited",
			Directors:        []*complydv1.KybDirector{{Name: "Ada Obi"}},
			BeneficialOwners: []*complydv1.KybBeneficialOwner{{Name: "Ada Obi", Percentage: math.NaN()}}}))
	code, info := errorInfo(t, err)
	require.Equal(t, connect.CodeInvalidArgument, code)
	require.Equal(t, "VALIDATION_ERROR", info.Code)
	var n int
	require.NoError(t, s.admin().QueryRow(context.Background(), "select count(*) from kyb_applications where tenant_id = $1", string(f.ID)).Scan(&n))
	require.Zero(t, n)
}
