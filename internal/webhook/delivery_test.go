package webhook

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

type fixedJitter float64

func (f fixedJitter) Float64() float64 { return float64(f) }

func TestNextAttemptDelay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		attempt int
		rnd     Jitter
		want    time.Duration
	}{
		{0, nil, 10 * time.Second},
		{1, nil, 10 * time.Second},
		{2, nil, time.Minute},
		{3, nil, 5 * time.Minute},
		{4, nil, 30 * time.Minute},
		{5, nil, 0},
		{6, fixedJitter(0.5), 0},
		{1, fixedJitter(0), 8 * time.Second},
		{1, fixedJitter(0.5), 10 * time.Second},
		{4, fixedJitter(0), 24 * time.Minute},
		{4, fixedJitter(0.999999), 36 * time.Minute},
	}
	for _, tt := range tests {
		require.InDelta(t, tt.want, NextAttemptDelay(tt.attempt, tt.rnd), float64(time.Millisecond), "attempt %d", tt.attempt)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		d := NextAttemptDelay(2, r)
		require.GreaterOrEqual(t, d, 48*time.Second)
		require.Less(t, d, 72*time.Second)
	}
}

func TestDeliveryLifecycle(t *testing.T) {
	t.Parallel()
	p := NewPayload("t1", EventCaseCreated, map[string]any{"caseId": "case_1"}, now)
	d, err := NewDelivery("https://bank.example/hooks", p, now)
	require.NoError(t, err)
	require.Regexp(t, `^whd_`, d.ID)
	require.Equal(t, StatusPending, d.Status)
	require.Equal(t, p.ID, d.EventID)
	require.Equal(t, now, *d.NextAttemptAt)
	require.Equal(t, Message{DeliveryID: d.ID, EventID: p.ID, Event: EventCaseCreated, Body: d.Payload}, d.Message())

	at := now
	for i := 1; i < MaxAttempts; i++ {
		require.True(t, d.RecordFailure(503, errors.New("status 503"), at, nil))
		require.Equal(t, StatusFailed, d.Status)
		require.Equal(t, i, d.Attempts)
		require.Equal(t, 503, *d.LastStatusCode)
		require.Equal(t, at.Add(NextAttemptDelay(i, nil)), *d.NextAttemptAt)
		at = *d.NextAttemptAt
	}
	require.False(t, d.RecordFailure(0, errors.New("connection refused"), at, nil))
	require.Equal(t, StatusDead, d.Status)
	require.Equal(t, MaxAttempts, d.Attempts)
	require.Equal(t, "connection refused", d.LastError)
	require.Nil(t, d.NextAttemptAt)
	require.Equal(t, at, *d.DeadAt)

	require.False(t, d.Expired(at.Add(DeadLetterRetention-time.Second)))
	require.True(t, d.Expired(at.Add(DeadLetterRetention)))
	require.Equal(t, apperr.NotFound, apperr.CodeOf(d.Retry(at.Add(DeadLetterRetention))))

	retryAt := at.Add(time.Hour)
	require.NoError(t, d.Retry(retryAt))
	require.Equal(t, StatusPending, d.Status)
	require.Zero(t, d.Attempts)
	require.Nil(t, d.DeadAt)
	require.Equal(t, p.ID, d.EventID, "the event id survives a manual retry")

	d.RecordSuccess(204, retryAt)
	require.Equal(t, StatusDelivered, d.Status)
	require.Equal(t, retryAt, *d.DeliveredAt)
	require.Nil(t, d.NextAttemptAt)
	require.Equal(t, apperr.InvalidStatusTransition, apperr.CodeOf(d.Retry(retryAt)))
}

func TestDeliverArgs(t *testing.T) {
	t.Parallel()
	require.Equal(t, "webhook_deliver", DeliverArgs{}.Kind())
}
