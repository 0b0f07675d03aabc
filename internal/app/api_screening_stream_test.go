package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/auth"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/screening"
	"github.com/complyd/complyd/internal/tenancy"
)

// streamProtocols are the protocols that carry a bidirectional stream (HTTP/2 only).
var streamProtocols = []string{"grpc", "connect-h2"}

func (s *testServer) txClient(proto string, c cred) complydv1connect.TransactionServiceClient {
	hc, opts := s.clientOpts(proto, c)
	return complydv1connect.NewTransactionServiceClient(hc, s.URL, opts...)
}

// streamReq is a valid streamed screening request: a transfer of amount from account.
func streamReq(extID, account string, amount float64) *complydv1.ScreenTransactionRequest {
	return &complydv1.ScreenTransactionRequest{ExternalId: extID, Type: "TRANSFER", Channel: "API", Amount: amount,
		SenderAccountNumber: account, SenderBvn: strp("22212345678"), SenderName: "Ada Obi",
		Timestamp: time.Now().UTC().Format(time.RFC3339Nano)}
}

// streamAll sends reqs on one stream, closes its side and returns every answer in arrival
// order, and the stream's error. It calls no require, so it may run off the test goroutine.
func streamAll(c complydv1connect.TransactionServiceClient, reqs []*complydv1.ScreenTransactionRequest) ([]*complydv1.ScreenTransactionsItem, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := c.ScreenTransactionStream(ctx)
	var items []*complydv1.ScreenTransactionsItem
	recvErr := make(chan error, 1)
	go func() {
		for {
			it, err := st.Receive()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				recvErr <- err
				return
			}
			items = append(items, it)
		}
	}()
	for _, r := range reqs {
		// Send fails with io.EOF when the server ended the stream; Receive then says why.
		if err := st.Send(r); err != nil {
			if !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("send: %w", err)
			}
			break
		}
	}
	if err := st.CloseRequest(); err != nil {
		return nil, fmt.Errorf("close request: %w", err)
	}
	err := <-recvErr
	if cerr := st.CloseResponse(); cerr != nil && err == nil {
		err = cerr
	}
	return items, err
}

// byExternalID groups answers by externalId.
func byExternalID(items []*complydv1.ScreenTransactionsItem) map[string][]*complydv1.ScreenTransactionsItem {
	out := map[string][]*complydv1.ScreenTransactionsItem{}
	for _, it := range items {
		out[it.ExternalId] = append(out[it.ExternalId], it)
	}
	return out
}

