package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres/applicationstore"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

var extSeq atomic.Int64

// ext returns a unique externalId.
func ext(prefix string) string {
	return fmt.Sprintf("%s-%d-%d", prefix, time.Now().UnixNano(), extSeq.Add(1))
}

// kycTenant creates a tenant whose screenBody sender (BVN 22212345678) has an APPROVED TIER_3
// KYC application, and returns it with its admin's token.
func (s *testServer) kycTenant() (pgtest.TenantFixture, string) {
	f, admin := s.tenant()
	s.kycFixture(f.ID, "22212345678", "APPROVED", "TIER_3")
	return f, admin
}

// kycFixture stores a KYC application for bvn with status and tier: inserted in clear as rows
// written before migration 0011 were, then sealed as `serve` seals them at start
// (internal/postgres/kyc_pii.go), with no audit event or webhook.
func (s *testServer) kycFixture(tenantID tenancy.TenantID, bvn, status, tier string) string {
	s.t.Helper()
	id := screening.NewID("kyc_")
	_, err := s.admin().Exec(context.Background(), `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name,
		bvn, tier, status) values ($1, $2, 'INDIVIDUAL', 'Ada', 'Obi', $3, $4, $5)`, id, string(tenantID), bvn, tier, status)
	require.NoError(s.t, err)
	_, err = applicationstore.SealTenantKYCIdentifiers(context.Background(), s.DB, tenantID)
	require.NoError(s.t, err)
	return id
}

// screenBody is a valid screening request body: a transfer from an account.
func screenBody(extID, account string, amount float64) map[string]any {
	return map[string]any{"externalId": extID, "type": "TRANSFER", "channel": "MOBILE_APP", "amount": amount,
		"senderAccountNumber": account, "senderBvn": "22212345678", "senderName": "Ada Obi",
		"receiverName": "Chidi Okeke", "timestamp": time.Now().UTC().Format(time.RFC3339)}
}

type screenOut struct {
	TransactionID  string   `json:"transactionId"`
	ExternalID     string   `json:"externalId"`
	Outcome        string   `json:"outcome"`
	RiskLevel      string   `json:"riskLevel"`
	AggregateScore float64  `json:"aggregateScore"`
	Actions        []string `json:"actions"`
	CaseID         *string  `json:"caseId"`
	RiskBreakdown  []struct {
		Category       string          `json:"category"`
		Score          int             `json:"score"`
		Outcome        string          `json:"outcome"`
		RulesTriggered []string        `json:"rulesTriggered"`
		LatencyMs      int             `json:"latencyMs"`
		Fx             json.RawMessage `json:"fx"`
		Skipped        bool            `json:"skipped"`
		SkipReason     *string         `json:"skipReason"`
	} `json:"riskBreakdown"`
	TriggeredRules []struct {
		Name           string  `json:"name"`
		Category       string  `json:"category"`
		RiskScore      int     `json:"riskScore"`
		Details        string  `json:"details"`
		CreatedBy      string  `json:"createdBy"`
		KycSource      *string `json:"kycSource"`
		KycExternalRef *string `json:"kycExternalRef"`
	} `json:"triggeredRules"`
	TotalLatencyMs int `json:"totalLatencyMs"`
}

func (o screenOut) rule(name string) bool {
	for _, r := range o.TriggeredRules {
		if len(r.Name) >= len(name) && r.Name[:len(name)] == name {
			return true
		}
	}
	return false
}

// countRule is how many of outs triggered rule.
func countRule(outs []screenOut, rule string) int {
	n := 0
	for _, o := range outs {
		if o.rule(rule) {
			n++
		}
	}
	return n
}

func (s *testServer) screen(token string, body map[string]any) (screenOut, envelope) {
	s.t.Helper()
	env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: token}, body)
	var out screenOut
	if env.Success {
		env.decode(s.t, &out)
	}
	return out, env
}

