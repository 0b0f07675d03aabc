package connectapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"buf.build/go/protovalidate"
	"connectrpc.com/connect"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/gen/complyd/v1/complydv1connect"
	"github.com/complyd/complyd/internal/requestid"
)

// failingTransactions returns the errors the tests below expect the interceptor to map: a
// streaming handler's application error and a unary handler's unexpected one.
type failingTransactions struct {
	complydv1connect.UnimplementedTransactionServiceHandler
}

func (failingTransactions) GetTransaction(context.Context, *connect.Request[complydv1.GetTransactionRequest]) (*connect.Response[complydv1.Transaction], error) {
	return nil, fmt.Errorf("get transaction: %w", errors.New("pq: password=hunter2 connection refused"))
}

func (failingTransactions) ScreenTransactionStream(_ context.Context, stream *connect.BidiStream[complydv1.ScreenTransactionRequest, complydv1.ScreenTransactionsItem]) error {
	if _, err := stream.Receive(); err != nil {
		return err
	}
	return apperr.Transition("OPEN", "CLOSED", []string{"IN_PROGRESS"})
}

// syncBuffer is a log sink the server's goroutines write while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestErrorInterceptorThroughServer(t *testing.T) {
	t.Parallel()
	type testBundle struct {
		client complydv1connect.TransactionServiceClient
		logs   *syncBuffer
	}
	setup := func(t *testing.T, opts ...connect.ClientOption) *testBundle {
		t.Helper()
		logs := &syncBuffer{}
		log := slog.New(requestid.Handler{Handler: slog.NewTextHandler(logs, nil)})
		v, err := protovalidate.New()
		require.NoError(t, err)
		mux := http.NewServeMux()
		mux.Handle(complydv1connect.NewTransactionServiceHandler(failingTransactions{},
			Options(NewMetrics(prometheus.NewRegistry()), v, log, 0)...))
		srv := httptest.NewUnstartedServer(RequestID(mux))
		srv.EnableHTTP2 = true
		srv.StartTLS()
		t.Cleanup(srv.Close)
		return &testBundle{client: complydv1connect.NewTransactionServiceClient(srv.Client(), srv.URL, opts...), logs: logs}
	}
	infoOfErr := func(t *testing.T, err error) *complydv1.ErrorInfo {
		t.Helper()
		var ce *connect.Error
		require.ErrorAs(t, err, &ce)
		require.Len(t, ce.Details(), 1)
		v, derr := ce.Details()[0].Value()
		require.NoError(t, derr)
		info, ok := v.(*complydv1.ErrorInfo)
		require.True(t, ok, "detail is ErrorInfo, got %T", v)
		return info
	}

	for name, opts := range map[string][]connect.ClientOption{"connect": nil, "grpc": {connect.WithGRPC()}} {
		t.Run(name+"/stream apperr", func(t *testing.T) {
			t.Parallel()
			b := setup(t, opts...)
			stream := b.client.ScreenTransactionStream(context.Background())
			require.NoError(t, stream.Send(&complydv1.ScreenTransactionRequest{ExternalId: "tx-1"}))
			require.NoError(t, stream.CloseRequest())
			_, err := stream.Receive()
			require.Error(t, err)
			require.Equal(t, connect.CodeFailedPrecondition, connect.CodeOf(err))
			info := infoOfErr(t, err)
			require.Equal(t, string(apperr.InvalidStatusTransition), info.GetCode())
			require.Equal(t, "OPEN", info.GetData().AsMap()["from"])
			require.Equal(t, []any{"IN_PROGRESS"}, info.GetData().AsMap()["allowed"])
			require.NoError(t, stream.CloseResponse())
		})
		t.Run(name+"/unary internal", func(t *testing.T) {
			t.Parallel()
			b := setup(t, opts...)
			req := connect.NewRequest(&complydv1.GetTransactionRequest{Id: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f"})
			req.Header().Set("X-Request-Id", "req_h51d_test")
			_, err := b.client.GetTransaction(context.Background(), req)
			require.Equal(t, connect.CodeInternal, connect.CodeOf(err))
			var ce *connect.Error
			require.ErrorAs(t, err, &ce)
			require.Contains(t, ce.Message(), "req_h51d_test")
			require.NotContains(t, ce.Message(), "hunter2")
			require.NotContains(t, ce.Message(), "get transaction")
			info := infoOfErr(t, err)
			require.Equal(t, string(apperr.Internal), info.GetCode())
			require.NotContains(t, info.GetMessage(), "hunter2")
			require.Contains(t, b.logs.String(), "connection refused", "the cause is logged for operators")
			require.Contains(t, b.logs.String(), "req_h51d_test", "with the request id")
		})
	}
}
