package postgres

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInsertTextsAreSquirrels pins the written-out inserts of the coalesced tables to the text
// squirrel builds for the same columns, which coalescibleInsert recognises, and their shapes
// to the generic path's.
func TestInsertTextsAreSquirrels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sql   string
		table string
		cols  []string
	}{
		{insertCaseSQL, "cases", []string{"id", "tenant_id", "case_number", "type", "priority", "title", "description", "status",
			"assigned_to", "related_transaction_id", "related_kyc_application_id", "tags", "resolved_at", "resolution_note",
			"created_by", "created_at", "updated_at"}},
		{insertCaseEventSQL, "case_events", []string{"id", "tenant_id", "case_id", "event_type", "actor_id", "description",
			"previous_value", "new_value", "metadata", "created_at"}},
		{insertAuditSQL, "audit_events", []string{"id", "tenant_id", "actor_id", "actor_type", "action", "resource_type",
			"resource_id", "before", "after", "ip_address", "request_id", "created_at"}},
		{insertNotificationSQL, "notifications", []string{"id", "tenant_id", "user_id", "kind", "title", "message", "case_id",
			"created_at"}},
		{insertEmailSQL, "emails", []string{"id", "tenant_id", "kind", "to_address", "subject", "text_body", "html_body", "created_at"}},
		{insertWebhookDeliverySQL, "webhook_deliveries", []string{"id", "tenant_id", "event_id", "event", "url", "payload", "status",
			"attempts", "next_attempt_at", "created_at"}},
	} {
		vals := make([]any, len(tc.cols))
		want, _, err := psql.Insert(tc.table).Columns(tc.cols...).Values(vals...).ToSql()
		require.NoError(t, err)
		require.Equal(t, want, tc.sql)
		width, ok := coalescibleInsert(tc.sql, len(tc.cols))
		require.True(t, ok)
		require.Equal(t, len(tc.cols), width)
		prefix := want[:strings.LastIndex(want, " VALUES (")+len(" VALUES ")]
		require.Len(t, shapes[tc.sql].texts, maxChunk)
		for n := 1; n <= maxChunk; n++ {
			require.Equal(t, multiRowInsert(prefix, width, n), shapes[tc.sql].texts[n-1])
		}
		_, ok = coalescibleInsert(tc.sql, len(tc.cols)-1)
		require.False(t, ok)
	}
}