// TestScreeningStream pipes valid, duplicate, invalid and repeated messages through one stream
// per protocol: every message gets exactly one answer, failures are items, the stream goes on,
// and the screened transactions are stored.
func TestScreeningStream(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	type tenantBundle struct {
		f     tenancy.TenantID
		admin string
	}
	setup := func() tenantBundle {
		f, admin := s.kycTenant()
		return tenantBundle{f: f.ID, admin: admin}
	}
	for _, proto := range streamProtocols {
		t.Run(proto, func(t *testing.T) {
			b := setup()
			c := s.txClient(proto, cred{Bearer: b.admin})
			ctx := context.Background()

			// Stored before the stream: the stream's copy of it is a duplicate.
			stored := streamReq(ext("stream-stored"), "0123456789", 700)
			orig, err := c.ScreenTransaction(ctx, connect.NewRequest(stored))
			require.NoError(t, err)

			run := ext("stream-" + proto)
			var reqs []*complydv1.ScreenTransactionRequest
			valid := map[string]*complydv1.ScreenTransactionRequest{}
			for i := range 50 {
				r := streamReq(fmt.Sprintf("%s-%02d", run, i), fmt.Sprintf("01234567%02d", i), float64(1000+i))
				if i%10 == 0 { // a cash deposit at the CTR threshold: AML-001, not APPROVE
					r.Type, r.Channel, r.Amount = "CASH_DEPOSIT", "BRANCH", 5_000_000
				}
				valid[r.ExternalId] = r
				reqs = append(reqs, r)
				if i == 24 {
					dup := streamReq(stored.ExternalId, "0123456789", 700)
					// A bad account number (the core checks it too) and a bad IP address (only
					// the proto's constraints do): both are reported, so protovalidate ran.
					invalid := streamReq(run+"-invalid", "12AB", 10)
					invalid.IpAddress = strp("not-an-ip")
					reqs = append(reqs, dup, invalid)
				}
			}
			repeated := streamReq(run+"-03", "0123456703", 99) // the externalId of an earlier message
			reqs = append(reqs, repeated)

			items, err := streamAll(c, reqs)
			require.NoError(t, err)
			require.Len(t, items, len(reqs), "one answer per message")
			got := byExternalID(items)
			require.Len(t, got, 52, "50 valid + the stored duplicate + the invalid")

			dup := got[stored.ExternalId]
			require.Len(t, dup, 1)
			require.Nil(t, dup[0].Result)
			require.Equal(t, "DUPLICATE_EXTERNAL_ID", dup[0].Error.GetCode())
			require.Equal(t, orig.Msg.TransactionId, dup[0].Error.Data.AsMap()["transactionId"])
			require.Equal(t, orig.Msg.Outcome, dup[0].Error.Data.AsMap()["outcome"])

			bad := got[run+"-invalid"]
			require.Len(t, bad, 1)
			require.Nil(t, bad[0].Result)
			require.Equal(t, "VALIDATION_ERROR", bad[0].Error.GetCode())
			fields := make([]string, 0, len(bad[0].Error.Details))
			for _, d := range bad[0].Error.Details {
				fields = append(fields, d.Field)
			}
			require.ElementsMatch(t, []string{"senderAccountNumber", "ipAddress"}, fields)

			// The repeated externalId raced its first message: exactly one of the two was
			// screened and the other is its duplicate, with the winner's verdict.
			rep := got[repeated.ExternalId]
			require.Len(t, rep, 2)
			winner, loser := rep[0], rep[1]
			if winner.Result == nil {
				winner, loser = loser, winner
			}
			require.NotNil(t, winner.Result)
			require.Equal(t, "DUPLICATE_EXTERNAL_ID", loser.Error.GetCode())
			require.Equal(t, winner.Result.TransactionId, loser.Error.Data.AsMap()["transactionId"])

			ids := map[string]bool{}
			for id, req := range valid {
				if id == repeated.ExternalId {
					continue
				}
				answers := got[id]
				require.Len(t, answers, 1, id)
				res := answers[0].Result
				require.NotNil(t, res, "%s: %v", id, answers[0].Error)
				require.Nil(t, answers[0].Error)
				require.Equal(t, id, res.ExternalId)
				require.NotEmpty(t, res.TransactionId)
				require.Len(t, res.RiskBreakdown, 6)
				if req.Type == "CASH_DEPOSIT" {
					require.NotEqual(t, "APPROVE", res.Outcome, id)
					require.Contains(t, triggeredNames(res), "AML-001", id)
				} else {
					require.Equal(t, "APPROVE", res.Outcome, id)
				}
				ids[res.TransactionId] = true
			}
			ids[winner.Result.TransactionId] = true
			require.Len(t, ids, 50, "distinct transactions")

			// Stored: 50 from the stream and the one before it; the invalid and the
			// duplicates are not.
			list, err := c.ListTransactions(ctx, connect.NewRequest(&complydv1.ListTransactionsRequest{Limit: int32p(100)}))
			require.NoError(t, err)
			require.EqualValues(t, 51, list.Msg.Total)
			for _, it := range list.Msg.Items {
				require.NotEqual(t, run+"-invalid", it.ExternalId)
				if it.ExternalId != stored.ExternalId {
					require.True(t, ids[it.Id], "listed %s was answered", it.ExternalId)
				}
			}
			for _, id := range []string{run + "-00", run + "-01", run + "-49"} {
				res := got[id][0].Result
				tx, err := c.GetTransaction(ctx, connect.NewRequest(&complydv1.GetTransactionRequest{Id: res.TransactionId}))
				require.NoError(t, err)
				require.Equal(t, id, tx.Msg.ExternalId)
				require.Equal(t, res.Outcome, tx.Msg.Verdict.Outcome)
				require.Equal(t, valid[id].SenderAccountNumber, tx.Msg.SenderAccountNumber.GetValue())
			}
		})
	}

	// A stream is one call in the metrics (and the access log), observed when it ends.
	res, err := http.Get(s.URL + "/metrics")
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	for _, proto := range []string{"grpc", "connect"} {
		require.Contains(t, string(body), `complyd_rpc_requests_total{code="ok",procedure="`+
			complydv1connect.TransactionServiceScreenTransactionStreamProcedure+`",protocol="`+proto+`"} 1`)
	}
	// The screening store's batches are observed by stage: every screening was read and
	// committed in some batch (102 valid screenings over the two protocols), and some opened
	// a case.
	for _, stage := range []string{"read", "commit", "case"} {
		m := regexp.MustCompile(`complyd_screening_batch_size_sum\{stage="` + stage + `"\} (\d+)`).FindStringSubmatch(string(body))
		require.NotNil(t, m, "no batch size metric of stage %s", stage)
		n, _ := strconv.Atoi(m[1])
		require.Positive(t, n, stage)
		require.Contains(t, string(body), `complyd_screening_batch_duration_seconds_count{stage="`+stage+`"}`)
	}
}

