package app

import (
	"context"
	"fmt"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/tenancy"
)

func (s *testServer) networkClient(proto string, c cred) complydv1connect.NetworkServiceClient {
	hc, opts := s.clientOpts(proto, c)
	return complydv1connect.NewNetworkServiceClient(hc, s.URL, opts...)
}

func (s *testServer) customerClient(proto string, c cred) complydv1connect.CustomerServiceClient {
	hc, opts := s.clientOpts(proto, c)
	return complydv1connect.NewCustomerServiceClient(hc, s.URL, opts...)
}

// storeTransfer stores a screened transfer as the screening store would (as the admin).
func (s *testServer) storeTransfer(tenantID tenancy.TenantID, from, bvn, to, outcome string, amount int) {
	s.t.Helper()
	_, err := s.admin().Exec(context.Background(), `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency,
  amount_ngn, sender_account_number, sender_bvn, sender_name, receiver_account_number, transaction_timestamp, verdict_id, outcome,
  risk_level, aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
values (gen_random_uuid(), $1, 'net-' || gen_random_uuid(), 'TRANSFER', 'MOBILE', $5, 'NGN', $5, $2, nullif($3, ''), 'S', $4,
  now() - interval '1 hour', 'vrd', $6, 'LOW', 10, '{}', '[]', 5, now(), now())`, string(tenantID), from, bvn, to, amount, outcome)
	require.NoError(s.t, err)
}

type graphJSON struct {
	Nodes []struct {
		Account string
		Hop     int
		Seed    bool
	}
	Edges []struct {
		From, To, Kind, Total string
		Count                 int
	}
	Findings []struct {
		Kind, Account, Total string
		Accounts             []string
		Count                int
	}
	Truncated bool
}

