package main

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
)

// fakeStreamServer answers each streamed request after a random delay (so answers come back
// out of order): a result, or by sequence number a duplicate or a validation error.
type fakeStreamServer struct {
	complydv1connect.UnimplementedTransactionServiceHandler
	mu    sync.Mutex
	keys  []string
	peers map[string]bool
}

func (f *fakeStreamServer) ScreenTransactionStream(ctx context.Context, st *connect.BidiStream[complydv1.ScreenTransactionRequest, complydv1.ScreenTransactionsItem]) error {
	f.mu.Lock()
	f.keys = append(f.keys, st.RequestHeader().Get("X-API-Key"))
	f.peers[st.Peer().Addr] = true
	f.mu.Unlock()
	var mu sync.Mutex
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		m, err := st.Receive()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
			it := &complydv1.ScreenTransactionsItem{ExternalId: m.ExternalId}
			seq, _ := seqOf(m.ExternalId)
			switch seq % 10 {
			case 3:
				it.Error = &complydv1.ErrorInfo{Code: "DUPLICATE_EXTERNAL_ID", Message: "already screened"}
			case 7:
				it.Error = &complydv1.ErrorInfo{Code: "VALIDATION_ERROR", Message: "bad"}
			case 8:
				it.Error = &complydv1.ErrorInfo{Code: "SERVICE_UNAVAILABLE", Message: "screening is over capacity; retry shortly"}
			default:
				it.Result = &complydv1.ScreeningResult{ExternalId: m.ExternalId, Outcome: "APPROVE"}
			}
			mu.Lock()
			defer mu.Unlock()
			_ = st.Send(it)
		}()
	}
}

func TestStreamDriver(t *testing.T) {
	t.Parallel()
	fake := &fakeStreamServer{peers: map[string]bool{}}
	mux := http.NewServeMux()
	mux.Handle(complydv1connect.NewTransactionServiceHandler(fake))
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	t.Cleanup(srv.Close)

	o := options{url: srv.URL, rate: 1000, conns: 3}
	d, err := newStreamDriver(context.Background(), o, apiKeyCred("key-1"))
	require.NoError(t, err)
	t.Cleanup(d.close) // before srv.Close, which waits for the open streams
	mix := newMix(100, "test-run")

	// Two drives on the same streams, as warm-up and measured run do: the second's sequence
	// numbers continue the first's and its bookkeeping must not see the first's answers.
	for _, dur := range []time.Duration{200 * time.Millisecond, 500 * time.Millisecond} {
		res, err := d.drive(o, mix, dur)
		require.NoError(t, err)
		n := int(float64(o.rate) * dur.Seconds())
		require.Equal(t, n, res.scheduled)
		require.EqualValues(t, n, res.outcomes["ok"]+res.outcomes["duplicate"]+res.errors, "every request is accounted for")
		require.InDelta(t, n/10, res.outcomes["duplicate"], 1)
		require.InDelta(t, 2*n/10, res.errors, 2, "item errors other than duplicates are errors")
		require.InDelta(t, n/10, res.errorKinds["shed"], 1, "SERVICE_UNAVAILABLE is a shed, as in the unary modes")
		require.InDelta(t, n/10, res.errorKinds["other"], 1)
		require.Zero(t, res.errorKinds["timeout"])
		require.Len(t, res.lat, int(res.outcomes["ok"]+res.outcomes["duplicate"]))
		require.Positive(t, res.lat[0], "latency runs from the due time")
		require.Less(t, res.pct(0.5), 5*time.Second)
		// The second-by-second timeline the stall phase judges, as the unary modes give it.
		require.Len(t, res.seconds, (n+o.rate-1)/o.rate)
		var due, answered, errs, shed int
		for _, s := range res.seconds {
			due, answered, errs, shed = due+s.Due, answered+s.Answered, errs+s.Errors, shed+s.Shed
			if s.Answered > 0 {
				require.Positive(t, s.P99ms)
			}
		}
		require.Equal(t, n, due)
		require.EqualValues(t, len(res.lat), answered)
		require.EqualValues(t, res.errors, errs)
		require.EqualValues(t, res.errorKinds["shed"], shed)
	}
	d.close()
	fake.mu.Lock()
	defer fake.mu.Unlock()
	require.Equal(t, []string{"key-1", "key-1", "key-1"}, fake.keys, "-conns streams, with the API key")
	require.Len(t, fake.peers, 3, "each stream on its own connection")
}

func TestSeqOf(t *testing.T) {
	t.Parallel()
	seq, ok := seqOf("grpc-123-42")
	require.True(t, ok)
	require.EqualValues(t, 42, seq)
	_, ok = seqOf("no-number-x")
	require.False(t, ok)
}

// TestMixAmountsHaveCents: every amount the mix sends has at most two decimals, as the contract
// requires (a float sum such as 12.34 + 1 printed as 13.340000000000001 was refused).
func TestMixAmountsHaveCents(t *testing.T) {
	t.Parallel()
	m := newMix(200, "t")
	m.prepare(20000)
	for range 20000 {
		r := m.next()
		s := strconv.FormatFloat(r.Amount, 'f', -1, 64)
		if i := strings.IndexByte(s, '.'); i >= 0 {
			require.LessOrEqual(t, len(s)-i-1, 2, "amount %s", s)
		}
	}
}