func TestScreeningBasicFlowAllProtocols(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()

	// REST: approve, then read back, list and replay.
	body := screenBody(ext("basic"), "0123456789", 1000)
	out, env := s.screen(admin, body)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	require.Equal(t, "APPROVE", out.Outcome, "%s", env.Raw)
	require.Equal(t, "LOW", out.RiskLevel)
	require.Len(t, out.RiskBreakdown, 6)
	require.Nil(t, out.CaseID)

	got := s.rest("GET", "/api/v1/transactions/"+out.TransactionID, cred{Bearer: admin}, nil)
	require.Equal(t, http.StatusOK, got.Status, "%s", got.Raw)
	var detail struct {
		ID       string  `json:"id"`
		Amount   string  `json:"amount"`
		Currency string  `json:"currency"`
		Lat      *string `json:"latitude"`
		Verdict  struct {
			Outcome        string `json:"outcome"`
			EngineVerdicts []struct {
				EngineName string `json:"engineName"`
			} `json:"engineVerdicts"`
		} `json:"verdict"`
	}
	got.decode(t, &detail)
	require.Equal(t, "1000", detail.Amount)
	// The id is a uuid: anything else is a validation error, a uuid no transaction has is 404.
	requireRESTError(t, s.rest("GET", "/api/v1/transactions/not-a-uuid", cred{Bearer: admin}, nil), 400, "VALIDATION_ERROR")
	requireRESTError(t, s.rest("GET", "/api/v1/transactions/00000000-0000-4000-8000-000000000000", cred{Bearer: admin}, nil),
		404, "NOT_FOUND")
	require.Equal(t, "NGN", detail.Currency)
	require.Len(t, detail.Verdict.EngineVerdicts, 6)
	require.Equal(t, screening.CategorySanctions, detail.Verdict.EngineVerdicts[0].EngineName)

	dup := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, body)
	requireRESTError(t, dup, http.StatusConflict, "DUPLICATE_EXTERNAL_ID")
	var orig map[string]any
	require.NoError(t, json.Unmarshal(dup.Error.Data, &orig))
	require.Equal(t, out.TransactionID, orig["transactionId"])
	require.Equal(t, "APPROVE", orig["outcome"])

	list := s.rest("GET", "/api/v1/transactions?outcome=APPROVE&limit=500", cred{Bearer: admin}, nil)
	var page struct {
		Items []map[string]any `json:"items"`
		Total int              `json:"total"`
		Limit int              `json:"limit"`
	}
	list.decode(t, &page)
	require.Equal(t, 100, page.Limit)
	require.Equal(t, 1, page.Total)

	for _, proto := range []string{"connect", "grpc"} {
		hc, opts := s.clientOpts(proto, cred{Bearer: admin})
		c := complydv1connect.NewTransactionServiceClient(hc, s.URL, opts...)
		id := ext(proto)
		amt := 2500.5
		res, err := c.ScreenTransaction(context.Background(), connect.NewRequest(&complydv1.ScreenTransactionRequest{
			ExternalId: id, Type: "POS", Channel: "POS_TERMINAL", Amount: amt, SenderAccountNumber: "0123456789",
			SenderBvn: strp("22212345678"), SenderName: "Ada Obi", Timestamp: time.Now().UTC().Format(time.RFC3339Nano)}))
		require.NoError(t, err, proto)
		require.Equal(t, "APPROVE", res.Msg.Outcome, proto)
		_, err = c.ScreenTransaction(context.Background(), connect.NewRequest(&complydv1.ScreenTransactionRequest{
			ExternalId: id, Type: "POS", Channel: "POS_TERMINAL", Amount: amt, SenderAccountNumber: "0123456789",
			SenderName: "Ada Obi", Timestamp: time.Now().UTC().Format(time.RFC3339)}))
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodeAlreadyExists, code, proto)
		require.Equal(t, "DUPLICATE_EXTERNAL_ID", info.Code)
		require.Equal(t, res.Msg.TransactionId, info.Data.AsMap()["transactionId"])

		batch, err := c.ScreenTransactions(context.Background(), connect.NewRequest(&complydv1.ScreenTransactionsRequest{
			Transactions: []*complydv1.ScreenTransactionRequest{
				{ExternalId: id + "-b1", Type: "TRANSFER", Channel: "API", Amount: 10, SenderAccountNumber: "0123456789",
					SenderBvn: strp("22212345678"), SenderName: "Ada Obi", Timestamp: time.Now().UTC().Format(time.RFC3339)},
				{ExternalId: id, Type: "TRANSFER", Channel: "API", Amount: 10, SenderAccountNumber: "0123456789",
					SenderName: "Ada Obi", Timestamp: time.Now().UTC().Format(time.RFC3339)},
			}}))
		require.NoError(t, err, proto)
		require.Len(t, batch.Msg.Items, 2)
		require.NotNil(t, batch.Msg.Items[0].Result, proto)
		require.Equal(t, "DUPLICATE_EXTERNAL_ID", batch.Msg.Items[1].Error.GetCode())
	}
}

func strp(s string) *string { return &s }

