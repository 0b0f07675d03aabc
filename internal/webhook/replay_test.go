package webhook

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/apperr"
)

// TestDeliveryReplay: every status × replay. Only a finished delivery (DELIVERED, or DEAD and
// not yet purgeable) re-opens, with its attempts and end times cleared.
func TestDeliveryReplay(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	recent, old := now.Add(-time.Hour), now.Add(-DeadLetterRetention-time.Second)
	code := 200
	for _, tc := range []struct {
		name   string
		d      Delivery
		want   apperr.Code
		replay bool
	}{
		{"pending", Delivery{Status: StatusPending, Attempts: 0}, apperr.InvalidStatusTransition, false},
		{"failed", Delivery{Status: StatusFailed, Attempts: 2}, apperr.InvalidStatusTransition, false},
		{"delivered", Delivery{Status: StatusDelivered, Attempts: 1, DeliveredAt: &recent, LastStatusCode: &code}, "", true},
		{"dead", Delivery{Status: StatusDead, Attempts: MaxAttempts, DeadAt: &recent}, "", true},
		{"dead past retention", Delivery{Status: StatusDead, Attempts: MaxAttempts, DeadAt: &old}, apperr.NotFound, false},
	} {
		d := tc.d
		err := d.Replay(now)
		if !tc.replay {
			e, ok := apperr.As(err)
			require.True(t, ok, tc.name)
			require.Equal(t, tc.want, e.Code, tc.name)
			require.Equal(t, tc.d, d, "%s: unchanged", tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		require.Equal(t, StatusPending, d.Status, tc.name)
		require.Zero(t, d.Attempts, tc.name)
		require.Nil(t, d.DeliveredAt, tc.name)
		require.Nil(t, d.DeadAt, tc.name)
		require.Equal(t, now, *d.NextAttemptAt, tc.name)
	}
}
