package app

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkRuleBacktest: a draft rule back-tested over a tenant holding 120,000 stored
// transactions in the period, so the 100,000-row bound cuts the scan (truncated); 5,000
// accounts, so every row's 24-hour history is a real index probe. Reports the server's elapsed
// milliseconds per back-test, the rows scanned and matched.
//
//	go test ./internal/app -run '^$' -bench BenchmarkRuleBacktest -benchtime 3x
func BenchmarkRuleBacktest(b *testing.B) {
	s := newTestServer(b, &serverOpts{OwnDB: true})
	ten, admin := s.kycTenant()
	ctx := context.Background()
	db := s.admin()
	_, err := db.Exec(ctx, `insert into transactions (id, tenant_id, external_id, type, channel, amount, currency, amount_ngn,
		sender_account_number, receiver_account_number, sender_name, narration, transaction_timestamp, verdict_id, outcome, risk_level,
		aggregate_score, actions, engine_verdicts, total_latency_ms, processed_at, created_at)
		select gen_random_uuid(), $1, 'bt-' || g, 'TRANSFER', 'MOBILE_APP', 100 + g % 5000, 'NGN', 100 + g % 5000,
		  lpad((3000000000 + g % 5000)::text, 10, '0'), lpad((4000000000 + g % 7000)::text, 10, '0'), 'A B', 'invoice ' || g,
		  now() - g * interval '10 seconds', 'vrd_' || g, 'APPROVE', 'LOW', 0, '{}', '[]', 1, now(), now()
		from generate_series(1, 120000) g`, string(ten.ID))
	require.NoError(b, err)
	_, err = db.Exec(ctx, "analyze transactions")
	require.NoError(b, err)
	body := map[string]any{"expression": `ctx.amountNgnKobo >= naira(4000) && ctx.count24h >= 1 && tx.narration.contains("invoice")`,
		"from": time.Now().Add(-30 * 24 * time.Hour).UTC().Format(time.RFC3339), "to": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}
	var res struct {
		Scanned, Matched, ElapsedMs int
		Truncated                   bool
	}
	for b.Loop() {
		s.rest("POST", "/api/v1/rules/backtest", cred{Bearer: admin}, body).decode(b, &res)
		require.True(b, res.Truncated)
	}
	b.ReportMetric(float64(res.ElapsedMs), "server-ms")
	b.ReportMetric(float64(res.Scanned), "scanned")
	b.ReportMetric(float64(res.Matched), "matched")
}
