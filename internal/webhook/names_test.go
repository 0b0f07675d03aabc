package webhook_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/cases"
	"github.com/complyd/complyd/internal/webhook"
)

// TestCaseEventNames pins the event names cases repeats (it must not import webhook).
func TestCaseEventNames(t *testing.T) {
	t.Parallel()
	require.Equal(t, webhook.EventCaseCreated, cases.WebhookCaseCreated)
	require.Equal(t, webhook.EventCaseResolved, cases.WebhookCaseResolved)
	require.Equal(t, webhook.EventInterdictionRequested, cases.WebhookInterdictionRequested)
	require.Equal(t, webhook.EventInterdictionLifted, cases.WebhookInterdictionLifted)
	require.Len(t, webhook.Events(), 12)
}
