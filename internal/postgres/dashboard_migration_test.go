package postgres_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/complyd/complyd/internal/pgtest"
	"github.com/complyd/complyd/internal/postgres"
)

// TestDashboardMigrationCountsStoredRows: migration 0018 counts what an older release stored
// (screenings with their triggered rules, webhook deliveries, KYC and KYB applications) into the
// rollups once, so that the Overview of an upgraded database shows its history.
func TestDashboardMigrationCountsStoredRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.Empty(t)
	require.NoError(t, postgres.MigrateUpToForTest(ctx, url, 17))
	conn := adminConn(ctx, t, url)
	tenant := uuid.NewString()
	_, err := conn.Exec(ctx, `insert into tenants (id, name, slug) values ($1, 'Old Bank', $2)`, tenant, "old-"+tenant[:8])
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, sender_name, transaction_timestamp, verdict_id, outcome, risk_level, aggregate_score, actions,
		engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'old-' || g, 'TRANSFER', 'MOBILE_APP', 100, 'NGN', 100, '1', 'A',
		  '2026-01-10T10:00:00Z'::timestamptz + g * interval '20 minutes', 'v' || g,
		  case when g <= 2 then 'APPROVE' else 'BLOCK' end, case when g <= 2 then 'LOW' else 'CRITICAL' end, 0, '{}',
		  case when g <= 2 then '[]'::jsonb else '[{"category":"Regulatory Compliance","rules":[{"id":"AML-001","name":"One"}]},
		    {"category":"Custom Rules","rules":[{"id":"R-9","name":"Nine"}]}]'::jsonb end, 1, now(), now()
		from generate_series(1, 5) g`, tenant)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `insert into webhook_deliveries (id, tenant_id, event_id, event, url, payload, status, created_at)
		values ('w1', $1, 'e1', 'case.created', 'http://x', '\x00', 'DELIVERED', '2026-01-10T10:00:00Z'),
		       ('w2', $1, 'e2', 'case.created', 'http://x', '\x00', 'DEAD', '2026-01-10T10:30:00Z')`, tenant)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `insert into kyc_applications (id, tenant_id, entity_type, first_name, last_name, status)
		values ('k1', $1, 'INDIVIDUAL', 'A', 'B', 'APPROVED')`, tenant)
	require.NoError(t, err)

	require.NoError(t, postgres.Migrate(ctx, url, slog.New(slog.DiscardHandler)))

	type row struct {
		Key string
		N   int64
	}
	sums := func(sql string) map[string]int64 {
		rows, err := conn.Query(ctx, sql, tenant)
		require.NoError(t, err)
		defer rows.Close()
		out := map[string]int64{}
		for rows.Next() {
			var r row
			require.NoError(t, rows.Scan(&r.Key, &r.N))
			out[r.Key] = r.N
		}
		require.NoError(t, rows.Err())
		return out
	}
	require.Equal(t, map[string]int64{"2026-01-10 10:00 APPROVE LOW": 2, "2026-01-10 11:00 BLOCK CRITICAL": 3},
		sums(`select to_char(bucket at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' ' || outcome || ' ' || risk_level, sum(screenings)::int8
			from screening_rollups where tenant_id = $1 group by 1`))
	require.Equal(t, map[string]int64{"AML-001 One": 3, "R-9 Nine": 3},
		sums(`select rule_id || ' ' || rule_name, sum(hits)::int8 from screening_rule_rollups where tenant_id = $1
			and bucket = '2026-01-10T00:00:00Z' group by 1`))
	require.Equal(t, map[string]int64{"webhook_delivery DELIVERED": 1, "webhook_delivery DEAD": 1, "kyc APPROVED": 1},
		sums(`select kind || ' ' || status, sum(n)::int8 from status_rollups where tenant_id = $1 group by 1`))

	// Down and up again: the same counts, once.
	require.NoError(t, postgres.MigrateDownToForTest(ctx, url, 17))
	require.NoError(t, postgres.Migrate(ctx, url, slog.New(slog.DiscardHandler)))
	require.Equal(t, map[string]int64{"webhook_delivery DELIVERED": 1, "webhook_delivery DEAD": 1, "kyc APPROVED": 1},
		sums(`select kind || ' ' || status, sum(n)::int8 from status_rollups where tenant_id = $1 group by 1`))
}