func triggeredNames(r *complydv1.ScreeningResult) string {
	names := make([]string, 0, len(r.TriggeredRules))
	for _, tr := range r.TriggeredRules {
		names = append(names, tr.Name)
	}
	return strings.Join(names, ",")
}

func int32p(v int32) *int32 { return &v }

// TestScreeningStreamRefused: only writers may open a stream (AUDITOR is read-only), and a
// stream without credentials is unauthenticated; nothing is screened.
func TestScreeningStreamRefused(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, nil)
	f, admin := s.tenant()
	_, auditor := s.userWithRole(f.ID, auth.RoleAuditor)
	_, analyst := s.userWithRole(f.ID, auth.RoleAnalyst)
	for _, proto := range streamProtocols {
		items, err := streamAll(s.txClient(proto, cred{Bearer: auditor}), []*complydv1.ScreenTransactionRequest{
			streamReq(ext("refused"), "0123456789", 10)})
		require.Empty(t, items)
		code, info := errorInfo(t, err)
		require.Equal(t, connect.CodePermissionDenied, code, proto)
		require.Equal(t, "FORBIDDEN", info.Code, proto)

		items, err = streamAll(s.txClient(proto, cred{}), []*complydv1.ScreenTransactionRequest{
			streamReq(ext("anonymous"), "0123456789", 10)})
		require.Empty(t, items)
		code, info = errorInfo(t, err)
		require.Equal(t, connect.CodeUnauthenticated, code, proto)
		require.Equal(t, "UNAUTHENTICATED", info.Code, proto)

		items, err = streamAll(s.txClient(proto, cred{Bearer: analyst}), []*complydv1.ScreenTransactionRequest{
			streamReq(ext("analyst"), "0123456789", 10)})
		require.NoError(t, err, "an ANALYST screens")
		require.Len(t, items, 1)
		require.NotNil(t, items[0].Result, "%v", items[0].Error)
	}
	list, err := s.txClient("grpc", cred{Bearer: admin}).ListTransactions(context.Background(),
		connect.NewRequest(&complydv1.ListTransactionsRequest{}))
	require.NoError(t, err)
	require.EqualValues(t, len(streamProtocols), list.Msg.Total, "only the ANALYST's screenings are stored")
}

// TestScreeningStreamRateLimit: every streamed message and every batch item counts against the
// tenant's screening ceiling; one over it is a RATE_LIMITED item and the stream goes on.
func TestScreeningStreamRateLimit(t *testing.T) {
	t.Parallel()
	const perSecond = 5
	s := newTestServer(t, &serverOpts{Config: func(c *config) { c.RateLimitScreening = perSecond }})

	for _, proto := range streamProtocols {
		_, admin := s.kycTenant()
		c := s.txClient(proto, cred{Bearer: admin})
		run := ext("limit-" + proto)
		var reqs []*complydv1.ScreenTransactionRequest
		for i := range 3 * perSecond {
			reqs = append(reqs, streamReq(fmt.Sprintf("%s-%d", run, i), "0123456789", float64(100+i)))
		}
		items, err := streamAll(c, reqs)
		require.NoError(t, err, proto)
		require.Len(t, items, len(reqs), "every message is answered, limited or not")
		var ok, limited int
		for _, it := range items {
			if it.Result != nil {
				ok++
				continue
			}
			require.Equal(t, "RATE_LIMITED", it.Error.GetCode(), proto)
			require.Positive(t, it.Error.Data.AsMap()["retryAfterMs"], proto)
			limited++
		}
		// The burst is one second's worth; the messages arrive within far less than a second.
		require.GreaterOrEqual(t, ok, perSecond, proto)
		require.Less(t, ok, 2*perSecond, proto)
		require.Equal(t, len(reqs), ok+limited)

		// The batch counts each item too: with the budget spent, its items are refused one by one.
		batch, err := c.ScreenTransactions(context.Background(), connect.NewRequest(&complydv1.ScreenTransactionsRequest{
			Transactions: []*complydv1.ScreenTransactionRequest{streamReq(run+"-b1", "0123456789", 1), streamReq(run+"-b2", "0123456789", 2),
				streamReq(run+"-b3", "0123456789", 3), streamReq(run+"-b4", "0123456789", 4), streamReq(run+"-b5", "0123456789", 5),
				streamReq(run+"-b6", "0123456789", 6), streamReq(run+"-b7", "0123456789", 7), streamReq(run+"-b8", "0123456789", 8)}}))
		require.NoError(t, err, proto)
		limited = 0
		for _, it := range batch.Msg.Items {
			if it.GetError().GetCode() == "RATE_LIMITED" {
				limited++
			}
		}
		require.GreaterOrEqual(t, limited, 8-perSecond, "%s: a batch of 8 items is 8 requests", proto)
	}

	// A fresh tenant's batch larger than its burst: each item counts, the excess is refused.
	_, admin := s.tenant()
	var in []*complydv1.ScreenTransactionRequest
	run := ext("limit-batch")
	for i := range 2 * perSecond {
		in = append(in, streamReq(fmt.Sprintf("%s-%d", run, i), "0123456789", float64(10+i)))
	}
	batch, err := s.txClient("grpc", cred{Bearer: admin}).ScreenTransactions(context.Background(),
		connect.NewRequest(&complydv1.ScreenTransactionsRequest{Transactions: in}))
	require.NoError(t, err)
	var limited int
	for _, it := range batch.Msg.Items {
		if it.GetError().GetCode() == "RATE_LIMITED" {
			limited++
		}
	}
	require.GreaterOrEqual(t, limited, perSecond-1, "items beyond the burst are refused")
	require.Less(t, limited, 2*perSecond, "the burst is screened")
}

