package connectapi

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
	complydv1 "github.com/complyd/complyd/internal/gen/complyd/v1"
)

// TestScreeningTimestampZeroInstant: 0001-01-01T00:00:00Z is Go's zero time, which screening
// reads as "not given". It is refused where it is parsed, naming the range, instead of passing
// to screening's validation and coming back as "timestamp is required" for a timestamp that was
// sent (found by FuzzScreenTransactionJSON; its crasher is kept in the seed corpus). The next
// nanosecond is in range.
func TestScreeningTimestampZeroInstant(t *testing.T) {
	req := func(ts string) *complydv1.ScreenTransactionRequest {
		return &complydv1.ScreenTransactionRequest{ExternalId: "t-1", Type: "TRANSFER", Channel: "MOBILE_APP",
			Amount: 1, SenderAccountNumber: "0123456789", SenderName: "Ada", Timestamp: ts}
	}
	for _, ts := range []string{"0001-01-01T00:00:00Z", "0001-01-01T00:00Z", "0001-01-01T01:00:00+01:00"} {
		_, err := transactionFromProto(req(ts))
		e, ok := apperr.As(err)
		require.True(t, ok, "%s: %v", ts, err)
		require.Equal(t, apperr.Validation, e.Code, ts)
		require.Len(t, e.Details, 1, ts)
		require.Equal(t, "timestamp", e.Details[0].Field, ts)
		require.Contains(t, e.Details[0].Message, "after 0001-01-01T00:00:00Z", ts)
	}
	tx, err := transactionFromProto(req("0001-01-01T00:00:00.000000001Z"))
	require.NoError(t, err)
	require.Equal(t, time.Time{}.Add(time.Nanosecond), tx.Timestamp)
}