// TestScreeningIdempotencyRace fires 50 identical requests at once: exactly one is screened
// and stored, the 49 others get 409 with the same original verdict.
func TestScreeningIdempotencyRace(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.kycTenant()
	body := screenBody(ext("race"), "0123456780", 5000)
	var wg sync.WaitGroup
	var ok, dup atomic.Int32
	ids := make(chan string, 100)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := s.rest("POST", "/api/v1/transactions/screen", cred{Bearer: admin}, body)
			switch env.Status {
			case http.StatusOK:
				ok.Add(1)
				var out screenOut
				env.decode(t, &out)
				ids <- out.TransactionID
			case http.StatusConflict:
				dup.Add(1)
				var orig map[string]any
				require.NoError(t, json.Unmarshal(env.Error.Data, &orig))
				ids <- orig["transactionId"].(string)
			default:
				t.Errorf("unexpected %d %s", env.Status, env.Raw)
			}
		}()
	}
	wg.Wait()
	close(ids)
	require.EqualValues(t, 1, ok.Load())
	require.EqualValues(t, 49, dup.Load())
	var first string
	for id := range ids {
		if first == "" {
			first = id
		}
		require.Equal(t, first, id)
	}
	var n int
	require.NoError(t, s.admin().QueryRow(context.Background(), `select count(*) from transactions where tenant_id = $1 and external_id = $2`,
		string(f.ID), body["externalId"]).Scan(&n))
	require.Equal(t, 1, n)
	// Stored transactions are immutable: the application role may not update them.
	_ = auth.RoleBankAdmin
	_ = pgtest.Password
}

// TestScreeningAccountBurst sends bursts from one account at the same instant, all at once:
// each screening must see the ones of the burst stored before it (history includes stored
// transactions of the same timestamp; screenings of one account are serialised from the read
// of its history to their commit), so the rules that count recent transactions fire on a
// burst exactly as on the same transactions sent one by one.
func TestScreeningAccountBurst(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	burst := func(account string, n int, amount float64) []screenOut {
		ts := time.Now().UTC().Format(time.RFC3339)
		outs := make([]screenOut, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				body := screenBody(ext(fmt.Sprintf("burst-%s-%d", account, i)), account, amount)
				body["timestamp"] = ts
				out, env := s.screen(admin, body)
				require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
				outs[i] = out
			})
		}
		wg.Wait()
		return outs
	}
	// AML-007: 5 or more in 60 minutes, this one included: the 5th and 6th of six.
	require.Equal(t, 2, countRule(burst("0700000001", 6, 1000), "AML-007"))
	// AML-003: three of 3,500,000 NGN (each under 80 % of the 10,000,000 transfer threshold)
	// total 10,500,000 in 24 hours: the third one.
	require.Equal(t, 1, countRule(burst("0700000002", 3, 3_500_000), "AML-003"))
}

// TestTransactionListDateFilters: from and to take RFC 3339 timestamps or ISO 8601 dates (a
// date range includes its last day), and a parameter that does not parse is a
// VALIDATION_ERROR naming it.
func TestTransactionListDateFilters(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	_, admin := s.kycTenant()
	body := screenBody(ext("dated"), newAccount(), 1000)
	body["timestamp"] = "2026-01-31T18:45:00Z"
	_, env := s.screen(admin, body)
	require.Equal(t, http.StatusOK, env.Status, "%s", env.Raw)
	total := func(query string) int {
		got := s.rest("GET", "/api/v1/transactions?"+query, cred{Bearer: admin}, nil)
		require.Equal(t, http.StatusOK, got.Status, "%s: %s", query, got.Raw)
		var page struct{ Total int }
		got.decode(t, &page)
		return page.Total
	}
	require.Equal(t, 1, total("from=2026-01-31&to=2026-01-31"))
	require.Equal(t, 1, total("from=2026-01-01&to=2026-01-31"))
	require.Equal(t, 0, total("from=2026-02-01"))
	require.Equal(t, 0, total("to=2026-01-30"))
	require.Equal(t, 1, total("from=2026-01-31T18:45:00Z&to=2026-01-31T18:45:00Z"))
	for _, c := range []struct{ query, field string }{
		{"from=yesterday", "from"}, {"to=2026-13-01", "to"}, {"limit=abc", "limit"},
	} {
		got := s.rest("GET", "/api/v1/transactions?"+c.query, cred{Bearer: admin}, nil)
		requireRESTError(t, got, http.StatusBadRequest, "VALIDATION_ERROR")
		var fe struct{ Field, Message string }
		require.NoError(t, json.Unmarshal(got.Error.Details[0], &fe))
		require.Equal(t, c.field, fe.Field, "%s: %s", c.query, got.Raw)
	}
}
