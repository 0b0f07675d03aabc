package connectapi

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
	"github.com/complyd/complyd/internal/requestid"
)

func TestToConnectMapsEveryCode(t *testing.T) {
	t.Parallel()
	for code, want := range connectCodes {
		ce := ToConnect(context.Background(), slog.New(slog.DiscardHandler), apperr.New(code, "m"))
		require.Equal(t, want, ce.Code(), code)
		require.Len(t, ce.Details(), 1)
		v, err := ce.Details()[0].Value()
		require.NoError(t, err)
		require.Equal(t, string(code), v.(*complydv1.ErrorInfo).Code)
	}
}

func TestToConnectHidesInternalErrors(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx := requestid.With(context.Background(), "req_abc")
	ce := ToConnect(ctx, log, errors.New("pq: password=hunter2 connection refused"))
	require.Equal(t, connect.CodeInternal, ce.Code())
	require.NotContains(t, ce.Message(), "hunter2")
	require.Contains(t, ce.Message(), "req_abc")
	require.Contains(t, logs.String(), "connection refused", "the cause is logged for operators")
}

func TestToConnectCarriesDataAndRetryAfter(t *testing.T) {
	t.Parallel()
	e := apperr.Transition("OPEN", "CLOSED", []string{"IN_PROGRESS", "ESCALATED"})
	ce := ToConnect(context.Background(), slog.New(slog.DiscardHandler), e)
	v, _ := ce.Details()[0].Value()
	data := v.(*complydv1.ErrorInfo).Data.AsMap()
	require.Equal(t, "OPEN", data["from"])
	require.Equal(t, []any{"IN_PROGRESS", "ESCALATED"}, data["allowed"])
	rl := apperr.New(apperr.RateLimited, "slow down")
	rl.RetryAfter = 1500 * time.Millisecond
	require.Equal(t, "2", ToConnect(context.Background(), slog.New(slog.DiscardHandler), rl).Meta().Get("Retry-After"))
}