// TestNetworkAndCustomerAPI: the network and customer services over /api/v1, Connect and gRPC,
// with their permissions and tenant isolation.
func TestNetworkAndCustomerAPI(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)
	_, otherAdmin := s.tenant()

	const collector = "5550000000"
	var mules []string
	for i := range 6 {
		m := fmt.Sprintf("55500000%02d", 10+i)
		mules = append(mules, m)
		s.storeTransfer(f.ID, m, "", collector, "APPROVE", 40_000+i)
	}
	s.storeTransfer(f.ID, collector, "", "5550000099", "APPROVE", 200_000)

	// REST: the fan-in is found; the graph holds the collector, six mules and the receiver.
	var g graphJSON
	s.rest("GET", "/api/v1/network/accounts/"+collector+"?query.hops=1", cred{Bearer: auditor}, nil).decode(t, &g)
	require.Len(t, g.Nodes, 8)
	require.False(t, g.Truncated)
	require.Len(t, g.Findings, 1)
	require.Equal(t, "FAN_IN", g.Findings[0].Kind)
	require.Equal(t, collector, g.Findings[0].Account)
	require.Equal(t, mules, g.Findings[0].Accounts)
	require.Equal(t, "240015.00", g.Findings[0].Total)
	// A fan threshold of 7 finds nothing; a cap of 3 nodes truncates; bad bounds are 400.
	s.rest("GET", "/api/v1/network/accounts/"+collector+"?query.fanThreshold=7", cred{Bearer: auditor}, nil).decode(t, &g)
	require.Empty(t, g.Findings)
	s.rest("GET", "/api/v1/network/accounts/"+collector+"?query.maxNodes=3", cred{Bearer: auditor}, nil).decode(t, &g)
	require.True(t, g.Truncated)
	require.Len(t, g.Nodes, 3)
	requireRESTError(t, s.rest("GET", "/api/v1/network/accounts/"+collector+"?query.hops=9", cred{Bearer: auditor}, nil), 400, "VALIDATION_ERROR")
	// Another tenant's graph of the same account is the account alone.
	s.rest("GET", "/api/v1/network/accounts/"+collector, cred{Bearer: otherAdmin}, nil).decode(t, &g)
	require.Len(t, g.Nodes, 1)
	require.Empty(t, g.Edges)

	// Connect and gRPC answer the same.
	for _, proto := range []string{"connect", "grpc"} {
		res, err := s.networkClient(proto, cred{Bearer: analyst}).GetAccountNetwork(context.Background(),
			connect.NewRequest(&complydv1.GetAccountNetworkRequest{Account: collector, Query: &complydv1.NetworkQuery{Hops: netPtr(int32(1))}}))
		require.NoError(t, err, proto)
		require.Len(t, res.Msg.Findings, 1, proto)
		require.Equal(t, mules, res.Msg.Findings[0].Accounts, proto)
	}

	// A finding opens a case (writers: 201); an auditor may not; a finding not in the graph is 404.
	body := map[string]any{"account": collector, "kind": "FAN_IN", "findingAccount": collector, "query": map[string]any{"hops": 1}}
	var c caseJSON
	env := s.rest("POST", "/api/v1/network/findings/case", cred{Bearer: analyst}, body)
	require.Equal(t, 201, env.Status, "%s", env.Raw)
	env.decode(t, &c)
	require.Equal(t, "OPEN", c.Status)
	requireRESTError(t, s.rest("POST", "/api/v1/network/findings/case", cred{Bearer: auditor}, body), 403, "FORBIDDEN")
	body["kind"] = "RING"
	requireRESTError(t, s.rest("POST", "/api/v1/network/findings/case", cred{Bearer: analyst}, body), 404, "NOT_FOUND")
	_, err := s.networkClient("grpc", cred{Bearer: auditor}).OpenNetworkCase(context.Background(), connect.NewRequest(&complydv1.OpenNetworkCaseRequest{
		Account: netPtr(collector), Kind: "FAN_IN", FindingAccount: collector}))
	require.Equal(t, connect.CodePermissionDenied, connect.CodeOf(err))

	// A customer from a BVN lookup, who sent from one account (one alert).
	s.credit(f, "1000", "NET-1")
	var out lookupOut
	s.lookup(analyst, "bvn", map[string]any{"bvn": "22234567801"}).decode(t, &out)
	cid := *out.ProfileID
	s.storeTransfer(f.ID, "7770000001", "22234567801", collector, "REVIEW", 90_000)

	// Not rated yet: 404; the officer recomputes (auditor may not); the rating has a history.
	requireRESTError(t, s.rest("GET", "/api/v1/customers/"+cid+"/risk", cred{Bearer: auditor}, nil), 404, "NOT_FOUND")
	requireRESTError(t, s.rest("POST", "/api/v1/customers/"+cid+"/risk/recompute", cred{Bearer: auditor}, map[string]any{}), 403, "FORBIDDEN")
	var risk struct {
		Rating       string
		Score        int
		Factors      []struct{ Name string }
		NextReviewAt string
	}
	s.rest("POST", "/api/v1/customers/"+cid+"/risk/recompute", cred{Bearer: admin}, map[string]any{}).decode(t, &risk)
	require.Equal(t, "MEDIUM", risk.Rating) // no KYC (25) + one alert (5)
	require.Equal(t, 30, risk.Score)
	require.NotEmpty(t, risk.NextReviewAt)
	var hist struct {
		Items []struct{ Rating, Reason string }
	}
	s.rest("GET", "/api/v1/customers/"+cid+"/risk-history", cred{Bearer: auditor}, nil).decode(t, &hist)
	require.Len(t, hist.Items, 1)
	require.Equal(t, "MANUAL", hist.Items[0].Reason)
	var ov struct {
		Customer struct{ ID, Name string }
		Risk     struct{ Rating string }
		Accounts []struct {
			Account      string
			Transactions int
			Alerts       int
		}
	}
	s.rest("GET", "/api/v1/customers/"+cid+"/overview", cred{Bearer: auditor}, nil).decode(t, &ov)
	require.Equal(t, cid, ov.Customer.ID)
	require.Equal(t, "MEDIUM", ov.Risk.Rating)
	require.Len(t, ov.Accounts, 1)
	require.Equal(t, 1, ov.Accounts[0].Alerts)
	for _, proto := range []string{"connect", "grpc"} {
		res, err := s.customerClient(proto, cred{Bearer: auditor}).GetCustomerRisk(context.Background(),
			connect.NewRequest(&complydv1.GetCustomerRiskRequest{Id: cid}))
		require.NoError(t, err, proto)
		require.Equal(t, "MEDIUM", res.Msg.Rating, proto)
		sr, err := s.customerClient(proto, cred{Bearer: auditor}).SearchCustomers(context.Background(),
			connect.NewRequest(&complydv1.SearchCustomersRequest{Q: netPtr("adebayo"), Rating: netPtr("MEDIUM")}))
		require.NoError(t, err, proto)
		require.Len(t, sr.Msg.Items, 1, proto)
		require.Equal(t, cid, sr.Msg.Items[0].Id, proto)
	}
	var due struct{ Total int }
	s.rest("GET", "/api/v1/customers/reviews/due", cred{Bearer: auditor}, nil).decode(t, &due)
	require.Zero(t, due.Total)
	requireRESTError(t, s.rest("POST", "/api/v1/customers/"+cid+"/reviews", cred{Bearer: admin}, map[string]any{"note": ""}), 400, "VALIDATION_ERROR")
	s.rest("POST", "/api/v1/customers/"+cid+"/reviews", cred{Bearer: admin}, map[string]any{"note": "checked"}).decode(t, &risk)

	// The customer's network starts from its account and reaches the collector's fan-in.
	s.rest("GET", "/api/v1/customers/"+cid+"/network?query.hops=2", cred{Bearer: auditor}, nil).decode(t, &g)
	require.Equal(t, "7770000001", g.Nodes[0].Account)
	require.True(t, g.Nodes[0].Seed)
	require.NotEmpty(t, g.Findings)

	// Another tenant: 404 everywhere.
	requireRESTError(t, s.rest("GET", "/api/v1/customers/"+cid+"/overview", cred{Bearer: otherAdmin}, nil), 404, "NOT_FOUND")
	requireRESTError(t, s.rest("GET", "/api/v1/customers/"+cid+"/risk-history", cred{Bearer: otherAdmin}, nil), 404, "NOT_FOUND")
	requireRESTError(t, s.rest("GET", "/api/v1/customers/"+cid+"/network", cred{Bearer: otherAdmin}, nil), 404, "NOT_FOUND")
}

func netPtr[T any](v T) *T { return &v }