// holdingScreener blocks the sanctions screening of names starting with "Hold" until released,
// counting how many are held at once.
type holdingScreener struct {
	release chan struct{}
	held    atomic.Int32
	peak    atomic.Int32
}

func (h *holdingScreener) Screen(ctx context.Context, _ tenancy.TenantID, q screening.NameQuery) ([]screening.NameHit, error) {
	if !strings.HasPrefix(q.Name, "Hold") {
		return nil, nil
	}
	n := h.held.Add(1)
	defer h.held.Add(-1)
	for {
		p := h.peak.Load()
		if n <= p || h.peak.CompareAndSwap(p, n) {
			break
		}
	}
	select {
	case <-h.release:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestScreeningStreamBackpressure: a stream has at most 512 screenings in flight; the server
// reads no further message until one completes, then answers them all.
func TestScreeningStreamBackpressure(t *testing.T) {
	t.Parallel()
	hs := &holdingScreener{release: make(chan struct{})}
	// 512 screenings at once on a shared machine: no engine may miss its deadline (the test
	// server's patientEngines).
	s := newTestServer(t, &serverOpts{Screener: hs})
	_, admin := s.kycTenant()
	const inFlight, total = 512, 600

	var reqs []*complydv1.ScreenTransactionRequest
	run := ext("held")
	for i := range total {
		r := streamReq(fmt.Sprintf("%s-%03d", run, i), fmt.Sprintf("01234%05d", i), 100)
		r.SenderName = fmt.Sprintf("Hold Sender %d", i)
		reqs = append(reqs, r)
	}
	done := make(chan struct{})
	var items []*complydv1.ScreenTransactionsItem
	var streamErr error
	var once sync.Once
	release := func() { once.Do(func() { close(hs.release) }) }
	t.Cleanup(release)
	go func() {
		defer close(done)
		items, streamErr = streamAll(s.txClient("grpc", cred{Bearer: admin}), reqs)
	}()
	filled := assert.Eventually(t, func() bool {
		select {
		case <-done:
			return true // the stream ended without filling its bound: reported below
		default:
			return hs.held.Load() == inFlight
		}
	}, 30*time.Second, 10*time.Millisecond)
	if !filled || hs.held.Load() != inFlight {
		// Say why: the screenings answered instead of held, by error code.
		release()
		<-done
		codes := map[string]int{}
		for _, it := range items {
			if it.Result == nil {
				codes[it.Error.GetCode()]++
			}
		}
		t.Fatalf("the stream did not fill its in-flight bound: %d held at most, stream error %v, %d answered, errors by code %v",
			hs.peak.Load(), streamErr, len(items), codes)
	}
	time.Sleep(300 * time.Millisecond) // the reader would have gone on by now, were it not bounded
	require.EqualValues(t, inFlight, hs.peak.Load(), "no more than the bound is in flight")
	release()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("stream did not finish after release")
	}
	require.NoError(t, streamErr)
	require.Len(t, items, total)
	for _, it := range items {
		require.NotNil(t, it.Result, "%s: %v", it.ExternalId, it.Error)
	}
}
